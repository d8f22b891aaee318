// What the compile command prints for one level: the library's summary (src/compile.ts formatSummary, with the
// layout line that says why), and with --verbose each stage's time, every warning and each object's decision; a
// dry run lists what would be written instead.
import { formatSummary, layoutLine, type CompileResult } from '../src/compile.ts';
import { decodeMaterial } from '../src/format/material.ts';

const n = (v: number): string => v.toLocaleString('en-US');

/** A material word for people: "concrete (0x00000a60)". */
export function materialWord(packed: number): string {
  const m = decodeMaterial(packed);
  return `${m.slotName ?? `slot ${m.slot}`} (0x${(packed >>> 0).toString(16).padStart(8, '0')})`;
}

export function summary(r: CompileResult, verbose: boolean): string {
  const lines = r.dryRun ? dryRunLines(r) : [formatSummary(r, verbose ? Infinity : 20)];
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

function dryRunLines(r: CompileResult): string[] {
  const d = r.dryRun!;
  const lines = [
    `${r.manifest.input.file} → ${r.outDir} (dry run: nothing written)`,
    `  layout: ${layoutLine(r)}`,
    `  would write ${n(d.resources.length)} resources, ${d.files.join(' and ')}:`,
  ];
  for (const res of d.resources) lines.push(`    ${res.file.padEnd(32)} ${n(res.triangles).padStart(10)} triangles ${n(res.parts).padStart(5)} parts ${n(res.geometries).padStart(5)} geometries`);
  const w = r.manifest.warnings;
  if (w.length) {
    lines.push(`  ${w.length} warning(s):`);
    for (const x of w) lines.push(`    ${x}`);
  }
  return lines;
}
