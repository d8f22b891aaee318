// A compile output's manifest.json as inspect, verify, diff and to-gltf read it (src/build/manifest.ts writes it): every
// field they read is checked for its type before any of them touches it, so a manifest edited by hand or by
// anyone who can write the output gives one clear error naming the file and the field — never a TypeError stack.
// Fields the commands do not read are not checked (an older or newer build's extra fields pass); a field they read
// that is missing or of another type is refused, except those an older build did not write (marked optional).
import type { Manifest } from '../build/manifest.ts';

/** A resource file a manifest may list: a plain name ending in .physics (never a path). */
const RESOURCE_FILE = /^(?!\.)[^/\\\0]{1,240}\.physics$/i;

type Json = unknown;

/** What a JSON value is, in words ("an object", "null", "a string"). */
function kindOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number') return Number.isFinite(v) ? 'a number' : 'not a finite number';
  return typeof v === 'undefined' ? 'missing' : `a ${typeof v}`;
}

class Checker {
  constructor(private file: string) {}

  fail(path: string, what: string, v: Json): never {
    throw new Error(`manifest: ${this.file}: field "${path}" is ${kindOf(v)}${typeof v === 'string' ? ` (${JSON.stringify(v.slice(0, 60))})` : ''}, expected ${what}`);
  }

  object(v: Json, path: string): Record<string, Json> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, 'an object', v);
    return v as Record<string, Json>;
  }

  array(v: Json, path: string): Json[] {
    if (!Array.isArray(v)) this.fail(path, 'an array', v);
    return v;
  }

  string(v: Json, path: string): string {
    if (typeof v !== 'string') this.fail(path, 'a string', v);
    return v;
  }

  number(v: Json, path: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(path, 'a finite number', v);
    return v;
  }

  count(v: Json, path: string): number {
    if (!Number.isSafeInteger(v) || (v as number) < 0) this.fail(path, 'a whole number ≥ 0', v);
    return v as number;
  }

  oneOf<T extends Json>(v: Json, path: string, values: readonly T[]): T {
    if (!values.includes(v as T)) this.fail(path, `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`, v);
    return v as T;
  }

  /** Checks o[key] with `check` when present (not undefined). */
  optional(o: Record<string, Json>, key: string, path: string, check: (v: Json, path: string) => unknown): void {
    if (o[key] !== undefined) check(o[key], `${path}.${key}`);
  }
}

/**
 * The manifest after its checks (see the file header); throws `manifest: <file>: field "<path>" is …, expected …`.
 * `value` is JSON.parse's result of a file whose tool.name is compile-collision.
 */
export function checkManifest(value: Json, file: string): Manifest {
  const c = new Checker(file);
  const m = c.object(value, '(the manifest)');
  const tool = c.object(m.tool, 'tool');
  c.string(tool.name, 'tool.name');
  c.optional(tool, 'version', 'tool', (v, p) => c.string(v, p));
  const input = c.object(m.input, 'input');
  c.string(input.file, 'input.file');
  c.optional(input, 'sha256', 'input', (v, p) => c.string(v, p));
  const options = c.object(m.options, 'options');
  c.optional(options, 'scene', 'options', (v, p) => v === null || c.string(v, p));
  c.optional(options, 'cellSize', 'options', (v, p) => c.number(v, p));
  c.optional(options, 'budget', 'options', (v, p) => c.number(v, p));
  c.optional(options, 'tiling', 'options', (v, p) => c.string(v, p));
  c.optional(options, 'allowCustomSlots', 'options', (v, p) => typeof v === 'boolean' || c.fail(p, 'true or false', v));
  c.optional(options, 'header', 'options', (v, p) => c.oneOf(v, p, ['game', 'studio']));
  c.optional(options, 'seams', 'options', (v, p) => c.string(v, p));
  c.optional(options, 'simplify', 'options', (v, p) => c.number(v, p));
  c.optional(options, 'shapes', 'options', (v, p) => {
    const s = c.object(v, p);
    c.optional(s, 'chordError', p, (x, q) => c.number(x, q));
    c.optional(s, 'hullParts', p, (x, q) => typeof x === 'boolean' || c.fail(q, 'true or false', x));
    c.optional(s, 'nativeShapes', p, (x, q) => c.oneOf(x, q, [false, 'experimental']));
  });
  c.oneOf(m.layout, 'layout', ['objects', 'cells']);
  c.count(m.geometries, 'geometries');
  const totals = c.object(m.totals, 'totals');
  for (const [k, v] of Object.entries(totals)) c.number(v, `totals.${k}`);
  c.array(m.resources, 'resources').forEach((rv, i) => {
    const p = `resources[${i}]`;
    const r = c.object(rv, p);
    c.string(r.name, `${p}.name`);
    const f = c.string(r.file, `${p}.file`);
    if (!RESOURCE_FILE.test(f)) c.fail(`${p}.file`, 'a plain file name ending in .physics (not a path)', f);
    c.optional(r, 'cell', p, (v, q) => {
      if (v === null) return;
      const cell = c.array(v, q);
      if (cell.length !== 2 || !cell.every((x) => Number.isSafeInteger(x))) c.fail(q, 'null or two whole numbers', v);
    });
    c.optional(r, 'sourceObjects', p, (v, q) => c.array(v, q).forEach((s, j) => c.string(s, `${q}[${j}]`)));
    c.optional(r, 'bounds', p, (v, q) => {
      const b = c.object(v, q);
      for (const k of ['min', 'max']) c.optional(b, k, q, (x, s) => c.array(x, s).forEach((n, j) => c.number(n, `${s}[${j}]`)));
    });
    for (const k of ['parts', 'shapes', 'vertices', 'faces']) c.optional(r, k, p, (v, q) => c.count(v, q));
    c.optional(r, 'materials', p, (v, q) => c.array(v, q).forEach((n, j) => c.number(n, `${q}[${j}]`)));
  });
  c.optional(m, 'checks', '', (v) => {
    const checks = c.object(v, 'checks');
    for (const [k, e] of Object.entries(checks)) {
      const o = c.object(e, `checks.${k}`);
      c.count(o.bytes, `checks.${k}.bytes`);
      c.string(o.crc32, `checks.${k}.crc32`);
    }
  });
  c.optional(m, 'validation', '', (v) => c.object(v, 'validation'));
  c.optional(m, 'warnings', '', (v) => c.array(v, 'warnings').forEach((s, j) => c.string(s, `warnings[${j}]`)));
  return m as unknown as Manifest;
}
