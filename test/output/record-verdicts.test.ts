// The build record keeps each output file's verdict (src/output/verdicts.ts keptVerdicts, src/build/unchanged.ts), so the next
// process checks a file it finds with the same stat stamp without reading it. What must hold: nothing is trusted
// from a record another user could have written, or from an entry that does not match the file and the manifest;
// a file changed in any way since (in place with its size and times put back, replaced, linked) is read and
// checked as before; a file changed too recently to be sure of is left out of the record.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel, type CompileResult } from '../../src/build/compile.ts';
import { checkedReads, forgetChecked, inspectOutput } from '../../src/output/ownership.ts';
import { adoptVerdicts, keptVerdicts, RACY_NS, type KeptVerdict } from '../../src/output/verdicts.ts';
import { readRecord, type BuildRecord } from '../../src/build/unchanged.ts';
import { tempDir } from '../fixtures/levels.ts';
import { outputFiles as files } from '../fixtures/edits.ts';

const SAMPLES = fileURLToPath(new URL('../../samples/', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-verdicts-');
afterAll(tmp.cleanup);
let n = 0;
let dir = '';
beforeEach(() => {
  dir = join(tmp.dir, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
});
const posix = typeof process.getuid === 'function';
const build = (level: string, out: string): Promise<CompileResult> => compileLevel(level, { out, workers: 1 }, { logger: { warn: () => {} } });
const level = (name = 'city-blocks.glb'): string => {
  const p = join(dir, name);
  copyFileSync(join(SAMPLES, name), p);
  return p;
};
const recordFile = (out: string): string => join(out, '.cache', readdirSync(join(out, '.cache')).find((f) => f.startsWith('build-'))!);
const record = (out: string): BuildRecord<unknown> => JSON.parse(readFileSync(recordFile(out), 'utf8'));
/** A new process's view: nothing checked yet; then a rebuild of the same level, counting the output files it reads. */
async function freshRebuild(lv: string, out: string): Promise<{ r: CompileResult; reads: number }> {
  forgetChecked();
  const before = checkedReads.count;
  const r = await build(lv, out);
  return { r, reads: checkedReads.count - before };
}

describe.skipIf(!posix)('verdicts kept in the build record', () => {
  it('a fresh process reads no file the record vouches for, and the output is unchanged', async () => {
    const lv = level();
    const out = join(dir, 'out');
    const first = await build(lv, out);
    const kept = record(out).files!;
    const listed = first.manifest.files.filter((f) => f !== 'manifest.json');
    // The record is written once every file is RACY_NS old (src/output/verdicts.ts outlastRacyWindow): it keeps them all.
    expect(kept.length).toBe(listed.length);
    expect(kept.every(([name]) => listed.includes(name))).toBe(true);
    const before = files(out);
    const { r, reads } = await freshRebuild(lv, out);
    expect(r.unchanged).toBe(true);
    expect(reads).toBe(listed.length - kept.length);
    // Names, then bytes with Buffer.equals: a deep toEqual of the Maps' Buffers took most of this test's time.
    const after = files(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect([...after].filter(([f, bytes]) => !bytes.equals(before.get(f)!)).map(([f]) => f)).toEqual([]);
  }, 60_000);

  it('after a rebuild that links the last output\'s files (their change times then the publish\'s), the record still vouches for every file', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, out);
    // Touched: not "nothing changed", so a whole build, every resource a cache hit linked from the last output,
    // whose removal at publish changes the linked files' change time.
    const t = new Date(Date.now() + 5_000);
    utimesSync(lv, t, t);
    const before = new Map(readdirSync(out).map((f) => [f, lstatSync(join(out, f)).ino]));
    const second = await build(lv, out);
    expect(second.unchanged).toBeUndefined();
    expect(second.cache!.hits).toBe(second.manifest.resources.length);
    const listed = second.manifest.files.filter((f) => f !== 'manifest.json');
    expect(listed.some((f) => lstatSync(join(out, f)).ino === before.get(f))).toBe(true); // linked, not written anew
    expect(record(out).files!.map(([f]) => f).sort()).toEqual([...listed].sort());
    const { r, reads } = await freshRebuild(lv, out);
    expect(r.unchanged).toBe(true);
    expect(reads).toBe(0);
  }, 60_000);

  it('a record writable by others, or another user\'s, vouches for nothing', async () => {
    const lv = level();
    const out = join(dir, 'out');
    const first = await build(lv, out);
    const listed = first.manifest.files.filter((f) => f !== 'manifest.json').length;
    const rec = recordFile(out);
    chmodSync(rec, 0o666);
    expect((await freshRebuild(lv, out)).reads).toBe(listed);
    chmodSync(rec, 0o644);
    expect((await freshRebuild(lv, out)).reads).toBeLessThan(listed);
    if (process.getuid!() === 0) {
      chownSync(rec, 65534, 65534);
      const { r, reads } = await freshRebuild(lv, out);
      expect(reads).toBe(listed);
      expect(r.unchanged).toBe(true); // the shortcut stands, proven by reading every file
    }
  }, 60_000);

  it('a file edited in place, its size and times put back, is read and refused', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, out);
    const name = readdirSync(out).find((f) => f.endsWith('.physics') && record(out).files!.some(([k]) => k === f));
    expect(name).toBeDefined();
    const path = join(out, name!);
    const st = statSync(path);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(path, bytes);
    utimesSync(path, st.atime, st.mtime); // mtime back; the change time cannot be set back
    forgetChecked();
    await expect(build(lv, out)).rejects.toThrow(new RegExp(`${name!.replace(/[.]/g, '\\.')} \\(listed, but its bytes are not what the build wrote`));
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('entries that do not match the file or the manifest are not taken on their word', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, out);
    const kept = record(out).files!;
    expect(kept.length).toBeGreaterThan(0);
    const listed = readdirSync(out).filter((f) => f !== 'manifest.json' && f !== '.cache').length;
    const forge = (f: (e: KeptVerdict) => unknown[]): void => {
      forgetChecked();
      adoptVerdicts(out, kept.map(f));
    };
    const reads = (): number => {
      const before = checkedReads.count;
      inspectOutput(out);
      return checkedReads.count - before;
    };
    // Another inode, another CRC-32 than the manifest's, a name outside the output, a name the tool never writes.
    forge(([name, stamp, crc, sha]) => [name, stamp.replace(/^(\d+):(\d+)/, (_, d, i) => `${d}:${BigInt(i) + 1n}`), crc, sha]);
    expect(reads()).toBe(listed);
    forge(([name, stamp, crc, sha]) => [name, stamp, crc === '00000000' ? '00000001' : '00000000', sha]);
    expect(reads()).toBe(listed);
    expect(adoptVerdicts(out, [['../x.physics', kept[0][1], kept[0][2], ''], ['notes.txt', kept[0][1], kept[0][2], ''], [kept[0][0], 'x', kept[0][2], ''], [kept[0][0], kept[0][1], kept[0][2], 'zz'], 'junk', null])).toBe(0);
    forge((e) => e);
    expect(reads()).toBe(listed - kept.length);
  });

  it('a file changed within RACY_NS of the record is left out of it', async () => {
    const lv = level('skatepark.glb');
    const out = join(dir, 'out');
    await build(lv, out);
    const names = readdirSync(out).filter((f) => f.endsWith('.physics'));
    inspectOutput(out); // this process's verdicts for every file
    const newest = names.map((f) => lstatSync(join(out, f), { bigint: true })).reduce((a, b) => (a.ctimeNs > b.ctimeNs ? a : b));
    const at = (ctimeNs: bigint): BigIntStats => ({ ...newest, ctimeNs: ctimeNs + 1n }) as BigIntStats;
    const late = at(newest.ctimeNs + RACY_NS);
    expect(keptVerdicts(out, names, late).length).toBe(names.length);
    expect(keptVerdicts(out, names, at(newest.ctimeNs + RACY_NS - 2n)).map(([f]) => f)).not.toContain(names.find((f) => lstatSync(join(out, f), { bigint: true }).ctimeNs === newest.ctimeNs));
    // A clock in whole milliseconds (a coarse file system) keeps nothing; another device keeps nothing.
    expect(keptVerdicts(out, names, { ...late, ctimeNs: (late.ctimeNs / 1_000_000n + 1n) * 1_000_000n } as BigIntStats)).toEqual([]);
    expect(keptVerdicts(out, names, { ...late, dev: late.dev + 1n } as BigIntStats)).toEqual([]);
  });

  it('readRecord takes verdicts only from a plain file of its own, not through a link', async () => {
    const lv = level();
    const out = join(dir, 'out');
    await build(lv, out);
    const rec = recordFile(out);
    const text = readFileSync(rec);
    const elsewhere = join(dir, 'planted.json');
    writeFileSync(elsewhere, text, { mode: 0o644 });
    spawnSync('ln', ['-sf', elsewhere, rec]);
    expect(lstatSync(rec).isSymbolicLink()).toBe(true);
    forgetChecked();
    const before = checkedReads.count;
    expect(readRecord(join(out, '.cache'), out)).toBeDefined(); // still read, for the unchanged proof (which reads every file)
    inspectOutput(out);
    expect(checkedReads.count - before).toBe(readdirSync(out).filter((f) => f !== 'manifest.json' && f !== '.cache').length);
  });
});

describe.skipIf(!posix)('as a user runs it', () => {
  it('the CLI: the second run proves nothing changed; an in-place edit with the times put back is still caught', () => {
    const lv = level();
    const out = join(dir, 'out');
    const run = () => spawnSync(process.execPath, [BIN, lv, '-o', out, '--json', '--workers', '1'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(run().status).toBe(0);
    const second = run();
    expect(second.status).toBe(0);
    expect(Object.keys(JSON.parse(second.stdout).timings)).toEqual(['unchanged']);
    const name = record(out).files![0][0];
    const path = join(out, name);
    const st = statSync(path);
    const bytes = readFileSync(path);
    bytes[100] ^= 1;
    writeFileSync(path, bytes);
    utimesSync(path, st.atime, st.mtime);
    const third = run();
    expect(third.status).toBe(1);
    expect(third.stdout + third.stderr).toContain(`${name} (listed, but its bytes are not what the build wrote`);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  }, 60_000);
});
