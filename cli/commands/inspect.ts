// compile-collision inspect INPUT... [--json]: each PhysicsResource's summary (or, for one file, its complete JSON
// dump); a folder or a compile output summarised as a whole. Thin: src/format/inspect.ts does the reading.
// Exit 1 when any input cannot be read as a PhysicsResource (a level or another file is named as such).
import type { CommandModule } from 'yargs';
import type { ResourceSummary } from '../../src/format/inspect.ts';
import { expandPhysicsInputs, readPhysicsFile, type InputGroup } from '../physics-inputs.ts';
import { usage } from '../options.ts';

interface InspectArgs {
  inputs: string[];
  json: boolean;
}

type Entry = { file: string; ok: true; summary: ResourceSummary } | { file: string; ok: false; error: string };

/** The modules the handler runs, loaded by it: every command's start (ride's, --help's) loads only the commands' definitions. */
const load = async () => ({ ...(await import('../../src/format/inspect.ts')), ...(await import('../../src/format/resource.ts')) });
type Lib = Awaited<ReturnType<typeof load>>;

function inspectFile({ summarize, readPhysicsResource }: Lib, file: string): Entry {
  const read = readPhysicsFile(file);
  if ('error' in read) return { file, ok: false, error: read.error };
  try {
    return { file, ok: true, summary: summarize(readPhysicsResource(read.bytes), read.bytes.byteLength) };
  } catch (e) {
    return { file, ok: false, error: `not readable as a PhysicsResource: ${(e as Error).message}` };
  }
}

export interface GroupTotals {
  resources: number;
  bytes: number;
  parts: number;
  shapes: number;
  vertices: number;
  faces: number;
  edges: { flat: number; concave: number; convex: number; open: number };
  unreadable: number;
}

export function totalsOf(entries: Entry[]): GroupTotals {
  const t: GroupTotals = { resources: 0, bytes: 0, parts: 0, shapes: 0, vertices: 0, faces: 0, edges: { flat: 0, concave: 0, convex: 0, open: 0 }, unreadable: 0 };
  for (const e of entries) {
    if (!e.ok) {
      t.unreadable++;
      continue;
    }
    t.resources++;
    t.bytes += e.summary.bytes;
    t.parts += e.summary.parts.length;
    t.shapes += e.summary.shapes.length;
    for (const s of e.summary.shapes) {
      t.vertices += s.vertices;
      t.faces += s.faces;
      if (s.edges) for (const k of ['flat', 'concave', 'convex', 'open'] as const) t.edges[k] += s.edges[k];
    }
  }
  return t;
}

const n = (v: number): string => v.toLocaleString('en-US');

function groupText(g: InputGroup, entries: Entry[]): string[] {
  const t = totalsOf(entries);
  const lines: string[] = [];
  if (g.kind === 'output') {
    const m = g.manifest;
    lines.push(
      m
        ? `${g.arg}: compile output of ${m.input?.file} (compile-collision ${m.tool?.version}), layout ${m.layout === 'cells' ? 'collision_area cells' : 'one resource per object'}, ${n(m.geometries)} geometries, ${n(m.resources?.length ?? 0)} resources listed`
        : `${g.arg}: compile output (${g.manifestError})`,
    );
  } else lines.push(`${g.arg}: folder of ${n(g.files.length)} .physics files`);
  lines.push(
    `  ${n(t.resources)} PhysicsResources, ${n(t.bytes)} bytes: ${n(t.parts)} parts, ${n(t.shapes)} shapes, ${n(t.vertices)} vertices, ${n(t.faces)} faces; ` +
      `edges flat ${n(t.edges.flat)} / concave ${n(t.edges.concave)} / convex ${n(t.edges.convex)} / open ${n(t.edges.open)}`,
  );
  for (const e of entries) {
    lines.push(
      e.ok
        ? `  ${e.file}: ${n(e.summary.bytes)} bytes, ${e.summary.parts.length} parts, ${e.summary.shapes.length} shapes, ${n(e.summary.shapes.reduce((s, x) => s + x.faces, 0))} faces`
        : `  ${e.file}: ${e.error}`,
    );
  }
  return lines;
}

export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect <inputs..>',
  describe: 'summarise PhysicsResources (files, folders, compile outputs, globs): header, parts, shapes, edge classes; --json dumps one file whole',
  builder: (y) =>
    y
      .positional('inputs', { type: 'string', array: true, demandOption: true, describe: ".physics files, folders or globs ('out/*.physics')" })
      // A variadic positional's implied [] default, shown beside [required], says nothing: not shown.
      .default('inputs', undefined)
      .option('json', { type: 'boolean', default: false, describe: "print JSON: one file's complete resource and summary; several files, folders or outputs as summaries" }) as never,
  handler: async (args) => {
    const lib = await load();
    const { inspectPhysics, formatSummary } = lib;
    const formatSummaryIndented = (s: ResourceSummary): string[] => formatSummary(s).split('\n').map((l) => `  ${l}`);
    const { groups, unmatched } = await expandPhysicsInputs(args.inputs);
    if (unmatched.length) usage(`inspect: no such file or folder: ${unmatched.join(', ')}`);
    let failed = 0;
    const single = groups.length === 1 && groups[0].kind === 'file';
    if (single) {
      const file = groups[0].files[0];
      const read = readPhysicsFile(file);
      try {
        if ('error' in read) throw new Error(read.error);
        process.stdout.write(`${inspectPhysics(read.bytes, { json: args.json })}\n`);
      } catch (e) {
        process.stderr.write(`compile-collision inspect: ${file}: ${(e as Error).message}\n`);
        process.exitCode = 1;
      }
      return;
    }
    const json: unknown[] = [];
    const text: string[] = [];
    for (const g of groups) {
      const entries = g.files.map((f) => inspectFile(lib, f));
      failed += entries.filter((e) => !e.ok).length;
      if (g.manifestError) {
        // The folder has a manifest.json that cannot be read (a FIFO, a device, a link loop, too large, not JSON).
        process.stderr.write(`compile-collision inspect: ${g.arg}: ${g.manifestError}\n`);
        failed++;
      }
      for (const e of entries) if (!e.ok) process.stderr.write(`compile-collision inspect: ${e.file}: ${e.error}\n`);
      if (g.kind === 'folder' || g.kind === 'output') {
        if (args.json) json.push({ folder: g.arg, kind: g.kind, manifest: g.manifest ? { input: g.manifest.input, layout: g.manifest.layout, geometries: g.manifest.geometries, totals: g.manifest.totals } : null, totals: totalsOf(entries), files: entries });
        else for (const l of groupText(g, entries)) text.push(l);
      } else if (args.json) for (const e of entries) json.push(e);
      else for (const e of entries) if (e.ok) text.push(`${e.file}:`, ...formatSummaryIndented(e.summary));
    }
    process.stdout.write(args.json ? `${JSON.stringify(json)}\n` : text.length ? `${text.join('\n')}\n` : '');
    if (failed) process.exitCode = 1;
  },
};
