// A compile output folder as the library reads it back: its manifest and its .physics files, for `diff` of two
// outputs (src/format/diff.ts) and `to-gltf` of one (src/export/gltf.ts). The command line's `diff` and `to-gltf`
// are these calls plus argument expansion and printing. Files are read as regular files of bounded size
// (src/files.ts): a FIFO or a link to a device in the folder is refused, not read forever.
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Manifest } from '../build/manifest.ts';
import { DIFF_RECORD_BYTES, firstDifference, readManifestText, readPhysicsFile, readRegularFile, whatIsNot } from '../files.ts';
import { checkManifest } from './manifest-read.ts';
import { diffOutputs, type DiffOptions, type LargeCompare, type OutputDiff, type OutputSide } from '../format/diff.ts';
import { identify, notPhysics } from '../format/identify.ts';
import { readPhysicsResource } from '../format/resource.ts';
import { resourcesToGltf, type ToGltfInput, type ToGltfOptions, type ToGltfResult } from './gltf.ts';
import { recordedBuild } from './recorded.ts';

/** A compile output: its manifest, and its .physics files (paths, sorted by name). */
export interface CompileOutput {
  dir: string;
  manifest: Manifest;
  files: string[];
}

/** Reads a compile output's manifest and lists its .physics files. Throws `output: <dir>: …` when it is not one. */
export function readCompileOutput(dir: string): CompileOutput {
  const not = whatIsNot(dir);
  if (not !== 'a directory') throw new Error(`output: ${dir}: ${not ?? 'a file'}, not a compile output folder`);
  const manifestPath = join(dir, 'manifest.json');
  let value: unknown;
  try {
    value = JSON.parse(readManifestText(manifestPath));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(`output: ${dir}: ${err.code === 'ENOENT' ? 'no manifest.json: not a compile output' : `manifest.json unreadable: ${err.message}`}`);
  }
  const tool = typeof value === 'object' && value !== null ? (value as { tool?: { name?: unknown } }).tool : undefined;
  if (tool?.name !== 'compile-collision') throw new Error(`output: ${dir}: manifest.json is not compile-collision's`);
  // Every field read later, type-checked first: a wrong one is named (src/export/manifest-read.ts), never a TypeError.
  const manifest = checkManifest(value as Parameters<typeof checkManifest>[0], manifestPath);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new Error(`output: ${dir}: cannot list the folder (${whatIsNot(dir) ?? (e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const files = names.filter((f) => /\.physics$/i.test(f)).sort().map((f) => join(dir, f));
  return { dir, manifest, files };
}

/** A file's bytes when it is a PhysicsResource, else undefined (missing, not a regular file, not a resource). */
function physicsBytes(path: string): Uint8Array | undefined {
  try {
    const bytes = readPhysicsFile(path);
    return identify(bytes, path) === 'physics' ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** A file's size (links followed), or undefined when it is not there or cannot be looked at. */
function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

const side = (o: CompileOutput, name = o.dir): OutputSide => ({ name, manifest: o.manifest, read: (file) => physicsBytes(join(o.dir, file)), size: (file) => sizeOf(join(o.dir, file)) });


/**
 * Two compile outputs compared: resources added, removed and changed (each change record by record), and the
 * manifest's differences (input, options, layout, totals) listed apart. `identical` is decided by the resources:
 * two outputs whose every resource is byte-identical are identical even when built from a renamed input.
 */
export function diffCompileOutputs(a: string, b: string, opts: DiffOptions & { perResource?: number } = {}): OutputDiff {
  const [oa, ob] = [readCompileOutput(a), readCompileOutput(b)];
  // Pairs of which one is over DIFF_RECORD_BYTES are compared byte by byte (firstDifference), never held whole.
  const large: LargeCompare = { bytes: DIFF_RECORD_BYTES, compare: (_a, fa, _b, fb) => firstDifference(join(oa.dir, fa), join(ob.dir, fb)).at };
  return diffOutputs(side(oa), side(ob), { large, ...opts });
}

/**
 * A compile output back as one editable GLB (what `compile-collision to-gltf OUT -o F.glb` writes): its resources in
 * the manifest's order, named by their source objects, with the build's settings in the scene's extras so that
 * `--recorded-options` compiles the same files again. Throws `to-gltf: <file>: …` on a file that is not a readable
 * PhysicsResource.
 */
export async function compileOutputToGltf(dir: string, opts: Partial<ToGltfOptions> = {}): Promise<ToGltfResult> {
  const out = readCompileOutput(dir);
  const resources = out.manifest.resources ?? [];
  const byFile = new Map(resources.map((r) => [r.file, r]));
  const rank = new Map(resources.map((r, i) => [r.file, i]));
  const files = [...out.files].sort((x, y) => (rank.get(basename(x)) ?? Infinity) - (rank.get(basename(y)) ?? Infinity));
  const inputs: ToGltfInput[] = [];
  let header: { word08: number; body: Uint8Array } | undefined;
  for (const file of files) {
    // Its first bytes say what it is: a file that is not a PhysicsResource is refused without being read whole.
    const head = identify(readRegularFile(file, 4096, 'truncate'), file);
    if (head !== 'physics') throw new Error(`to-gltf: ${file}: ${notPhysics(head, statSync(file).size)}`);
    const bytes = readPhysicsFile(file);
    const kind = identify(bytes, file);
    if (kind !== 'physics') throw new Error(`to-gltf: ${file}: ${notPhysics(kind, bytes.length)}`);
    if (!header) {
      try {
        const r = readPhysicsResource(bytes);
        header = { word08: r.word08, body: r.body };
      } catch {
        // refused by resourcesToGltf, naming the file and offset
      }
    }
    const m = byFile.get(basename(file));
    inputs.push({ file, bytes, name: m?.name ?? basename(file).replace(/\.physics$/i, ''), cell: m?.cell ?? null, sourceObjects: m?.sourceObjects, grind: true });
  }
  return resourcesToGltf(inputs, opts, recordedBuild(out.manifest, header));
}
