// inspect/verify/diff arguments → .physics files: a file as given, a folder as its .physics files (a compile
// output, one holding manifest.json, as a whole), a glob (quoted, so the shell left it) as what it matches.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../src/compile.ts';
import { readManifestText, readPhysicsFile as readCapped, whatIsNot } from '../src/files.ts';
import { identify, notPhysics } from '../src/format/identify.ts';

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

export function folderGroup(dir: string, arg = dir): InputGroup {
  const files = readdirSync(dir).filter((f) => /\.physics$/i.test(f)).sort().map((f) => join(dir, f));
  const manifestPath = join(dir, 'manifest.json');
  if (!exists(manifestPath)) return { arg, kind: 'folder', files };
  try {
    // A regular file of bounded size only: a FIFO there would hang the command, a link to /dev/zero eat memory.
    const manifest = JSON.parse(readManifestText(manifestPath)) as Manifest;
    if (manifest?.tool?.name !== 'compile-collision') return { arg, kind: 'folder', files };
    return { arg, kind: 'output', files, manifest };
  } catch (e) {
    return { arg, kind: 'output', files, manifestError: `manifest.json unreadable: ${(e as Error).message}` };
  }
}

/** Expands the arguments; `unmatched` lists the ones that name nothing. */
export async function expandPhysicsInputs(args: string[]): Promise<{ groups: InputGroup[]; unmatched: string[] }> {
  const { glob, hasMagic } = await import('glob');
  const groups: InputGroup[] = [];
  const unmatched: string[] = [];
  for (const arg of args) {
    if (exists(arg)) {
      groups.push(isDir(arg) ? folderGroup(arg) : { arg, kind: 'file', files: [arg] });
    } else if (hasMagic(arg, { windowsPathsNoEscape: true })) {
      const hits = (await glob(arg, { windowsPathsNoEscape: true })).sort();
      if (hits.length === 0) unmatched.push(arg);
      const files = hits.filter((h) => !isDir(h));
      if (files.length) groups.push({ arg, kind: 'glob', files });
      for (const d of hits.filter(isDir)) groups.push(folderGroup(d));
    } else unmatched.push(arg);
  }
  return { groups, unmatched };
}

/**
 * A file's bytes when it is a PhysicsResource; otherwise what it is, in words (a level, an empty file, not a regular
 * file, larger than any PhysicsResource: src/files.ts readPhysicsFile).
 */
export function readPhysicsFile(path: string): { bytes: Uint8Array } | { error: string } {
  let bytes: Uint8Array;
  try {
    bytes = readCapped(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { error: err.code === 'ENOENT' ? 'no such file' : err.message };
  }
  const kind = identify(bytes, path);
  return kind === 'physics' ? { bytes } : { error: notPhysics(kind, bytes.length) };
}
