// One file published the way the compiler publishes its output (src/output/): never onto an input, written to an
// exclusive temporary file beside it and moved into place by a rename (or a link) that never follows a symbolic
// link at the target, and, without `force`, never over anything there at that moment — a file, a directory, or a
// dangling link created while the work ran. Used by to-gltf.
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, openSync, renameSync, rmSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** What is at `path` without following a link there (undefined: nothing, not even a dangling link). */
function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new Error(`${path}: cannot look at it (${code ?? (e as Error).message})`);
  }
}

/** The identities (device, inode) of the inputs, as named and with links followed. */
function identities(inputs: string[]): Set<string> {
  const ids = new Set<string>();
  for (const f of inputs) {
    for (const get of [lstatSync, statSync]) {
      try {
        const st = get(f);
        ids.add(`${st.dev}:${st.ino}`);
      } catch {
        // gone or a loop: it is not the output either way
      }
    }
  }
  return ids;
}

/**
 * Throws `what: …` when `out` may not be written: it is one of the inputs (the same path, or the same file through
 * a hard or symbolic link) — even with `force` —, something is there and `force` is not given, or a directory is
 * there. The publish asks again at the moment it moves the file into place.
 */
export function checkTarget(out: string, inputs: string[], force: boolean, what: string): void {
  const here = lstatOrNone(out);
  const abs = resolve(out);
  if (inputs.some((f) => resolve(f) === abs) || (here && identities(inputs).has(`${here.dev}:${here.ino}`))) {
    throw new Error(`${what}: ${out} is one of the inputs; refusing to write over it (even with --force): give another -o`);
  }
  if (!here) return;
  if (here.isDirectory()) throw new Error(`${what}: ${out} is a directory; refusing to replace it`);
  if (!force) {
    const kind = here.isSymbolicLink() ? `a symbolic link${linkEnd(out)}` : here.isFile() ? 'a file' : 'not a regular file';
    throw new Error(`${what}: ${out} exists; pass --force to replace it (it is ${kind})`);
  }
}

/** What a symbolic link at p leads to, in words after "a symbolic link": '' (something), ' to nothing', ' loop'. */
function linkEnd(p: string): string {
  try {
    statSync(p);
    return '';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ELOOP' ? ' in a loop' : ' to nothing';
  }
}

/**
 * Writes `bytes` to `out` (see the file header): an exclusive temporary file beside it, then, without `force`, a
 * hard link to `out` that fails if anything is there (then the temporary file is removed), or with `force` a
 * rename over it (a link there is replaced, never followed). The target is checked again just before. Throws
 * `what: …` naming the path.
 */
export function publishFile(out: string, bytes: Uint8Array, inputs: string[], force: boolean, what: string): void {
  const tmp = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', 0o644);
  } catch (e) {
    throw new Error(`${what}: ${out}: cannot create a temporary file beside it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    try {
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    } finally {
      closeSync(fd);
    }
    checkTarget(out, inputs, force, what);
    if (force) {
      renameSync(tmp, out);
      return;
    }
    try {
      linkSync(tmp, out); // never replaces: whatever appeared at out meanwhile stays
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new Error(`${what}: ${out} exists (it appeared while converting); pass --force to replace it`);
      // A file system without hard links: the check above, then a rename (a narrow window, as without link()).
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
      renameSync(tmp, out);
      return;
    }
    unlinkSync(tmp);
  } catch (e) {
    rmSync(tmp, { force: true });
    const err = e as NodeJS.ErrnoException;
    throw err.message.startsWith(`${what}: `) ? err : new Error(`${what}: ${out}: ${err.code ?? err.message}`);
  }
}
