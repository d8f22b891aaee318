// inspect/verify/diff arguments → .physics files: a file as given, a folder as its .physics files (a compile
// output, one holding manifest.json, as a whole), a glob (quoted, so the shell left it) as what it matches.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../src/build/compile.ts';
import { PHYSICS_HEAD_BYTES as HEAD_BYTES, readManifestText, readPhysicsBytes, readRegularFile, whatIsNot, type ReadBuffer } from '../src/files.ts';
import { identify, notPhysics } from '../src/format/identify.ts';
import { checkManifest } from '../src/export/manifest-read.ts';

export interface InputGroup {
  /** The argument as given. */
  arg: string;
  /** 'file' (one path), 'folder' (its .physics), 'output' (a compile output: folder with our manifest.json), 'glob'. */
  kind: 'file' | 'folder' | 'output' | 'glob';
  files: string[];
  /** For an output: its manifest (undefined when unreadable; `manifestError` says why). */
  manifest?: Manifest;
  manifestError?: string;
}

// whatIsNot never throws: a link loop or a dangling link is told in words, not as a raw ELOOP stack trace.
const isDir = (p: string): boolean => whatIsNot(p) === 'a directory';
const exists = (p: string): boolean => whatIsNot(p) !== 'no such file';

/** Why a folder could not be listed, in words (a link loop, gone, or the system's code). */
function listError(dir: string, e: unknown): string {
  const not = whatIsNot(dir);
  return not && not !== 'a directory' ? not : ((e as NodeJS.ErrnoException).code ?? (e as Error).message);
}

/** `manifest`: false to list the folder only (a compile output is then a folder: its manifest.json is not read). */
export function folderGroup(dir: string, arg = dir, manifest = true): InputGroup {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /\.physics$/i.test(f)).sort().map((f) => join(dir, f));
  } catch (e) {
    // Gone, unreadable or a link loop since it was looked at: told in words, as an output whose files cannot be listed.
    return { arg, kind: 'output', files: [], manifestError: `${dir}: cannot list the folder: ${listError(dir, e)}` };
  }
  const manifestPath = join(dir, 'manifest.json');
  if (!manifest || !exists(manifestPath)) return { arg, kind: 'folder', files };
  let value: unknown;
  try {
    // A regular file of bounded size only: a FIFO there would hang the command, a link to /dev/zero eat memory.
    value = JSON.parse(readManifestText(manifestPath));
  } catch (e) {
    return { arg, kind: 'output', files, manifestError: `manifest.json unreadable: ${(e as Error).message}` };
  }
  const tool = typeof value === 'object' && value !== null ? (value as { tool?: unknown }).tool : undefined;
  if (typeof tool !== 'object' || tool === null || (tool as { name?: unknown }).name !== 'compile-collision') return { arg, kind: 'folder', files };
  try {
    // Every field the commands read, type-checked: a wrong one is named, never a TypeError further on.
    const manifest: Manifest = checkManifest(value, manifestPath);
    return { arg, kind: 'output', files, manifest };
  } catch (e) {
    return { arg, kind: 'output', files, manifestError: (e as Error).message };
  }
}

/**
 * Expands the arguments; `unmatched` lists the ones that name nothing. `manifests: false` for a command that needs only
 * the files (ride): a compile output's manifest.json is not read and checked (on the 1M bench level's output ~20 ms).
 */
export async function expandPhysicsInputs(args: string[], opts: { manifests?: boolean } = {}): Promise<{ groups: InputGroup[]; unmatched: string[] }> {
  const manifests = opts.manifests ?? true;
  // glob (~20–50 ms to load) only for an argument that names nothing as it stands: a path that exists is taken as
  // given, so `ride OUT` and `verify a.physics` never load it.
  let globLib: typeof import('glob') | undefined;
  const groups: InputGroup[] = [];
  const unmatched: string[] = [];
  for (const arg of args) {
    if (exists(arg)) {
      groups.push(isDir(arg) ? folderGroup(arg, arg, manifests) : { arg, kind: 'file', files: [arg] });
      continue;
    }
    const { glob, hasMagic } = (globLib ??= await import('glob'));
    if (hasMagic(arg, { windowsPathsNoEscape: true })) {
      const hits = (await glob(arg, { windowsPathsNoEscape: true })).sort();
      if (hits.length === 0) unmatched.push(arg);
      const files = hits.filter((h) => !isDir(h));
      if (files.length) groups.push({ arg, kind: 'glob', files });
      for (const d of hits.filter(isDir)) groups.push(folderGroup(d, d, manifests));
    } else unmatched.push(arg);
  }
  return { groups, unmatched };
}

/**
 * A file's bytes when it is a PhysicsResource; otherwise what it is, in words (a level, an empty file, not a regular
 * file, larger than any PhysicsResource: src/files.ts readPhysicsBytes, which `into` reads into a reused buffer).
 */
export const readPhysicsFile = (path: string, into?: ReadBuffer): { bytes: Uint8Array } | { error: string } => readPhysicsBytes(path, into);

/** Why `path` is not a PhysicsResource from its first bytes (as readPhysicsFile says it), or undefined when it may be one. */
export function readPhysicsHead(path: string): string | undefined {
  try {
    const kind = identify(readRegularFile(path, HEAD_BYTES, 'truncate'), path);
    return kind === 'physics' ? undefined : notPhysics(kind, statSync(path).size);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return err.code === 'ENOENT' ? 'no such file' : err.message;
  }
}
