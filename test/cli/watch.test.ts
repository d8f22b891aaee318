// compile-collision LEVEL --watch, spawned as a user runs it: a first build, one line per rebuild after a change
// (an export written in several steps gives one rebuild), only what changed re-encoded, a broken export keeps the
// last good output and says why, the next good export builds again, and Ctrl-C (SIGINT) ends it with exit 0.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, tempDir } from '../fixtures/levels.ts';
import { boxBound, writeYbn, writeYmapXml } from '../fixtures/ybn.ts';
import { watchLevel } from '../../cli/watch.ts';
import type { CompileResult } from '../../src/build/compile.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../samples/skatepark.glb', import.meta.url));
const tmp = tempDir('sk8-watch-');
afterAll(tmp.cleanup);

/** compile-collision ARGS --watch --workers 1, spawned: its stdout lines as they come, stderr, its exit, a wait for n lines. */
function watching(...args: string[]) {
  const p = spawn(process.execPath, [BIN, ...args, '--watch', '--workers', '1'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
  const lines: string[] = [];
  const err = { text: '' };
  let buf = '';
  p.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  p.stderr.on('data', (d: Buffer) => (err.text += d.toString()));
  const exited = new Promise<number | null>((r) => p.on('exit', (code) => r(code)));
  const waitLines = async (n: number, ms = 60_000): Promise<void> => {
    const t0 = Date.now();
    while (lines.length < n) {
      if (Date.now() - t0 > ms) throw new Error(`waited for ${n} lines, got ${lines.length}: ${lines.join(' | ')}; stderr: ${err.text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { p, lines, stderr: err, exited, waitLines };
}

describe('--watch', () => {
  it('rebuilds once per (multi-step) change, reuses the rest, keeps the last output on a bad export', { timeout: 120_000 }, async () => {
    const level = join(tmp.dir, 'level.glb');
    const out = join(tmp.dir, 'level.collision');
    // The level as this test's writer writes it (the sample's own file was written by another), edited below.
    const doc = await io().read(SAMPLE);
    const base = await io().writeBinary(doc);
    writeFileSync(level, base);
    const { p, lines, stderr, exited, waitLines } = watching(level);
    const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    try {
      await waitLines(1);
      expect(lines[0]).toMatch(/first build: 17 resources \(17 rebuilt, 0 from the cache\), \d+ warning\(s\) → .*level\.collision in \d+ ms$/);
      expect(stderr.text).toMatch(/watching .*level\.glb/);
      const manifest1 = readFileSync(join(out, 'manifest.json'));

      // An export in three steps, 40 ms apart (truncate, half, whole): one rebuild of the one moved object.
      const node = doc.getRoot().listNodes().find((n) => n.getName() === 'manual_pad')!;
      expect(node.listChildren()).toEqual([]); // a leaf: moving it moves no other object
      const t = node.getTranslation();
      node.setTranslation([t[0] + 2, t[1], t[2]]);
      const moved = await io().writeBinary(doc);
      writeFileSync(level, '');
      await settle(40);
      writeFileSync(level, moved.subarray(0, moved.length >> 1));
      await settle(40);
      writeFileSync(level, moved);
      await waitLines(2);
      await settle(1_500); // no second rebuild follows
      expect(lines).toHaveLength(2);
      expect(lines[1], lines[1]).toMatch(/level\.glb changed: 17 resources \(1 rebuilt, 16 from the cache\)/);
      expect(readFileSync(join(out, 'manifest.json')).equals(manifest1)).toBe(false);
      const manifest2 = readFileSync(join(out, 'manifest.json'));
      const bollard2 = readFileSync(join(out, 'manual_pad.physics'));

      // A broken export: the build fails, says why, and the last good output stays as it was.
      writeFileSync(level, 'not a glb');
      await waitLines(3);
      expect(lines[2]).toMatch(/level\.glb changed: build failed, the last output is kept: .*level\.glb/);
      expect(readFileSync(join(out, 'manifest.json')).equals(manifest2)).toBe(true);
      expect(readFileSync(join(out, 'manual_pad.physics')).equals(bollard2)).toBe(true);

      // The original again: every resource from the cache (the first build's entries are still kept).
      writeFileSync(level, base);
      await waitLines(4);
      expect(lines[3]).toMatch(/level\.glb changed: 17 resources \(0 rebuilt, 17 from the cache\)/);
      expect(readFileSync(join(out, 'manifest.json')).equals(manifest1)).toBe(true);
    } finally {
      p.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('a GTA V interior placed by a .ymap.xml: moving it in the .ymap.xml rebuilds it there; a broken one keeps the last output', { timeout: 120_000 }, async () => {
    const dir = join(tmp.dir, 'mlo');
    mkdirSync(dir);
    const ybn = join(dir, 'v_skate_a.ybn');
    const ymap = join(dir, 'map.ymap.xml');
    const placed = (x: number): string => writeYmapXml([{ type: 'CMloInstanceDef', archetype: 'v_skate_a', position: [x, 200, 10], rotation: [0, 0, 0, 1] }]);
    writeFileSync(ybn, writeYbn(boxBound()).file);
    writeFileSync(ymap, placed(100));
    const { p, lines, stderr, exited, waitLines } = watching(ybn, '--ymap', ymap);
    // The x of the placed resource's bounds in the manifest (the interior sits where the placement puts it).
    const out = join(dir, 'v_skate_a.collision');
    const minX = (): number => {
      const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
      return Math.min(...m.resources.map((r: { bounds: { min: number[] } }) => r.bounds.min[0]));
    };
    try {
      await waitLines(1);
      expect(lines[0], stderr.text).toMatch(/first build: /);
      const x1 = minX();
      writeFileSync(ymap, placed(140));
      await waitLines(2);
      expect(lines[1]).toMatch(/map\.ymap\.xml changed: \d+ resources?/);
      expect(minX() - x1).toBeCloseTo(40, 3);
      const manifest2 = readFileSync(join(out, 'manifest.json'));
      writeFileSync(ymap, placed(140).replace('x="140"', 'x="a"'));
      await waitLines(3);
      expect(lines[2]).toMatch(/map\.ymap\.xml changed: build failed, the last output is kept: ymap-xml: .*map\.ymap\.xml: .*not a finite number/);
      expect(readFileSync(join(out, 'manifest.json')).equals(manifest2)).toBe(true);
    } finally {
      p.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('warms up once, after the first good build, and a failing warm-up changes nothing', { timeout: 30_000 }, async () => {
    const level = join(tmp.dir, 'fake.glb');
    writeFileSync(level, 'v1');
    const calls: string[] = [];
    const lines: string[] = [];
    const result = { manifest: { resources: [], warnings: [] }, outDir: '/out', cache: undefined } as unknown as CompileResult;
    const w = await watchLevel(level, {}, {
      line: (t) => lines.push(t),
      compile: async () => {
        const text = readFileSync(level, 'utf8');
        calls.push(`compile ${text}`);
        if (text === 'bad') throw new Error('gltf: bad input');
        return result;
      },
      warmUp: async () => {
        calls.push('warm');
        throw new Error('ignored');
      },
    });
    const until = async (n: number): Promise<void> => {
      for (let t = 0; lines.length < n; t += 20) {
        if (t > 20_000) throw new Error(`lines: ${lines.join(' | ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await until(1);
      writeFileSync(level, 'v2');
      await until(2);
      writeFileSync(level, 'bad');
      await until(3);
      writeFileSync(level, 'v3');
      await until(4);
      expect(calls).toEqual(['compile v1', 'warm', 'compile v2', 'compile bad', 'compile v3']);
      expect(lines[2]).toMatch(/build failed, the last output is kept: gltf: bad input/);
      expect(lines.some((l) => /ignored/.test(l))).toBe(false);
    } finally {
      await w.stop();
    }
  });
});
