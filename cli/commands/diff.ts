// compile-collision diff A B: two .physics files record by record (header words, parts, each shape's arrays and
// tree nodes, with decoded values and byte offsets), or two compile outputs through their manifests (resources
// added, removed, changed, each change record by record). One implementation with the golden test: src/format/diff.ts.
// Exit 0 identical, 1 different, 2 usage (missing input, a file against a folder). Two outputs are identical when
// their resources are (a renamed input or another sha256 in the manifest is listed, and does not fail the diff).
import type { CommandModule } from 'yargs';
import type { OutputDiff } from '../../src/format/diff.ts';
import { readPhysicsFile, readPhysicsHead } from '../physics-inputs.ts';
import { usage } from '../options.ts';
import { DIFF_RECORD_BYTES, firstDifference, whatIsNot } from '../../src/files.ts';
import { statSync } from 'node:fs';


interface DiffArgs {
  a: string;
  b: string;
  all: boolean;
  json: boolean;
}

export const diffCommand: CommandModule<object, DiffArgs> = {
  command: 'diff <a> <b>',
  describe: 'compare two .physics files record by record, or two compile outputs resource by resource (manifest differences listed); exit 0 identical resources, 1 different',
  builder: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'a .physics file or a compile output folder' })
      .positional('b', { type: 'string', demandOption: true, describe: 'the same kind of input to compare with' })
      .option('all', { type: 'boolean', default: false, describe: "list every differing region and element (default: the first few of each)" })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object: identical, added/removed/changed resources, manifest differences, the lines' }) as never,
  handler: async (args) => {
    // Loaded here, not at the top: every command's start (ride's, --help's) loads only the commands' definitions.
    const { diffResources } = await import('../../src/format/diff.ts');
    const { diffCompileOutputs, readCompileOutput } = await import('../../src/export/outputs.ts');
    const kind = (p: string): 'dir' | 'file' => {
      // whatIsNot never throws: a symbolic-link loop (ELOOP) or a dangling link is told in words.
      const not = whatIsNot(p);
      if (not === 'no such file') return usage(`diff: no such file or folder: ${p}`);
      if (not === 'a directory') return 'dir';
      if (not !== undefined) return usage(`diff: ${p} is ${not}`);
      return 'file';
    };
    const [ka, kb] = [kind(args.a), kind(args.b)];
    if (ka !== kb) usage(`diff: ${args.a} is a ${ka === 'dir' ? 'folder' : 'file'} and ${args.b} a ${kb === 'dir' ? 'folder' : 'file'}: give two .physics files or two compile outputs`);
    const limits = args.all ? { maxRegions: Infinity, maxElements: Infinity, perResource: Infinity } : {};
    let lines: string[];
    let outputs: OutputDiff | undefined;
    if (ka === 'dir') {
      for (const d of [args.a, args.b]) {
        try {
          readCompileOutput(d);
        } catch (e) {
          usage(`diff: ${d} is a folder but not a compile output (${(e as Error).message.replace(/^output: [^:]*: /, '')})`);
        }
      }
      outputs = diffCompileOutputs(args.a, args.b, limits);
      lines = outputs.lines;
    } else if (Math.max(statSync(args.a).size, statSync(args.b).size) > DIFF_RECORD_BYTES) {
      // Past DIFF_RECORD_BYTES the files are compared byte by byte in chunks, never held (two 1 GiB files took 2.2 GB).
      for (const p of [args.a, args.b]) {
        const r = readPhysicsHead(p);
        if (r) {
          process.stderr.write(`compile-collision diff: ${p}: ${r}\n`);
          process.exit(2);
        }
      }
      let d: ReturnType<typeof firstDifference>;
      try {
        d = firstDifference(args.a, args.b);
      } catch (e) {
        process.stderr.write(`compile-collision diff: ${(e as Error).message}\n`);
        process.exit(2);
      }
      lines = d.at < 0 ? [] : [
        `A = ${args.a} (${d.sizes[0]} bytes)`, `B = ${args.b} (${d.sizes[1]} bytes)`,
        `first differing byte: 0x${d.at.toString(16)}${d.sizes[0] !== d.sizes[1] && d.at === Math.min(...d.sizes) ? ` (the end of ${d.sizes[0] < d.sizes[1] ? 'A' : 'B'})` : ''}`,
        `(a file over ${DIFF_RECORD_BYTES >> 20} MiB is compared byte by byte, not record by record: DIFF_RECORD_BYTES)`,
      ];
    } else {
      const read = (p: string): Uint8Array => {
        const r = readPhysicsFile(p);
        if ('error' in r) {
          process.stderr.write(`compile-collision diff: ${p}: ${r.error}\n`);
          process.exit(2);
        }
        return r.bytes;
      };
      lines = diffResources(read(args.a), read(args.b), { ...limits, names: ['A', 'B'] });
      if (lines.length) lines.unshift(`A = ${args.a}`, `B = ${args.b}`);
    }
    const identical = outputs ? outputs.identical : lines.length === 0;
    if (!identical) process.exitCode = 1;
    if (args.json) {
      const o = outputs;
      const body = o
        ? { kind: 'outputs', a: args.a, b: args.b, identical, added: o.added, removed: o.removed, changed: o.changed, same: o.same, manifest: o.manifest, lines }
        : { kind: 'resources', a: args.a, b: args.b, identical, lines };
      process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      return;
    }
    if (lines.length === 0) {
      process.stdout.write(`identical: ${args.a} and ${args.b}\n`);
      return;
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
