// blender/skate_collision/locate.py is plain Python: its rules for where node and the compiler may come from are
// checked here without Blender (test/blender/locate_cases.py, on folders made in a temporary directory), so they
// run wherever python3 does, in a fraction of a second.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyTempDir } from '../fixtures/levels.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = process.env.PYTHON || 'python3';
const hasPython = spawnSync(PYTHON, ['-c', 'pass']).status === 0;
const tmp = lazyTempDir('sk8-locate-');
afterAll(() => tmp.cleanup());

describe.skipIf(!hasPython || process.platform === 'win32')('locate.py (the add-on finding node and the compiler)', () => {
  it('never takes a program from a relative folder, nor from under a folder others can write or re-point', () => {
    const r = spawnSync(PYTHON, [join(ROOT, 'test/blender/locate_cases.py'), join(ROOT, 'blender/skate_collision'), tmp.dir], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^OK \d+/m);
  });
});
