// compile-collision verify INPUT...: read, write back and compare bytes, check the invariants (src/format/verify.ts)
// of every .physics named (files, folders, compile outputs, globs). For a compile output, also that the manifest's
// resources and the .physics files present are the same, and each file's bytes are the size and CRC-32 it records. Prints every finding; exit 0 only when there is none.
import { basename } from 'node:path';
import type { CommandModule } from 'yargs';
import type { Finding } from '../../src/format/verify.ts';
import type { FileCheck } from '../../src/output/file-write.ts';
import { expandPhysicsInputs, readPhysicsFile, type InputGroup } from '../physics-inputs.ts';
import { usage } from '../options.ts';

interface VerifyArgs {
  inputs: string[];
  json: boolean;
}

/** The modules the handler runs, loaded by it: every command's start (ride's, --help's) loads only the commands' definitions. */
const load = async () => ({
  ...(await import('../../src/format/verify.ts')),
  ...(await import('../../src/output/file-write.ts')),
  ...(await import('../../src/geometry/verify-wasm.ts')),
});

/** Reads and verifies one file; `recorded`: the size and CRC-32 its compile output's manifest holds for it. */
function verifyFile({ verifyPhysics, checkOf, wasmShapeClean }: Awaited<ReturnType<typeof load>>, file: string, recorded?: FileCheck): Finding[] {
  const read = readPhysicsFile(file);
  if ('error' in read) return [{ file, check: 'open', message: read.error }];
  const now = recorded && checkOf(read.bytes);
  const changed: Finding[] = now && (now.bytes !== recorded.bytes || now.crc32 !== recorded.crc32)
    ? [{ file, check: 'manifest', message: `not the bytes the build wrote: manifest.json records ${recorded.bytes} bytes, CRC-32 ${recorded.crc32}; the file has ${now.bytes} bytes, CRC-32 ${now.crc32}` }]
    : [];
  try {
    return [...changed, ...verifyPhysics(read.bytes, file, { fast: wasmShapeClean })];
  } catch (e) {
    return [{ file, check: 'read', message: (e as Error).message }];
  }
}

/** A compile output's manifest against its folder: each listed resource present, each .physics present listed. */
function outputFindings(g: InputGroup): Finding[] {
  if (g.kind !== 'output') return [];
  if (!g.manifest) return [{ file: g.arg, check: 'manifest', message: g.manifestError ?? 'manifest.json unreadable' }];
  const listed = new Set((g.manifest.resources ?? []).map((r) => r.file));
  const present = new Set(g.files.map((f) => basename(f)));
  const out: Finding[] = [];
  for (const f of listed) if (!present.has(f)) out.push({ file: g.arg, check: 'manifest', message: `manifest.json lists ${f}, which is missing` });
  for (const f of present) if (!listed.has(f)) out.push({ file: g.arg, check: 'manifest', message: `${f} is not in manifest.json (not written by this build)` });
  return out;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify <inputs..>',
  describe: 'check PhysicsResources (files, folders, compile outputs, globs): byte-exact round trip, length, counts, indices, face offsets, corner index, tree boxes, planes',
  builder: (y) =>
    y
      .positional('inputs', { type: 'string', array: true, demandOption: true, describe: ".physics files, folders or globs ('out/*.physics')" })
      // A variadic positional's implied [] default, shown beside [required], says nothing: not shown.
      .default('inputs', undefined)
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object (every file with its findings, each folder and output) instead of lines' }) as never,
  handler: async (args) => {
    const lib = await load();
    const { groups, unmatched } = await expandPhysicsInputs(args.inputs);
    if (unmatched.length) usage(`verify: no such file or folder: ${unmatched.join(', ')}`);
    // Text: "FILE: ok" lines on stdout, findings on stderr. --json: the same facts as one object on stdout.
    const say = (line: string): void => void (args.json || process.stdout.write(`${line}\n`));
    const warn = (line: string): void => void (args.json || process.stderr.write(`${line}\n`));
    const files: { file: string; ok: boolean; findings: Finding[] }[] = [];
    const folders: { input: string; kind: 'folder' | 'output'; files: number; failed: number; manifestFindings: Finding[] }[] = [];
    let failed = 0;
    let total = 0;
    for (const g of groups) {
      let groupFailed = 0;
      const whole = outputFindings(g);
      for (const f of whole) warn(`${f.file}: ${f.check}: ${f.message}`);
      for (const file of g.files) {
        const findings = verifyFile(lib, file, g.kind === 'output' ? g.manifest?.checks?.[basename(file)] : undefined);
        total++;
        files.push({ file, ok: findings.length === 0, findings });
        for (const f of findings) warn(`${f.file}: ${f.check}: ${f.message}`);
        if (findings.length) groupFailed++;
        else say(`${file}: ok`);
      }
      failed += groupFailed;
      if (g.kind === 'folder' || g.kind === 'output') {
        folders.push({ input: g.arg, kind: g.kind, files: g.files.length, failed: groupFailed, manifestFindings: whole });
        const what = g.kind === 'output' ? 'compile output' : 'folder';
        const line = `${g.arg}: ${what}: ${g.files.length} files, ${groupFailed ? `${groupFailed} failed` : 'all ok'}${whole.length ? `; ${whole.length} manifest finding(s)` : ''}`;
        if (groupFailed || whole.length) warn(line);
        else say(line);
        if (g.files.length === 0 && g.kind === 'folder') {
          warn(`${g.arg}: no .physics files in this folder`);
          failed++;
        }
      }
      if (whole.length && !groupFailed) failed++;
    }
    if (args.json) process.stdout.write(`${JSON.stringify({ ok: failed === 0, total, failed, files, folders }, null, 2)}\n`);
    if (failed) {
      warn(`compile-collision verify: ${failed} of ${total} files failed`);
      process.exitCode = 1;
    }
  },
};
