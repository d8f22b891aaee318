// The cache's pack files (src/output/cache-pack.ts): appended slices read back as written; a name already taken (a file or
// a planted link) is never written through; a slice is read only from a plain file that holds all of it, never
// through a link; index values that are paths or out of range are not slices.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSlice, PACK_NAME, PackWriter, readSlice } from '../../src/output/cache-pack.ts';
import { MAX_RESOURCE_BYTES } from '../../src/files.ts';
import { tempDir } from '../fixtures/levels.ts';

const tmp = tempDir('sk8-pack-');
afterAll(tmp.cleanup);
const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7) & 0xff);

describe('pack files', () => {
  it('slices appended one after another read back byte for byte', () => {
    const w = new PackWriter(join(tmp.dir, 'pack-1-1-0000abcd-0.bin'));
    const parts = [bytes(100, 1), bytes(1, 2), bytes(70_000, 3)];
    const slices = parts.map((p) => w.append(p)!);
    w.close();
    expect(slices.map((s) => [s.pack, s.at, s.size])).toEqual([
      ['pack-1-1-0000abcd-0.bin', 0, 100],
      ['pack-1-1-0000abcd-0.bin', 100, 1],
      ['pack-1-1-0000abcd-0.bin', 101, 70_000],
    ]);
    expect(w.size).toBe(70_101);
    slices.forEach((s, i) => expect(Buffer.from(readSlice(w.path, s.at, s.size)!).equals(Buffer.from(parts[i]))).toBe(true));
    expect(readFileSync(w.path).length).toBe(70_101);
    expect(w.append(new Uint8Array(0))).toBeUndefined(); // nothing to keep: no entry
  });

  it('a name already taken, by a file or a link, is not written through; later appends are refused too', () => {
    const victim = join(tmp.dir, 'victim.txt');
    writeFileSync(victim, 'mine');
    const link = join(tmp.dir, 'pack-1-1-0000abcd-1.bin');
    symlinkSync(victim, link);
    const w = new PackWriter(link);
    expect(w.append(bytes(10, 1))).toBeUndefined();
    expect(w.append(bytes(10, 2))).toBeUndefined();
    w.close();
    expect(readFileSync(victim, 'utf8')).toBe('mine');
    const taken = join(tmp.dir, 'pack-1-1-0000abcd-2.bin');
    writeFileSync(taken, 'earlier');
    expect(new PackWriter(taken).append(bytes(10, 1))).toBeUndefined();
    expect(readFileSync(taken, 'utf8')).toBe('earlier');
  });

  it('a slice is read only from a plain file holding all of it: not through a link, not past the end, not from a folder or FIFO', () => {
    const path = join(tmp.dir, 'pack-2-1-0000abcd-0.bin');
    writeFileSync(path, bytes(1000, 5));
    expect(readSlice(path, 900, 100)).toHaveLength(100);
    expect(readSlice(path, 900, 101)).toBeUndefined();
    const link = join(tmp.dir, 'pack-2-1-0000abcd-1.bin');
    symlinkSync(path, link);
    expect(readSlice(link, 0, 10)).toBeUndefined();
    truncateSync(path, 950);
    expect(readSlice(path, 900, 100)).toBeUndefined();
    const folder = join(tmp.dir, 'pack-2-1-0000abcd-2.bin');
    mkdirSync(folder);
    expect(readSlice(folder, 0, 1)).toBeUndefined();
    const fifo = join(tmp.dir, 'pack-2-1-0000abcd-3.bin');
    execFileSync('mkfifo', [fifo]);
    expect(readSlice(fifo, 0, 1)).toBeUndefined(); // O_NONBLOCK: no writer, no hang
    expect(readSlice(join(tmp.dir, 'absent.bin'), 0, 1)).toBeUndefined();
  });

  it('sizes out of range are refused before anything is allocated or opened', () => {
    const path = join(tmp.dir, 'pack-3-1-0000abcd-0.bin');
    writeFileSync(path, bytes(10, 1));
    for (const [at, size] of [[-1, 1], [0, 0], [0, -5], [0.5, 1], [0, 1.5], [0, MAX_RESOURCE_BYTES + 1], [Number.MAX_SAFE_INTEGER + 2, 1], [0, Infinity], [NaN, 1]]) {
      expect(readSlice(path, at, size), `${at} ${size}`).toBeUndefined();
    }
  });

  it('an index slice names a pack of our shape, never a path', () => {
    const good = { pack: 'pack-12-345-0123abcd-7.bin', at: 0, size: 10 };
    expect(isSlice(good)).toBe(true);
    expect(isSlice({ ...good, pack: 'pack-12-345-0123abcd-m.bin' })).toBe(true);
    expect(isSlice({ ...good, pack: 'pack-12-345-0123abcd-c.bin' })).toBe(true);
    for (const pack of ['../pack-1-1-0123abcd-0.bin', 'r/pack-1-1-0123abcd-0.bin', '/tmp/pack-1-1-0123abcd-0.bin', 'pack-1-1-0123ABCD-0.bin', 'pack-1-1-0123abcd-0.bin/', 'x.physics', '', 7]) {
      expect(isSlice({ ...good, pack: pack as string }), String(pack)).toBe(false);
    }
    expect(isSlice({ ...good, at: -1 })).toBe(false);
    expect(isSlice({ ...good, size: 0 })).toBe(false);
    expect(isSlice({ ...good, size: MAX_RESOURCE_BYTES + 1 })).toBe(false);
    expect(isSlice({ ...good, at: '0' as unknown as number })).toBe(false);
    expect(PACK_NAME.test('pack-1-1-0123abcd-0.bin\n')).toBe(false);
  });
});
