// src/export/recorded.ts: the build record to-gltf writes is read back from the GLB's JSON chunk and turned into
// CompileOptions; every truncated prefix and seeded byte mutations of a GLB either read (a record or none) or are
// refused as `recorded: <file>: ...`, never another error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resourcesToGltf } from '../../src/export/gltf.ts';
import { readRecordedBuild, recordedCompileOptions } from '../../src/export/recorded.ts';

const dir = mkdtempSync(join(tmpdir(), 'recorded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = { scene: null, cellSize: 50, budget: 10, tiling: 'auto', allowCustomSlots: false, header: 'studio' as const, seams: 'shape' as const, shapes: { chordError: 0.01, hullParts: true, nativeShapes: 'experimental' as const } };
const record = { options, layout: 'cells' as const, header: { word08: 1, body: 'ab'.repeat(0x4c) } };

async function glbWithRecord(): Promise<Uint8Array> {
  const bytes = new Uint8Array(readFileSync('test/golden/box.physics'));
  return (await resourcesToGltf([{ file: 'box.physics', bytes, name: 'box', cell: null }], {}, record)).glb;
}

describe('recorded build', () => {
  it('reads back what to-gltf recorded, as the options that give the output again', async () => {
    const path = join(dir, 'r.glb');
    writeFileSync(path, await glbWithRecord());
    const rec = readRecordedBuild(path)!;
    expect(rec).toEqual(record);
    const o = recordedCompileOptions(rec, path);
    expect(o).toMatchObject({ cellSize: 50, budget: 10, tiling: 'cells', seams: 'shape', shapes: { chordError: 0.01, hullParts: true, nativeShapes: true } });
    expect(o.encode?.header?.word08).toBe(1);
    expect(o.encode?.header?.body.length).toBe(0x4c);
  });

  it('a bad cell size or seams mode in the record is refused naming the file', () => {
    expect(() => recordedCompileOptions({ ...record, options: { ...options, cellSize: 70 } }, 'x.glb')).toThrow(/^recorded: x\.glb: cell size 70/);
    expect(() => recordedCompileOptions({ ...record, options: { ...options, seams: 'none' as never } }, 'x.glb')).toThrow(/^recorded: x\.glb: seams/);
  });

  it('carried seam values pass through whole, and a list that is not whole joins of finite numbers in 0…1 is refused naming the file', () => {
    const join7 = [1, 2, 3, 4, 5, 6, 0.7071068];
    expect(recordedCompileOptions({ ...record, seamValues: join7 }, 'x.glb').seamValues).toEqual(join7);
    expect(recordedCompileOptions(record, 'x.glb').seamValues).toBeUndefined();
    const bad = (v: unknown) => () => recordedCompileOptions({ ...record, seamValues: v as number[] }, 'x.glb');
    expect(bad('1,2')).toThrow(/^recorded: x\.glb: sk8_compile\.seamValues is not a list/);
    expect(bad(join7.slice(1))).toThrow(/^recorded: x\.glb: sk8_compile\.seamValues holds 6 numbers, not 7 a join/);
    expect(bad([...join7.slice(0, 6), 1.5])).toThrow(/\[6\]: convex value 1\.5 outside 0…1/);
    expect(bad([1, 2, null, 4, 5, 6, 0.5])).toThrow(/\[2\] is null, not a finite number/);
    expect(bad([1, 2, 3, 4, 5, 6, -0.5])).toThrow(/convex value -0\.5/);
  });

  it('every truncated prefix and 300 seeded mutations read or are refused as recorded: <file>', async () => {
    const glb = await glbWithRecord();
    const path = join(dir, 'm.glb');
    const tryRead = (b: Uint8Array): void => {
      writeFileSync(path, b);
      try {
        readRecordedBuild(path);
      } catch (e) {
        expect((e as Error).message).toMatch(/^recorded: .*m\.glb: /);
      }
    };
    // The header and JSON chunk are what the reader touches: every prefix up to past the JSON, then a coarse sweep.
    const json = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true) + 20;
    for (let n = 0; n < glb.length; n += n < json + 8 ? 1 : 257) tryRead(glb.subarray(0, n));
    let seed = 7;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (let k = 0; k < 300; k++) {
      const b = glb.slice();
      for (let m = 0; m < 3; m++) b[Math.floor(rnd() * Math.min(b.length, json))] = Math.floor(rnd() * 256);
      tryRead(b);
    }
  });
});
