import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readPhysicsResource } from '../../src/format/resource.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync(process.execPath, ['bin/compile-collision.js', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
const sample = 'samples/kinds.physics';

describe('compile-collision inspect / verify', () => {
  it('verify exits 0 when every file holds', () => {
    expect(run('verify', sample).status).toBe(0);
  });

  it('inspect prints the summary with decoded kinds, materials and edge classes (exit 0)', () => {
    const r = run('inspect', sample);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^PhysicsResource \(format version 2\), 1308 bytes: 4 parts, 3 shapes\nheader: ReSkate Studio's form \(header word 0x08 = 1, 76-byte body\)\nlayout: records placed exactly where ReSkate Studio \(and our compiler\) put them\n/);
    expect(r.stdout).toMatch(/part 1: convex \(kind 3\), shape 1, position \(1, 2, 3\).*slot 46 Metal_Rail/);
    expect(r.stdout).toMatch(/part 2: box \(kind 2\).*property 90 \[Stair\]/);
    expect(r.stdout).toMatch(/shape 2: .*6 planes[^]*planes vs faces: normal along winding 6, against 0, other 0; n·v = offset 0, n·v = −offset 6/);
    expect(r.stdout).toMatch(/shape 0: 4 vertices, 2 faces, 6 corners.*tree 1 nodes depth 1.*edges flat 2 \/ concave 0 \/ convex 0 \/ open 4/);
  });

  it('inspect --json dumps the whole record as plain JSON', () => {
    const r = run('inspect', sample, '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.summary.shapes).toHaveLength(3);
    expect(j.resource.shapes[0].cornerVertices).toEqual([0, 2, 1, 0, 3, 2]);
    expect(j.resource.shapes[0].tree).toEqual(['0000000000000000']);
    expect(j.resource.body).toHaveLength(0x4c);
  });

  it('verify: ok per good file, the file and check of a bad one, exit 1 when any fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const bad = join(dir, 'bad.physics');
    const bytes = new Uint8Array(readFileSync(join(root, sample)));
    bytes[4] ^= 0xff; // magic
    writeFileSync(bad, bytes);
    // Readable but wrong: the quad mesh's face offsets 0, 3, 6 stored as 0, 6, 3.
    const res = readPhysicsResource(new Uint8Array(readFileSync(join(root, sample))));
    const fo = res.layout!.arrays[0][7];
    const wrong = new Uint8Array(readFileSync(join(root, sample)));
    new DataView(wrong.buffer).setUint16(fo + 2, 6, true);
    new DataView(wrong.buffer).setUint16(fo + 4, 3, true);
    const unordered = join(dir, 'unordered.physics');
    writeFileSync(unordered, wrong);
    const r = run('verify', sample, 'test/format/reference/box.physics', bad, unordered);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/kinds.physics: ok\n.*box.physics: ok/);
    expect(r.stderr).toMatch(/bad.physics: read: header: at 0x4: magic: expected 0x69af7015, found 0x69af70ea/);
    expect(r.stderr).toMatch(/unordered.physics: face-offsets: shape 0: face 1: offsets 6 → 3 at 0x[0-9a-f]+ do not ascend/);
    expect(r.stderr).toMatch(/2 of 4 files failed/);
  });

  it('inspect of a truncated file exits 1 with the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inspect-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const cut = join(dir, 'cut.physics');
    writeFileSync(cut, readFileSync(join(root, sample)).subarray(0, 100));
    const r = run('inspect', cut);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cut.physics: .*run past the end \(input 100 bytes\)/);
  });
});
