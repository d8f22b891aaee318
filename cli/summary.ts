// What the compile command prints for one level: the summary (formatSummary, with the layout line that says why;
// the library re-exports formatSummary), and with --verbose each stage's time, every warning and each object's decision; a
// dry run lists what would be written instead.
import { MANIFEST_FILE, type CompileResult } from '../src/build/compile.ts';
import { STREAMING_PLAN_FILE } from '../src/build/manifest.ts';
import { decodeMaterial } from '../src/format/material.ts';
import { REPORT_FILE } from '../src/report/index.ts';
import { join } from 'node:path';

const n = (v: number): string => v.toLocaleString('en-US');

/**
 * Why the layout is what it is: "4,401 objects ≥ budget 4,003 → merged into 144 cells (432 geometries)". The
 * budget compares the objects' estimated geometries (one per part, more for parts over 21,845 faces).
 */
export function layoutLine(r: CompileResult): string {
  const m = r.manifest;
  const objects = r.objects.length;
  const estimate = r.objects.reduce((s, o) => s + o.geometries, 0);
  const budget = n(m.options.budget);
  const what = estimate === objects ? `${n(objects)} objects` : `${n(objects)} objects (${n(estimate)} geometries)`;
  const resources = r.dryRun ? r.dryRun.resources.length : m.resources.length;
  // Parts the density cut added count as geometries: the line says how many (manifest grind.cut).
  const cut = m.grind?.cut.added ?? 0;
  const geometries = `${r.dryRun ? '≥ ' : ''}${n(m.geometries)} geometries${cut ? `, ${n(cut)} of them from cutting dense parts for grinding` : ''}`;
  const cells = `merged into ${n(resources)} cells of ${m.options.cellSize} m (${geometries})`;
  const own = `one resource per object (${geometries})`;
  if (m.options.tiling !== 'auto') return `${m.layout === 'cells' ? cells : own}: --tiling ${m.options.tiling}`;
  if (m.layout === 'objects') return `${what} < budget ${budget} → ${own}`;
  if (estimate >= m.options.budget) return `${what} ≥ budget ${budget} → ${cells}`;
  return `${what} reach the budget ${budget} once split at the u16 limits${cut ? ' and cut for grinding (--grind-density)' : ''} → ${cells}`;
}

/** The forge records line: read / refused / skipped by class, and how many shapes no entity placed. */
function forgeLines(m: CompileResult['manifest']): string[] {
  const f = m.forge;
  if (!f) return [];
  const list = (r: Record<string, number>): string => Object.entries(r).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 6).map(([k, v]) => `${k} ${n(v)}`).join(', ') || 'none';
  const entities = Object.keys(f.objectsByEntity).length;
  return [
    `  forge records read: ${list(f.records.read)}`,
    `  forge records refused: ${list(f.records.refused)}`,
    `  forge records skipped: ${list(f.records.skipped)}`,
    `  forge placement: ${n(entities)} entities placed collision, ${n(f.unplacedShapes)} shapes unplaced`,
  ];
}

/** Human summary of one build (the CLI prints it; --json prints the manifest and timings instead). */
export function formatSummary(r: CompileResult, maxWarnings = 20, named = false): string {
  const m = r.manifest;
  const t = m.totals;
  const lines = [
    `${m.input.file} → ${r.outDir}`,
    `  layout: ${layoutLine(r)}`,
    ...Object.entries(t).map(([k, v]) => `  ${k.padEnd(28)} ${v}`),
    ...forgeLines(m),
    ...(m.seams.authoredOpenEdges === null ? [] : [`  open edges (edge sides, non-manifold included; --seams ${m.seams.mode}): ${m.seams.authoredOpenEdges} as authored, ${m.seams.joinedAcrossCuts} joined across cuts, ${m.seams.openEdgesWritten} written`]),
    `  time: ${Object.entries(r.timings).map(([k, v]) => `${k} ${v.toFixed(0)} ms`).join(', ')}${r.workers > 1 ? ` (${r.workers} workers)` : ''}`,
  ];
  lines.push(...ybnLines(r, named));
  if (r.unchanged) lines.push(`  unchanged: the level, the options and the tool are the last build's, and its ${n(m.files.length + 1)} files are as it wrote them: nothing rebuilt`);
  else if (r.cache) lines.push(`  cache: ${r.cache.misses} resource(s) encoded, ${r.cache.hits} reused${r.cache.rejected ? `, ${r.cache.rejected} rejected (bytes or index not as written: rebuilt)` : ''} (${r.cache.dir})`);
  if (!r.dryRun) lines.push(m.files.includes(REPORT_FILE) ? `  report: ${join(r.outDir, REPORT_FILE)}` : `  report: none (--report writes ${REPORT_FILE}: the collision and every finding in a browser)`);
  if (m.streamingPlan) {
    const heavy = [...m.streamingPlan.cells].sort((a, b) => b.geometries - a.geometries || a.name.localeCompare(b.name));
    lines.push(`  streaming plan (${STREAMING_PLAN_FILE}): ${m.streamingPlan.geometries} geometries in ${heavy.length} cells; heaviest:`);
    for (const c of heavy.slice(0, 8)) lines.push(`    ${c.name.padEnd(28)} ${c.geometries}`);
  }
  if (m.warnings.length) {
    lines.push(`  ${m.warnings.length} warning(s):`);
    for (const w of m.warnings.slice(0, maxWarnings)) lines.push(`    ${w}`);
    if (m.warnings.length > maxWarnings) lines.push(`    … ${m.warnings.length - maxWarnings} more in ${MANIFEST_FILE}`);
  }
  return lines.join('\n');
}


/**
 * A GTA V input's composite children left out as not solid for a skater, per reason, and its notes; with
 * `named`, each child by file, path, reason and flag words.
 */
export function ybnLines(r: CompileResult, named: boolean): string[] {
  const y = r.manifest.ybn;
  if (!y) return [];
  const lines: string[] = [];
  const n = y.skippedChildren.length;
  if (n) {
    const per = Object.entries(y.skipped).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(', ');
    lines.push(`  ybn: ${n} composite child${n === 1 ? '' : 'ren'} not solid for a skater, not compiled (${per}; --ybn-keep ${Object.keys(y.skipped).filter((k) => y.skipped[k as keyof typeof y.skipped]).join(',')} compiles them)`);
    if (named) for (const c of y.skippedChildren) lines.push(`    ${c.file}: bound ${c.bound}: ${c.reason} (type ${c.type}, include ${c.include})`);
  }
  if (y.keep.length) lines.push(`  ybn: kept as solid (--ybn-keep): ${y.keep.join(', ')}`);
  const kept = y.keptChildren ?? [];
  const detail = kept.filter((c) => c.by === '--ybn-detail').length;
  if (detail) lines.push(`  ybn: ${detail} child${detail === 1 ? '' : 'ren'} of hi@/ma@ detail copies compiled (--ybn-detail; the map rule would drop them: met by no ped)`);
  if (named) for (const c of kept) lines.push(`    ${c.file}: bound ${c.bound}: ${c.reason}, kept by ${c.by} (type ${c.type}, include ${c.include})`);
  for (const by of y.placedBy ?? []) lines.push(`  placed by ${by}`);
  for (const note of y.notes) lines.push(`  note: ${note}`);
  return lines;
}

/** A material word for people: "concrete (0x00000a60)". */
export function materialWord(packed: number): string {
  const m = decodeMaterial(packed);
  return `${m.slotName ?? `slot ${m.slot}`} (0x${(packed >>> 0).toString(16).padStart(8, '0')})`;
}

export function summary(r: CompileResult, verbose: boolean): string {
  const lines = r.dryRun ? dryRunLines(r, verbose) : [formatSummary(r, verbose ? Infinity : 20, verbose)];
  if (verbose) {
    const total = Object.values(r.timings).reduce((s, v) => s + v, 0) || 1;
    lines.push('  stages:');
    for (const [k, v] of Object.entries(r.timings)) lines.push(`    ${k.padEnd(10)} ${v.toFixed(1).padStart(9)} ms  ${((100 * v) / total).toFixed(0).padStart(3)}%`);
    lines.push(`  objects (${n(r.objects.length)}):`);
    for (const o of r.objects) {
      const where = o.resource === null ? 'no resource (no triangle with area)' : `→ ${o.resource}`;
      lines.push(`    ${o.name} (${o.source}): ${o.mode}, ${n(o.triangles)} triangles, ${o.materials.map(materialWord).join(', ') || 'no parts'} ${where}`);
    }
  }
  return lines.join('\n');
}

function dryRunLines(r: CompileResult, verbose: boolean): string[] {
  const d = r.dryRun!;
  const lines = [
    `${r.manifest.input.file} → ${r.outDir} (dry run: nothing written)`,
    `  layout: ${layoutLine(r)}`,
    `  would write ${n(d.resources.length)} resources, ${d.files.join(' and ')}:`,
  ];
  lines.splice(2, 0, ...ybnLines(r, verbose));
  for (const res of d.resources) lines.push(`    ${res.file.padEnd(32)} ${n(res.triangles).padStart(10)} triangles ${n(res.parts).padStart(5)} parts ${n(res.geometries).padStart(5)} geometries`);
  const w = r.manifest.warnings;
  if (w.length) {
    lines.push(`  ${w.length} warning(s):`);
    for (const x of w) lines.push(`    ${x}`);
  }
  return lines;
}
