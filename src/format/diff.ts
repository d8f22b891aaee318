// Where two PhysicsResources differ, record by record: a layout parser of our own (header fields, body, shape
// records, parts, every shape array, each tree node, the fill bytes between them) and a diff over named regions that
// prints byte offsets, hex and decoded values for the first differing elements. The one implementation behind
// `compile-collision diff` and test/golden.test.ts, so a byte mismatch says "shape 0 tree node 17: min y q 511 vs
// 512", not just "differs". Independent of src/format's reader on purpose: it must still explain bytes our codec
// would refuse. Layout: ../shared/spec/physics-resource.md. Returns lines; never prints.
import { Reader } from '../../src/format/cursor.ts';

export type ElementKind = 'u8' | 'u16' | 'u32' | 'f32' | 'u64';

export interface Region {
  /** Stable name: "header.shapeCount", "shape[1].cornerVertices", "shape[0].tree[17]", "fill[2]". */
  name: string;
  at: number;
  size: number;
  kind: ElementKind;
}

const HEADER_FIELDS = [
  'version', 'magic', 'word08', 'partCount', 'count24', 'word14', 'shapeCount', 'count44', 'word20',
  'bodyOffset', 'shapeTableOffset', 'table44Offset', 'partTableOffset', 'partEndOffset',
];
const PART_FIELDS: [string, number, ElementKind][] = [
  ['rotation', 16, 'f32'], ['position', 12, 'f32'], ['w', 4, 'f32'], ['word20', 4, 'u32'], ['kind', 4, 'u32'],
  ['ids', 12, 'u32'], ['word34', 4, 'u32'], ['shape', 4, 'u32'], ['word3c', 4, 'u32'], ['material', 4, 'u32'],
  ['flags', 4, 'u32'],
];
const ARRAY_NAMES = [
  'vertices', 'vertexCornerOffsets', 'cornerIdsByVertex', 'cornerVertices', 'edgeValues', 'concaveBits', 'flatBits',
  'faceOffsets', 'unused8', 'unused9', 'facePlanes', 'tree',
];
const SHAPE_RECORD = 0x54;
const PART_RECORD = 72;

/** Named regions of a resource, in file order, plus any problem met while parsing (the rest is still listed). */
export function describeLayout(bytes: Uint8Array): { regions: Region[]; problem?: string } {
  const r = new Reader(bytes, 'hexdiff');
  const regions: Region[] = [];
  const add = (name: string, at: number, size: number, kind: ElementKind): void => {
    if (size > 0) regions.push({ name, at, size, kind });
  };
  try {
    HEADER_FIELDS.forEach((f, i) => add(`header.${f}`, 4 * i, 4, 'u32'));
    const rel = (field: number): number => field + r.u32At(field);
    const shapeTable = rel(0x28);
    const partTable = rel(0x30);
    const shapeCount = r.u32At(0x18);
    const partCount = r.u32At(0x0c);
    add('body', 0x38, shapeTable - 0x38, 'u8');
    for (let i = 0; i < shapeCount; i++) describeShape(r, shapeTable + SHAPE_RECORD * i, i, add);
    for (let i = 0; i < partCount; i++) {
      let at = partTable + PART_RECORD * i;
      for (const [f, size, kind] of PART_FIELDS) {
        add(`part[${i}].${f}`, at, size, kind);
        at += size;
      }
    }
  } catch (e) {
    return { regions: withFill(regions, bytes.length), problem: (e as Error).message };
  }
  return { regions: withFill(regions, bytes.length) };
}

function describeShape(r: Reader, at: number, i: number, add: (n: string, at: number, size: number, k: ElementKind) => void): void {
  const p = `shape[${i}]`;
  add(`${p}.min`, at, 12, 'f32');
  add(`${p}.max`, at + 12, 12, 'f32');
  add(`${p}.counts`, at + 0x18, 8, 'u16');
  add(`${p}.word20`, at + 0x20, 4, 'u32');
  add(`${p}.offsets`, at + 0x24, 48, 'u32');
  const nv = r.u16At(at + 0x18);
  const nc = r.u16At(at + 0x1a);
  const nf = r.u16At(at + 0x1c);
  const nn = r.u16At(at + 0x1e);
  const bits = 4 * Math.ceil(nc / 32);
  const sizes: [number, ElementKind][] = [
    [12 * nv, 'f32'], [2 * (nv + 1), 'u16'], [2 * nc, 'u16'], [2 * nc, 'u16'], [4 * nc, 'f32'], [bits, 'u8'],
    [bits, 'u8'], [2 * (nf + 1), 'u16'], [0, 'u8'], [0, 'u8'], [8 * nf, 'u8'], [8 * nn, 'u64'],
  ];
  for (let k = 0; k < 12; k++) {
    const field = at + 0x24 + 4 * k;
    const v = r.u32At(field);
    if (v === 0) continue;
    const [size, kind] = sizes[k];
    if (k === 11) {
      for (let n = 0; n < nn; n++) add(`${p}.tree[${n}]`, field + v + 8 * n, 8, 'u64');
    } else {
      add(`${p}.${ARRAY_NAMES[k]}`, field + v, size || 4, kind);
    }
  }
}

/** Adds "fill[k]" regions for every byte no named region covers (padding, trailing zeros, unknown data). */
function withFill(regions: Region[], length: number): Region[] {
  const sorted = [...regions].sort((a, b) => a.at - b.at || b.size - a.size);
  const out: Region[] = [];
  let pos = 0;
  let k = 0;
  for (const reg of sorted) {
    if (reg.at > pos) out.push({ name: `fill[${k++}]`, at: pos, size: reg.at - pos, kind: 'u8' });
    out.push(reg);
    pos = Math.max(pos, reg.at + reg.size);
  }
  if (pos < length) out.push({ name: `fill[${k++}]`, at: pos, size: length - pos, kind: 'u8' });
  return out;
}

const SIZE: Record<ElementKind, number> = { u8: 1, u16: 2, u32: 4, f32: 4, u64: 8 };

function element(bytes: Uint8Array, at: number, kind: ElementKind): string {
  if (at + SIZE[kind] > bytes.length) return '(past end)';
  const v = new DataView(bytes.buffer, bytes.byteOffset + at, SIZE[kind]);
  switch (kind) {
    case 'u8': return String(v.getUint8(0));
    case 'u16': return String(v.getUint16(0, true));
    case 'u32': return `${v.getUint32(0, true)} (0x${v.getUint32(0, true).toString(16)})`;
    case 'f32': return String(v.getFloat32(0, true));
    case 'u64': return describeNode(v.getBigUint64(0, true));
  }
}

/** A tree node word's fields: min x/y/z and max x/y/z quantized planes and the five owner bits. */
export function describeNode(w: bigint): string {
  const f = (shift: number, bits: number): number => Number((w >> BigInt(shift)) & ((1n << BigInt(bits)) - 1n));
  return (
    `0x${w.toString(16).padStart(16, '0')} min q(${f(0, 10)},${f(10, 10)},${f(20, 10)}) own(y${f(30, 1)},z${f(31, 1)}) ` +
    `max q(${f(32, 10)},${f(42, 9)},${f(51, 10)}) own(x${f(61, 1)},y${f(62, 1)},z${f(63, 1)})`
  );
}

const hexBytes = (b: Uint8Array, at: number, n: number): string =>
  Array.from(b.subarray(at, Math.min(b.length, at + n)), (x) => x.toString(16).padStart(2, '0')).join(' ');

export interface DiffOptions {
  /** Differing regions reported in full (the rest are counted). */
  maxRegions?: number;
  /** Differing elements shown per region. */
  maxElements?: number;
  /** What to call the two sides (default "expected" and "actual"; the CLI names the files). */
  names?: [string, string];
}

/**
 * Differences between `expected` and `actual`, region by region (matched by name), as readable lines. Empty when
 * the bytes are identical.
 */
export function diffResources(expected: Uint8Array, actual: Uint8Array, opts: DiffOptions = {}): string[] {
  const maxRegions = opts.maxRegions ?? 12;
  const maxElements = opts.maxElements ?? 4;
  const [en, an] = opts.names ?? ['expected', 'actual'];
  if (expected.length === actual.length && expected.every((b, i) => b === actual[i])) return [];
  const lines: string[] = [`size: ${en} ${expected.length} bytes, ${an} ${actual.length} bytes`];
  const first = firstDifference(expected, actual);
  const e = describeLayout(expected);
  const a = describeLayout(actual);
  if (e.problem) lines.push(`${en}: layout parse stopped: ${e.problem}`);
  if (a.problem) lines.push(`${an}: layout parse stopped: ${a.problem}`);
  const where = e.regions.find((r) => first >= r.at && first < r.at + r.size);
  lines.push(`first differing byte: 0x${first.toString(16)} (${en}'s ${where?.name ?? 'past end'})`);
  const byName = new Map(a.regions.map((r) => [r.name, r]));
  const names = [...e.regions.map((r) => r.name), ...a.regions.filter((r) => !e.regions.some((x) => x.name === r.name)).map((r) => r.name)];
  const eByName = new Map(e.regions.map((r) => [r.name, r]));
  let shown = 0;
  let differing = 0;
  for (const name of names) {
    const er = eByName.get(name);
    const ar = byName.get(name);
    const report = compareRegion(name, expected, er, actual, ar, maxElements, en, an);
    if (!report.length) continue;
    differing++;
    if (shown++ < maxRegions) for (const l of report) lines.push(l); // no spread: --all can make millions
  }
  if (differing > shown) lines.push(`... and ${differing - shown} more differing regions`);
  return lines;
}

function firstDifference(x: Uint8Array, y: Uint8Array): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return i;
  return n;
}

function compareRegion(name: string, eb: Uint8Array, er: Region | undefined, ab: Uint8Array, ar: Region | undefined, maxElements: number, en: string, an: string): string[] {
  if (!er || !ar) {
    const r = (er ?? ar)!;
    return [`${name}: only in ${er ? en : an} (at 0x${r.at.toString(16)}, ${r.size} bytes: ${hexBytes(er ? eb : ab, r.at, 16)}${r.size > 16 ? ' ...' : ''})`];
  }
  const same = er.size === ar.size && eb.subarray(er.at, er.at + er.size).every((b, i) => b === ab[ar.at + i]);
  if (same) return [];
  const head = `${name}: ${en} at 0x${er.at.toString(16)} (${er.size} B), ${an} at 0x${ar.at.toString(16)} (${ar.size} B)`;
  const lines = [head];
  const step = SIZE[er.kind];
  const n = Math.max(er.size, ar.size) / step;
  let shown = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const eo = er.at + i * step;
    const ao = ar.at + i * step;
    const eIn = i * step < er.size;
    const aIn = i * step < ar.size;
    const equal = eIn && aIn && eb.subarray(eo, eo + step).every((b, k) => b === ab[ao + k]);
    if (equal) continue;
    count++;
    if (shown++ >= maxElements) continue;
    const ev = eIn ? `${element(eb, eo, er.kind)} [${hexBytes(eb, eo, step)}] at 0x${eo.toString(16)}` : '(none)';
    const av = aIn ? `${element(ab, ao, ar.kind)} [${hexBytes(ab, ao, step)}] at 0x${ao.toString(16)}` : '(none)';
    const w = Math.max(en.length, an.length);
    lines.push(`  [${i}] ${en.padEnd(w)} ${ev}`);
    lines.push(`  ${' '.repeat(String(i).length + 2)} ${an.padEnd(w)} ${av}`);
  }
  if (count > shown) lines.push(`  ... ${count - shown} more differing elements of ${n}`);
  return lines;
}

/** What diffOutputs needs of a compile output: its manifest and a way to read the files it lists. */
export interface OutputSide {
  name: string;
  manifest: {
    input?: { file?: string; sha256?: string };
    options?: Record<string, unknown>;
    layout?: string;
    geometries?: number;
    totals?: object;
    resources?: { name: string; file: string }[];
  };
  /** The bytes of a file of the output, or undefined when it is missing. */
  read: (file: string) => Uint8Array | undefined;
  /** A file's size in bytes (undefined: missing), asked before reading it when the diff has `large` (see there). */
  size?: (file: string) => number | undefined;
}

/**
 * How diffOutputs compares a pair of resources of which one is over `bytes`: `compare` (a byte-by-byte comparison of
 * the two files, never held whole) gives the first differing offset, or −1 when equal. Without it, each pair is read
 * and decoded whole.
 */
export interface LargeCompare {
  bytes: number;
  compare: (a: OutputSide, fileA: string, b: OutputSide, fileB: string) => number;
}

export interface OutputDiff {
  /** Everything, in print order: the manifest's differences, then resources removed, added and changed, then a count. */
  lines: string[];
  /** The manifests' differences (input file and bytes, options, layout, geometries, totals), one line each. */
  manifest: string[];
  added: string[];
  removed: string[];
  changed: string[];
  same: number;
  /** No resource added, removed or changed: the outputs hold the same collision, whatever their manifests say. */
  identical: boolean;
}

/**
 * Two compile outputs compared through their manifests: option, layout and total changes (`manifest`), resources
 * added (only in b), removed (only in a) and changed (bytes differ; each with its record-level diff, `perResource`
 * lines at most). The resources decide `identical`; the manifest's lines are listed either way.
 */
export function diffOutputs(a: OutputSide, b: OutputSide, opts: DiffOptions & { perResource?: number; large?: LargeCompare } = {}): OutputDiff {
  const lines: string[] = [];
  const names: [string, string] = [a.name, b.name];
  const ma = a.manifest;
  const mb = b.manifest;
  const value = (v: unknown): string => (v === undefined ? '(none)' : JSON.stringify(v));
  const field = (label: string, x: unknown, y: unknown): void => {
    if (value(x) !== value(y)) lines.push(`${label}: ${value(x)} → ${value(y)}`);
  };
  field('input file', ma.input?.file, mb.input?.file);
  if (ma.input?.sha256 !== mb.input?.sha256) lines.push('input: built from different bytes (sha256 differs)');
  for (const k of new Set([...Object.keys(ma.options ?? {}), ...Object.keys(mb.options ?? {})])) field(`option ${k}`, ma.options?.[k], mb.options?.[k]);
  field('layout', ma.layout, mb.layout);
  field('geometries', ma.geometries, mb.geometries);
  const ta = (ma.totals ?? {}) as Record<string, unknown>;
  const tb = (mb.totals ?? {}) as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ta), ...Object.keys(tb)])) field(k, ta[k], tb[k]);
  const manifest = lines.slice();
  const ra = new Map((ma.resources ?? []).map((r) => [r.name, r]));
  const rb = new Map((mb.resources ?? []).map((r) => [r.name, r]));
  const removed = [...ra.keys()].filter((k) => !rb.has(k)).sort();
  const added = [...rb.keys()].filter((k) => !ra.has(k)).sort();
  const changed: string[] = [];
  let same = 0;
  const detail: string[] = [];
  for (const [name, r] of [...ra].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const other = rb.get(name);
    if (!other) continue;
    const large = opts.large;
    if (large && Math.max(a.size?.(r.file) ?? 0, b.size?.(other.file) ?? 0) > large.bytes) {
      let at: number;
      try {
        at = large.compare(a, r.file, b, other.file);
      } catch (e) {
        changed.push(name);
        detail.push(`changed ${name}: cannot compare: ${(e as Error).message}`);
        continue;
      }
      if (at < 0) same++;
      else {
        changed.push(name);
        detail.push(`changed ${name} (${r.file}): first differing byte 0x${at.toString(16)} (a file over ${large.bytes >> 20} MiB is compared byte by byte, not record by record)`);
      }
      continue;
    }
    const x = a.read(r.file);
    const y = b.read(other.file);
    if (!x || !y) {
      changed.push(name);
      detail.push(`changed ${name}: ${!x ? `${r.file} missing in ${a.name}` : ''}${!x && !y ? ', ' : ''}${!y ? `${other.file} missing in ${b.name}` : ''}`);
      continue;
    }
    const d = diffResources(x, y, { ...opts, names });
    if (d.length === 0) {
      same++;
      continue;
    }
    changed.push(name);
    const cap = opts.perResource ?? 24;
    detail.push(`changed ${name} (${r.file}):`);
    for (const l of d.slice(0, cap)) detail.push(`  ${l}`);
    if (d.length > cap) detail.push(`  … ${d.length - cap} more lines`);
  }
  for (const r of removed) lines.push(`removed ${r} (only in ${a.name})`);
  for (const r of added) lines.push(`added ${r} (only in ${b.name})`);
  for (const l of detail) lines.push(l);
  const identical = added.length === 0 && removed.length === 0 && changed.length === 0;
  if (lines.length) {
    lines.push(`${added.length} added, ${removed.length} removed, ${changed.length} changed, ${same} identical resources`);
    if (identical) lines.push('the resources are identical: only the manifests differ');
  }
  return { lines, manifest, added, removed, changed, same, identical };
}
