// compile-collision to-gltf INPUT... -o OUT.glb: PhysicsResources (files, folders, compile outputs, globs) → one
// editable GLB. Thin: src/export/gltf.ts converts; this expands the inputs like inspect, refuses what inspect
// refuses (naming file and offset), and publishes the GLB like the compiler (src/export/publish-file.ts).
import { basename, extname } from 'node:path';
import type { CommandModule } from 'yargs';
import type { RecordedBuild, ToGltfInput } from '../../src/export/gltf.ts';
import { expandPhysicsInputs, readPhysicsFile } from '../physics-inputs.ts';
import { usage } from '../options.ts';

interface ToGltfArgs {
  inputs: string[];
  out: string;
  force: boolean;
  edgeColors: boolean;
}

export const toGltfCommand: CommandModule<object, ToGltfArgs> = {
  command: 'to-gltf <inputs..>',
  describe: 'write PhysicsResources (files, folders, compile outputs, globs) back as one editable glTF binary (.glb) that compiles again',
  builder: (y) =>
    y
      .positional('inputs', { type: 'string', array: true, demandOption: true, describe: ".physics files, folders, compile outputs or globs ('out/*.physics')" })
      // A variadic positional's implied [] default, shown beside [required], says nothing: not shown.
      .default('inputs', undefined)
      .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'the .glb to write' })
      .option('force', { type: 'boolean', default: false, describe: 'replace an existing output file' })
      .option('edge-colors', { type: 'boolean', default: false, describe: "vertex colours (COLOR_0) by the corners' stored edge class" }) as never,
  handler: async (args) => {
    // Loaded here, not at the top: every command's start (ride's, --help's) loads only the commands' definitions.
    const { resourcesToGltf } = await import('../../src/export/gltf.ts');
    const { recordedBuild } = await import('../../src/export/recorded.ts');
    const { readPhysicsResource } = await import('../../src/format/resource.ts');
    const { checkTarget, publishFile } = await import('../../src/export/publish-file.ts');
    const { groups, unmatched } = await expandPhysicsInputs(args.inputs);
    if (unmatched.length) usage(`to-gltf: no such file or folder: ${unmatched.join(', ')}`);
    const out = args.out;
    // Never onto an input, nothing replaced without --force: asked now (before the work) and again when publishing.
    const inputFiles = groups.flatMap((g) => [...g.files, ...(g.kind === 'output' || g.kind === 'folder' ? [`${g.arg}/manifest.json`] : [])]);
    try {
      checkTarget(out, inputFiles, args.force, 'to-gltf');
    } catch (e) {
      usage((e as Error).message);
    }
    const inputs: ToGltfInput[] = [];
    let failed = false;
    let recorded: RecordedBuild | undefined;
    const outputs = groups.filter((g) => g.kind === 'output' && g.manifest);
    for (const g of groups) {
      if (g.kind === 'output' && !g.manifest) {
        // A compile output whose manifest cannot be read or holds a field of the wrong type: its resources' names,
        // cells and options would be guesses.
        process.stderr.write(`compile-collision to-gltf: ${g.arg}: ${g.manifestError}\n`);
        failed = true;
        continue;
      }
      const resources = g.manifest?.resources ?? [];
      const byFile = new Map(resources.map((r) => [r.file, r]));
      // A compile output's resources in its manifest's order (the level's object order, which a cell build follows).
      const rank = new Map(resources.map((r, i) => [r.file, i]));
      const files = [...g.files].sort((a, b) => (rank.get(basename(a)) ?? Infinity) - (rank.get(basename(b)) ?? Infinity));
      for (const file of files) {
        const read = readPhysicsFile(file);
        if ('error' in read) {
          process.stderr.write(`compile-collision to-gltf: ${file}: ${read.error}\n`);
          failed = true;
          continue;
        }
        const m = byFile.get(basename(file));
        const stem = basename(file, extname(file));
        inputs.push({ file, bytes: read.bytes, name: m?.name ?? stem, cell: m?.cell ?? null, sourceObjects: m?.sourceObjects, grind: g.kind === 'output' });
        if (g.kind === 'output' && g.manifest && !recorded && outputs.length === 1) {
          let header: { word08: number; body: Uint8Array } | undefined;
          try {
            const r = readPhysicsResource(read.bytes);
            header = { word08: r.word08, body: r.body };
          } catch {
            // refused below, naming the file and offset
          }
          recorded = recordedBuild(g.manifest, header);
        }
      }
    }
    if (outputs.length > 1) process.stderr.write(`compile-collision to-gltf: note: ${outputs.length} compile outputs given: their manifests' options are not recorded (--recorded-options needs one)\n`);
    if (failed) {
      process.exitCode = 1;
      return;
    }
    let result;
    try {
      result = await resourcesToGltf(inputs, { edgeColors: args.edgeColors }, recorded);
    } catch (e) {
      process.stderr.write(`compile-collision ${(e as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    try {
      publishFile(out, result.glb, inputFiles, args.force, 'to-gltf');
    } catch (e) {
      process.stderr.write(`compile-collision ${(e as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    for (const r of result.notes) for (const n of r.notes) process.stderr.write(`compile-collision to-gltf: note: ${r.file}: ${n}\n`);
    process.stdout.write(`${out}: ${inputs.length} resource(s), ${result.glb.byteLength} bytes\n`);
  },
};
