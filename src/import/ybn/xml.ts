// CodeWalker / Sollumz YBN XML (`.ybn.xml`) → the bound model (model.ts), the same tree the binary reader makes.
// Layout as those tools write it: <BoundsFile><Bounds type="Composite"> with header elements (BoxMin/BoxMax/
// SphereCenter as x/y/z attributes, SphereRadius/Margin/MaterialIndex as value attributes), <Children> of <Item
// type="…"> each with a 16-float <CompositeTransform> (row-major: axis images, then translation); geometries with
// <GeometryCenter>, <Materials><Item><Type value/>, <Vertices> ("x, y, z" per line, without the centre) and
// <Polygons> (<Triangle m v1 v2 v3>, <Sphere m v radius>, <Capsule|Cylinder m v1 v2 radius>, <Box m v1 v2 v3 v4>).
// Numbers are rounded to f32, what the binary holds, so both forms give identical objects.
// Read by xml-scan.ts (strict, well-formedness checked as it goes; entities not expanded, no DOCTYPE).
import { quatToMat3, type Quat } from '../../shapes/index.ts';
import { boundLabel } from './bounds.ts';
import { scanXml, type El } from './xml-scan.ts';
import { MAX_YBN_TRIANGLES } from './objects.ts';
import { parseFlagNames } from './flags.ts';
import {
  KIND, kindName, materialKey, xmlQuantum, MAX_BOUNDS, MAX_COMPOSITE_DEPTH, MAX_GEOMETRY_ITEMS, POLY, POLY_WORDS,
  type Bound, type BoundHeader, type CompositeChild, type GeometryBound, type Vec3,
} from './model.ts';

/** XML type attribute → bound kind (Cloth and Plane are the two names tools give kind 15). */
const KIND_BY_TYPE: Record<string, number> = {
  Sphere: KIND.sphere, Capsule: KIND.capsule, Box: KIND.box, Geometry: KIND.geometry, GeometryBVH: KIND.bvh,
  Composite: KIND.composite, Disc: KIND.disc, Cylinder: KIND.cylinder, Cloth: KIND.cloth, Plane: KIND.cloth,
};

/**
 * Longest run of characters without a newline, `<`, `>` or a quote (one number, a name, an attribute value, one
 * line of <Vertices>) an XML file may hold. CodeWalker's and Sollumz's longest is a <CompositeFlags> list of all
 * 32 names (~420 characters). A parser's cost grows with one such run (with fast-xml-parser, used before, a 40 MB
 * <Vertices> line took 2.1 GB and 9 s, a 40 MB attribute 1.5 GB), so a longer one is refused before parsing.
 */
export const MAX_XML_VALUE_CHARS = 4096;

/**
 * Largest .ybn.xml read (bytes), refused before reading. Parsed XML costs several bytes of memory per byte (a 62 MB
 * composite of 655,000 triangles peaked at 0.7 GB over the whole compile; a 149 MB file reached 1 GB before its
 * error at 256 MiB, the cap before); CodeWalker's XML of the game's largest YBN is a few tens of MB, and the
 * binary .ybn of the same content costs a fraction.
 */
export const MAX_YBN_XML_BYTES = 64 << 20;

/** Longest piece of a value echoed in a message (characters): enough to recognise it, never a flood. */
export const ECHO_CHARS = 80;

/** A value for a message: JSON-quoted, cut to ECHO_CHARS with "…" and its length. */
export function echo(raw: string): string {
  if (raw.length <= ECHO_CHARS) return JSON.stringify(raw);
  return `${JSON.stringify(raw.slice(0, ECHO_CHARS))}… (${raw.length} characters)`;
}

/** Refuses text over MAX_YBN_XML_BYTES or with a run longer than `maxRun` (MAX_XML_VALUE_CHARS), naming line and column. */
export function checkXmlSize(text: string, stage: string, maxRun = MAX_XML_VALUE_CHARS): void {
  if (text.length > MAX_YBN_XML_BYTES) throw new Error(`${stage}: ${text.length} characters, more than the ${MAX_YBN_XML_BYTES} a .ybn.xml may hold (MAX_YBN_XML_BYTES)`);
  let run = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // \n < > " '
    if (c === 10 || c === 60 || c === 62 || c === 34 || c === 39) {
      run = 0;
      if (c === 10) (line++, (lineStart = i + 1));
    } else if (++run > maxRun) {
      const start = i - run + 1;
      throw new Error(
        `${stage}: line ${line}, column ${start - lineStart + 1}: a value (number, name or line) of more than ${maxRun} characters ` +
          `(${maxRun === MAX_XML_VALUE_CHARS ? 'MAX_XML_VALUE_CHARS' : 'the limit'}) starting ${echo(text.slice(start, start + ECHO_CHARS + 1))}; refused before parsing`,
      );
    }
  }
}

/**
 * Most elements (start tags) a .ybn.xml may hold. Each costs ~200–400 bytes once parsed (an element, its attributes,
 * their strings), so this bounds the parse at ~0.5 GB; the densest real content, <Triangle …/> lines of ~45+
 * bytes, fills MAX_YBN_XML_BYTES with fewer. Counted before parsing.
 */
export const MAX_XML_ELEMENTS = 1_500_000;

/**
 * Counts, before any parsing allocates, what the reader would refuse only after building the whole tree: elements
 * past MAX_XML_ELEMENTS, a <Polygons> of more than MAX_GEOMETRY_ITEMS elements or a <Vertices> of more than
 * MAX_GEOMETRY_ITEMS lines (indices are 16-bit), more polygons in all than MAX_YBN_TRIANGLES. Throws naming the
 * line. (A 149 MB file of 2,000,000 triangles in one geometry reached ~1 GB before its error.)
 */
export function checkXmlCounts(text: string, stage: string, maxTriangles: number): void {
  const lineOf = (at: number): number => {
    let line = 1;
    for (let k = text.indexOf('\n'); k >= 0 && k < at; k = text.indexOf('\n', k + 1)) line++;
    return line;
  };
  const opens = (at: number, name: string): boolean => text.startsWith(name, at + 1) && /[\s/>]/.test(text[at + 1 + name.length] ?? '');
  let elements = 0;
  let polygons = 0;
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    const c = text.charCodeAt(i + 1);
    if (c === 47 || c === 33 || c === 63) continue; // </…>, <!--…-->, <?…?>
    if (++elements > MAX_XML_ELEMENTS) throw new Error(`${stage}: line ${lineOf(i)}: more than ${MAX_XML_ELEMENTS} elements (MAX_XML_ELEMENTS); refused before parsing (convert it to a binary .ybn with CodeWalker)`);
    if (opens(i, 'Polygons')) {
      const end = text.indexOf('</Polygons', i);
      const stop = end < 0 ? text.length : end;
      let n = 0;
      for (let k = text.indexOf('<', i + 1); k >= 0 && k < stop; k = text.indexOf('<', k + 1)) {
        const d = text.charCodeAt(k + 1);
        if (d === 47 || d === 33 || d === 63) continue;
        if (++n > MAX_GEOMETRY_ITEMS) throw new Error(`${stage}: line ${lineOf(i)}: <Polygons> holds more than ${MAX_GEOMETRY_ITEMS} polygons (indices are 16-bit); refused before parsing`);
      }
      polygons += n;
      if (polygons > maxTriangles) throw new Error(`${stage}: line ${lineOf(i)}: more than ${maxTriangles} polygons in all (MAX_YBN_TRIANGLES); refused before parsing`);
    } else if (opens(i, 'Vertices')) {
      const end = text.indexOf('</Vertices', i);
      const stop = end < 0 ? text.length : end;
      let lines = 0;
      let blank = true;
      for (let k = text.indexOf('>', i) + 1; k > 0 && k < stop; k++) {
        const d = text.charCodeAt(k);
        if (d === 10) {
          if (!blank && ++lines > MAX_GEOMETRY_ITEMS) throw new Error(`${stage}: line ${lineOf(i)}: <Vertices> holds more than ${MAX_GEOMETRY_ITEMS} lines (indices are 16-bit); refused before parsing`);
          blank = true;
        } else if (d !== 32 && d !== 9 && d !== 13) blank = false;
      }
    }
  }
}

/** Parses `.ybn.xml` text. Throws `<stage>: ...` naming the element and value. */
export function readBoundXml(text: string, stage: string, warn: (m: string) => void): Bound {
  checkXmlSize(text, stage);
  checkXmlCounts(text, stage, MAX_YBN_TRIANGLES);
  const top = scanXml(text, stage);
  const bounds = top.name === 'Bounds' ? top : top.children.find((c) => c.name === 'Bounds');
  if (!bounds) throw new Error(`${stage}: <${top.name.slice(0, ECHO_CHARS)}> holds no <Bounds> element (expected <BoundsFile><Bounds type="…">)`);
  return new XmlReader(stage, warn).bound(bounds, '', 0);
}

class XmlReader {
  private count = 0;
  constructor(private stage: string, private warn: (m: string) => void) {}

  private fail(where: string, detail: string): never {
    throw new Error(`${this.stage}: ${where}: ${detail}`);
  }

  private child(e: El, name: string): El | undefined {
    return e.children.find((c) => c.name === name);
  }

  private num(raw: string | undefined, where: string, what: string, fallback?: number): number {
    if (raw === undefined) {
      if (fallback !== undefined) return fallback;
      this.fail(where, `${what} is missing`);
    }
    const v = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(v)) this.fail(where, `${what} ${echo(raw)} is not a finite number`);
    return v;
  }

  private f32(raw: string | undefined, where: string, what: string, fallback?: number): number {
    return Math.fround(this.num(raw, where, what, fallback));
  }

  private int(raw: string | undefined, where: string, what: string, max: number, fallback?: number): number {
    const v = this.num(raw, where, what, fallback);
    if (!Number.isInteger(v) || v < 0 || v > max) this.fail(where, `${what} ${echo(String(raw))} is not an integer 0..${max}`);
    return v;
  }

  private vec(e: El, name: string, where: string): Vec3 {
    const c = this.child(e, name);
    if (!c) return [0, 0, 0];
    return ['x', 'y', 'z'].map((k) => this.f32(c.attrs[k], where, `<${name}> ${k}`)) as Vec3;
  }

  private value(e: El, name: string, where: string): number {
    return this.f32(this.child(e, name)?.attrs.value, where, `<${name}> value`, 0);
  }

  private header(e: El, kind: number, where: string): BoundHeader {
    return {
      kind,
      sphereRadius: this.value(e, 'SphereRadius', where),
      margin: this.value(e, 'Margin', where),
      boxMin: this.vec(e, 'BoxMin', where),
      boxMax: this.vec(e, 'BoxMax', where),
      sphereCentre: this.vec(e, 'SphereCenter', where),
      material: materialKey(
        this.int(this.child(e, 'MaterialIndex')?.attrs.value, where, '<MaterialIndex> value', 255, 0),
        this.int(this.child(e, 'UnkFlags')?.attrs.value, where, '<UnkFlags> value', 255, 0),
      ),
    };
  }

  bound(e: El, path: string, depth: number): Bound {
    const label = `bound ${boundLabel(path)}`;
    if (++this.count > MAX_BOUNDS) this.fail(label, `the file expands to more than ${MAX_BOUNDS} bounds; refusing`);
    const type = e.attrs.type;
    if (type === undefined) this.fail(label, `<${e.name.slice(0, ECHO_CHARS)}> has no type attribute`);
    const kind = KIND_BY_TYPE[type];
    if (kind === undefined) return { ...this.header(e, 255, label), skipped: true, typeName: type.length > ECHO_CHARS ? `${type.slice(0, ECHO_CHARS)}…` : type };
    const where = `${label} (${kindName(kind)})`;
    const h = this.header(e, kind, where);
    if (kind === KIND.composite) return this.composite(e, h, path, where, depth);
    if (kind === KIND.geometry || kind === KIND.bvh) return this.geometry(e, h, where);
    if (kind === KIND.cloth) return { ...h, skipped: true };
    if (kind === KIND.capsule && this.child(e, 'CapsuleHalfHeight')) {
      const half = this.value(e, 'CapsuleHalfHeight', where);
      if (half > 0) return { ...h, capsuleHalfHeight: half } as Bound;
      if (half !== 0) this.warn(`${this.stage}: ${where}: <CapsuleHalfHeight> ${half} is negative; using sphere radius − margin`);
    }
    return h as Bound;
  }

  private composite(e: El, h: BoundHeader, path: string, where: string, depth: number): Bound {
    if (depth >= MAX_COMPOSITE_DEPTH) this.fail(where, `composites nested more than ${MAX_COMPOSITE_DEPTH} deep`);
    const items = (this.child(e, 'Children')?.children ?? []).filter((c) => c.name === 'Item');
    if (items.length > 0xffff) this.fail(where, `${items.length} children, more than a composite's 16-bit count`);
    const children: CompositeChild[] = items.map((item, i) => {
      const childPath = path === '' ? `${i}` : `${path}_${i}`;
      const transform = this.transform(item, `bound ${childPath}`);
      const flags = this.flags(item, `bound ${childPath}`);
      if (item.attrs.type === 'None') return { bound: null, transform, flags };
      return { bound: this.bound(item, childPath, depth + 1), transform, flags };
    });
    return { ...h, kind: 10, children };
  }

  /**
   * <CompositeFlags1> (type) and <CompositeFlags2> (include) as bit names; null when the item has neither (as
   * the binary without a flags array), a missing one of the two is 0.
   */
  private flags(item: El, where: string): [number, number] | null {
    const a = this.child(item, 'CompositeFlags1');
    const b = this.child(item, 'CompositeFlags2');
    if (!a && !b) return null;
    return [parseFlagNames(a?.text ?? '', `${this.stage}: ${where}: <CompositeFlags1>`), parseFlagNames(b?.text ?? '', `${this.stage}: ${where}: <CompositeFlags2>`)];
  }

  private transform(item: El, where: string): Float64Array {
    const t = this.child(item, 'CompositeTransform');
    if (!t) return this.legacyTransform(item, where);
    const words = t.text.split(/[\s,]+/).filter((s) => s !== '');
    if (words.length !== 16) this.fail(where, `<CompositeTransform> has ${words.length} numbers, expected 16`);
    const v = words.map((w, k) => this.f32(w, where, `<CompositeTransform> number ${k + 1}`));
    return Float64Array.from([0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14].map((k) => v[k]));
  }

  /**
   * Older CodeWalker and Sollumz XML: <CompositePosition x y z>, <CompositeRotation x y z w> (a quaternion) and
   * <CompositeScale x y z> instead of the matrix; read as p ↦ R(q)·(s ∘ p) + t. None of them: identity.
   */
  private legacyTransform(item: El, where: string): Float64Array {
    const r = this.child(item, 'CompositeRotation');
    const q = r ? (['x', 'y', 'z', 'w'].map((k) => this.num(r.attrs[k], where, `<CompositeRotation> ${k}`, k === 'w' ? 1 : 0)) as Quat) : ([0, 0, 0, 1] as Quat);
    const n = Math.hypot(...q);
    if (!(n > 0)) this.fail(where, '<CompositeRotation> is a zero quaternion');
    const m = quatToMat3([q[0] / n, q[1] / n, q[2] / n, q[3] / n]);
    const sc = this.child(item, 'CompositeScale') ? this.vec(item, 'CompositeScale', where) : [1, 1, 1];
    const t = this.vec(item, 'CompositePosition', where);
    const out = new Float64Array(12);
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) out[3 * c + k] = Math.fround(m[3 * c + k] * sc[c]);
    out.set(t, 9);
    return out;
  }

  private geometry(e: El, h: BoundHeader, where: string): GeometryBound {
    // CodeWalker writes <GeometryCenter>; it also reads the native <BoundingBoxCenter x y z w> in its place.
    const centre = this.vec(e, this.child(e, 'GeometryCenter') || !this.child(e, 'BoundingBoxCenter') ? 'GeometryCenter' : 'BoundingBoxCenter', where);
    const types = (this.child(e, 'Materials')?.children ?? [])
      .filter((c) => c.name === 'Item')
      .map((m, i) =>
        materialKey(
          this.int(this.child(m, 'Type')?.attrs.value, where, `material ${i} <Type> value`, 255, 0),
          /\bFLAG_STAIRS\b/.test(this.child(m, 'Flags')?.text ?? '') ? 1 : 0,
        ),
      );
    const lines = (this.child(e, 'Vertices')?.text ?? '').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
    if (lines.length > MAX_GEOMETRY_ITEMS) this.fail(where, `${lines.length} vertices, more than ${MAX_GEOMETRY_ITEMS} (indices are 16-bit)`);
    const vertices = new Float64Array(3 * lines.length);
    lines.forEach((line, i) => {
      const parts = line.split(/\s*,\s*|\s+/);
      if (parts.length !== 3) this.fail(where, `<Vertices> line ${i + 1} ${echo(line)} is not "x, y, z"`);
      for (let k = 0; k < 3; k++) vertices[3 * i + k] = this.f32(parts[k], where, `vertex ${i}`);
    });
    const nv = lines.length;
    const polyEls = this.child(e, 'Polygons')?.children ?? [];
    if (polyEls.length > MAX_GEOMETRY_ITEMS) this.fail(where, `${polyEls.length} polygons, more than ${MAX_GEOMETRY_ITEMS}`);
    const polys = new Uint32Array(POLY_WORDS * polyEls.length);
    const radii = new Float32Array(polyEls.length);
    const polyMaterials = new Uint16Array(polyEls.length);
    let unknown = 0;
    let badMaterial = 0;
    polyEls.forEach((p, i) => {
      const at = `${where}: polygon ${i} <${p.name}>`;
      const index = (attr: string): number => {
        const v = this.int(p.attrs[attr], at, attr, 0xffff);
        if (v >= nv) this.fail(at, `${attr}: vertex ${v} ≥ vertex count ${nv}`);
        return v;
      };
      const radius = (): number => this.f32(p.attrs.radius, at, 'radius');
      const o = POLY_WORDS * i;
      switch (p.name) {
        case 'Triangle':
          polys.set([POLY.triangle, index('v1'), index('v2'), index('v3')], o);
          break;
        case 'Sphere':
          polys.set([POLY.sphere, index('v')], o);
          radii[i] = radius();
          break;
        case 'Capsule':
        case 'Cylinder':
          polys.set([p.name === 'Capsule' ? POLY.capsule : POLY.cylinder, index('v1'), index('v2')], o);
          radii[i] = radius();
          break;
        case 'Box':
          polys.set([POLY.box, index('v1'), index('v2'), index('v3'), index('v4')], o);
          break;
        default:
          polys[o] = 0xff;
          unknown++;
          return;
      }
      if (radii[i] < 0) this.fail(at, `radius ${radii[i]} is negative`);
      const m = this.int(p.attrs.m, at, 'm', 0xffff, 0);
      if (m < types.length) polyMaterials[i] = types[m];
      else badMaterial++;
    });
    if (unknown) this.warn(`${this.stage}: ${where}: ${unknown} <Polygons> element(s) of unknown kinds skipped`);
    if (badMaterial) this.warn(`${this.stage}: ${where}: ${badMaterial} polygon(s) name a material ≥ the material count ${types.length}; they get the default surface`);
    return { ...h, kind: h.kind as 4 | 8, vertices, centre, quantum: xmlQuantum(h.boxMin, h.boxMax), polys, radii, polyMaterials };
  }
}
