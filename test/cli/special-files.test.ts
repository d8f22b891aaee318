// Trust, "special files" and "smaller": what a user's disk may hold where a level, a .physics file or a
// manifest.json is expected (a symbolic link loop, a dangling link, a FIFO, /dev/zero, a directory) is named and
// refused within a second, never a raw ELOOP stack trace, a hang or memory eaten; and names carrying terminal
// escape codes are printed escaped. Each through the CLI as a user runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeControl } from '../../cli/terminal.ts';
import { addNode, boxMesh, newLevel, tempDir, writeLevel } from '../fixtures/levels.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-special-');
afterAll(tmp.cleanup);
const at = (p: string): string => join(tmp.dir, p);
/** Spawned as a user runs it; 5 s at most (a hang fails the test, it does not stall the suite). */
const run = (...args: string[]) => {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, CI: '1' }, timeout: 5_000, maxBuffer: 1 << 24 });
  return { ...r, ms: Date.now() - t0 };
};
const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;

beforeAll(() => {
  symlinkSync('loop', at('loop'));
  symlinkSync('loop-b.glb', at('loop-a.glb'));
  symlinkSync('loop-a.glb', at('loop-b.glb'));
  symlinkSync('nowhere.glb', at('dangling.glb'));
  symlinkSync('/dev/zero', at('zero.physics'));
  mkdirSync(at('dir.glb'));
  mkdirSync(at('out-zero'));
  symlinkSync('/dev/zero', at('out-zero/manifest.json'));
  mkdirSync(at('out-loop'));
  symlinkSync('manifest.json', at('out-loop/manifest.json'));
  if (hasMkfifo) {
    spawnSync('mkfifo', [at('fifo.glb'), at('fifo.physics')]);
    mkdirSync(at('out-fifo'));
    spawnSync('mkfifo', [at('out-fifo/manifest.json')]);
    spawnSync('mkfifo', [at('fifo-map.json')]);
  }
  symlinkSync('/dev/zero', at('zero-map.json'));
  writeFileSync(at('tiny.forge'), 'scimitar');
});

/** A refusal: the exit code, a message naming the path and what it is, no stack trace, within a second or so. */
function refused(r: ReturnType<typeof run>, path: string, what: RegExp, code: number): void {
  expect(r.error, 'the command hung').toBeUndefined();
  expect(r.status, r.stderr).toBe(code);
  expect(r.stderr).toContain(path);
  expect(r.stderr).toMatch(what);
  expect(r.stderr).not.toMatch(/\n\s+at |node:fs|ELOOP:/);
  expect(r.ms).toBeLessThan(4_000); // node start-up included; the refusal itself is immediate
}

describe('a level path that is not a level file says what it is (not "no such level")', () => {
  it('a symbolic link loop', () => refused(run('loop-a.glb'), 'loop-a.glb', /is a symbolic link loop, not a level file/, 2));
  it('a dangling link', () => refused(run('dangling.glb'), 'dangling.glb', /symbolic link to "nowhere.glb", which does not exist/, 2));
  it('a directory', () => refused(run('dir.glb'), 'dir.glb', /is a directory, not a level file/, 2));
  it('a character device', () => refused(run('/dev/null'), '/dev/null', /is a character device, not a level file/, 2));
  it.skipIf(!hasMkfifo)('a FIFO, without waiting for a writer', () => refused(run('fifo.glb'), 'fifo.glb', /is a FIFO \(named pipe\), not a level file/, 2));
  it('a missing file is still "no such level"', () => refused(run('missing.glb'), 'missing.glb', /no such level/, 2));
});

describe('inspect, verify and diff on special files', () => {
  for (const cmd of ['inspect', 'verify']) {
    it(`${cmd}: a symbolic link loop`, () => refused(run(cmd, 'loop'), 'loop', /a symbolic link loop; refusing to read it/, 1));
    it(`${cmd}: a .physics link to /dev/zero`, () => refused(run(cmd, 'zero.physics'), 'zero.physics', /a character device, not a regular file/, 1));
    it(`${cmd}: an output whose manifest.json links to /dev/zero`, () => refused(run(cmd, 'out-zero'), 'out-zero', /manifest\.json unreadable: a character device/, 1));
    it(`${cmd}: an output whose manifest.json is a link to itself`, () => refused(run(cmd, 'out-loop'), 'out-loop', /manifest\.json unreadable: a symbolic link loop/, 1));
    it.skipIf(!hasMkfifo)(`${cmd}: an output whose manifest.json is a FIFO`, () => refused(run(cmd, 'out-fifo'), 'out-fifo', /manifest\.json unreadable: a FIFO/, 1));
    it.skipIf(!hasMkfifo)(`${cmd}: a .physics FIFO`, () => refused(run(cmd, 'fifo.physics'), 'fifo.physics', /a FIFO \(named pipe\), not a regular file/, 1));
  }
  it.skipIf(!hasMkfifo)('--forge-materials: a FIFO map is refused, not waited on', () => {
    refused(run('tiny.forge', '--forge-materials', 'fifo-map.json', '-o', 'forge-out'), 'fifo-map.json', /forge-materials: .*a FIFO \(named pipe\), not a regular file/, 1);
  });
  it('--forge-materials: a map linked to /dev/zero is refused, not read', () => {
    refused(run('tiny.forge', '--forge-materials', 'zero-map.json', '-o', 'forge-out'), 'zero-map.json', /forge-materials: .*a character device, not a regular file/, 1);
  });
  it('diff: folders whose manifests are /dev/zero and a loop', () => refused(run('diff', 'out-zero', 'out-loop'), 'out-zero', /manifest\.json unreadable: a character device/, 2));
});

describe('terminal escape codes in names', () => {
  it('escapeControl shows C0/C1 controls, DEL and bidi overrides as escapes and keeps text, tabs and newlines', () => {
    expect(escapeControl('a\x1b[31mred\x07\tok\nnext\x7f\x9b\u202eevil é ü 日本')).toBe('a\\x1b[31mred\\x07\tok\nnext\\x7f\\x9b\\u202eevil é ü 日本');
    expect(escapeControl('\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\')).not.toMatch(/[\x1b\x07]/);
  });

  it('a node named with ESC, BEL and an OSC-8 link is printed escaped in the build\'s warnings', async () => {
    const name = 'crate\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07\x1b[2J';
    const doc = newLevel();
    addNode(doc, { name, ...boxMesh([0, 0.5, 0], [0.5, 0.5, 0.5]), material: 'Blorp\x1b[31m' });
    await writeLevel(doc, at('esc.glb'));
    const r = run('esc.glb', '--verbose');
    expect(r.status, r.stderr).toBe(0);
    const all = r.stdout + r.stderr;
    expect(all).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(all).toContain('\\x1b]8;;http://evil.example/\\x07click');
    expect(existsSync(at('esc.collision/manifest.json'))).toBe(true);
  });
});
