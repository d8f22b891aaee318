// Binary phBound trees inside an RSC7 body → the bound model (model.ts).
// Spec: ../shared/spec/ybn-bounds.md: the 112-byte common header, geometry (kind 4) and geometry with BVH (kind 8;
// decoded without its BVH), composites (kind 10) and the primitive bounds. Fields the spec marks unknown are not
// read; every pointer and count is checked against its segment before anything is read or allocated.
import { hex } from '../../format/cursor.ts';
import { type ResourceReader } from './rsc7.ts';
import {
  IDENTITY, kindName, KIND, MAX_BOUNDS, MAX_COMPOSITE_DEPTH, MAX_GEOMETRY_ITEMS, POLY, POLY_WORDS,
  materialKey, type Bound, type BoundHeader, type CompositeChild, type GeometryBound, type Vec3,
} from './model.ts';

export const HEADER_BYTES = 0x70;
export const GEOMETRY_BYTES = 0x130;
export const COMPOSITE_BYTES = 0xb0;
/** A capsule's record: the common header, its half height (0x70) and padding. */
export const CAPSULE_BYTES = 0x80;
export const POLYGON_BYTES = 16;
export const MATERIAL_BYTES = 8;
export const TRANSFORM_BYTES = 64;
export const FLAGS_BYTES = 8;
/** Bit 15 of a triangle's vertex word is a flag; the low 15 bits index the vertex. Only triangles have it. */
export const TRIANGLE_INDEX_MASK = 0x7fff;

/** Reads the bound tree whose root is at system offset 0. */
export function readBoundTree(rr: ResourceReader, warn: (m: string) => void): Bound {
  return new TreeReader(rr, warn).bound(0, '', 0, new Set());
}

/** "root", or the child path ("2", "2_0"). */
export const boundLabel = (path: string): string => (path === '' ? 'root' : path);

class TreeReader {
  private count = 0;
  constructor(private rr: ResourceReader, private warn: (m: string) => void) {}

  private vec3(at: number, what: string): Vec3 {
    const r = this.rr.r;
    return [r.f32At(at, what), r.f32At(at + 4, what), r.f32At(at + 8, what)];
  }

  private header(at: number, path: string): BoundHeader {
    const r = this.rr.r;
    this.rr.span(at, HEADER_BYTES, `bound ${boundLabel(path)}: 112-byte header`);
    return {
      kind: r.u8At(at + 0x10, 'bound kind'),
      sphereRadius: r.f32At(at + 0x14, 'sphere radius'),
      boxMax: this.vec3(at + 0x20, 'box maximum'),
      margin: r.f32At(at + 0x2c, 'margin'),
      boxMin: this.vec3(at + 0x30, 'box minimum'),
      material: materialKey(r.u8At(at + 0x4c, 'material'), r.u8At(at + 0x4f, 'material flags')),
      sphereCentre: this.vec3(at + 0x50, 'sphere centre'),
    };
  }

  bound(at: number, path: string, depth: number, onPath: Set<number>): Bound {
    if (++this.count > MAX_BOUNDS) this.rr.fail(`bound ${boundLabel(path)}: the file expands to more than ${MAX_BOUNDS} bounds; refusing`, at);
    const h = this.header(at, path);
    const label = `bound ${boundLabel(path)} (${kindName(h.kind)})`;
    switch (h.kind) {
      case KIND.capsule: {
        // 0x70: the half height CodeWalker reads as CapsuleHalfHeight (older tools: 0, "unknown").
        this.rr.span(at, CAPSULE_BYTES, `${label}: ${CAPSULE_BYTES}-byte capsule record`);
        const half = this.rr.r.f32At(at + 0x70, `${label}: capsule half height`);
        if (half > 0 && Number.isFinite(half)) return { ...h, capsuleHalfHeight: half } as Bound;
        if (half !== 0) this.warn(`${this.rr.stage}: ${label}: capsule half height ${half} at 0x70 is not a finite positive number; using sphere radius − margin`);
        return h as Bound;
      }
      case KIND.sphere:
      case KIND.box:
      case KIND.disc:
      case KIND.cylinder:
        return h as Bound;
      case KIND.geometry:
      case KIND.bvh:
        return this.geometry(at, h, label);
      case KIND.composite:
        return this.composite(at, h, path, label, depth, onPath);
      default:
        return { ...h, skipped: true };
    }
  }

  private geometry(at: number, h: BoundHeader, label: string): GeometryBound {
    const { rr } = this;
    const r = rr.r;
    rr.span(at, GEOMETRY_BYTES, `${label}: ${GEOMETRY_BYTES}-byte geometry record`);
    const quantum = this.vec3(at + 0x90, `${label}: coordinate quantum`);
    const centre = this.vec3(at + 0xa0, `${label}: coordinate centre`);
    const vertexCount = r.u32At(at + 0xd0, `${label}: vertex count`);
    const polyCount = r.u32At(at + 0xd4, `${label}: polygon count`);
    const materialCount = r.u8At(at + 0x120, `${label}: material count`);
    for (const [n, what, off] of [[vertexCount, 'vertex count', 0xd0], [polyCount, 'polygon count', 0xd4]] as const) {
      if (n > MAX_GEOMETRY_ITEMS) rr.fail(`${label}: ${what} ${n} is more than ${MAX_GEOMETRY_ITEMS} (indices are 16-bit)`, at + off);
    }
    if (![...quantum, ...centre].every(Number.isFinite)) rr.fail(`${label}: coordinate quantum or centre is not finite`, at + 0x90);

    // Every array is checked against its segment before it is allocated.
    const vp = vertexCount > 0 ? this.required(at + 0xb0, `${label}: quantized vertices`, vertexCount) : 0;
    if (vertexCount > 0) rr.span(vp, 6 * vertexCount, `${label}: quantized vertices (${vertexCount} × 6 bytes)`);
    const pp = polyCount > 0 ? this.required(at + 0x88, `${label}: polygons`, polyCount) : 0;
    if (polyCount > 0) rr.span(pp, POLYGON_BYTES * polyCount, `${label}: polygons (${polyCount} × ${POLYGON_BYTES} bytes)`);

    const vertices = new Float64Array(3 * vertexCount);
    for (let i = 0; i < 3 * vertexCount; i++) vertices[i] = Math.fround(r.i16At(vp + 2 * i) * quantum[i % 3]);

    const polys = new Uint32Array(POLY_WORDS * polyCount);
    const radii = new Float32Array(polyCount);
    let unknownKinds = 0;
    if (polyCount > 0) {
      for (let i = 0; i < polyCount; i++) {
        const p = pp + POLYGON_BYTES * i;
        const kind = r.u8At(p) & 7;
        const o = POLY_WORDS * i;
        polys[o] = kind;
        const index = (off: number, mask: number, word: string): number => {
          const v = r.u16At(p + off) & mask;
          if (v >= vertexCount) rr.fail(`${label}: polygon ${i} (${polyName(kind)}) ${word}: vertex ${v} ≥ vertex count ${vertexCount}`, p + off);
          return v;
        };
        const radius = (): number => {
          const v = r.f32At(p + 4);
          if (!(v >= 0) || !Number.isFinite(v)) rr.fail(`${label}: polygon ${i} (${polyName(kind)}) radius ${v} is not a finite non-negative number`, p + 4);
          return v;
        };
        switch (kind) {
          case POLY.triangle:
            polys[o + 1] = index(4, TRIANGLE_INDEX_MASK, 'vertex 1');
            polys[o + 2] = index(6, TRIANGLE_INDEX_MASK, 'vertex 2');
            polys[o + 3] = index(8, TRIANGLE_INDEX_MASK, 'vertex 3');
            break;
          case POLY.sphere:
            polys[o + 1] = index(2, 0xffff, 'centre');
            radii[i] = radius();
            break;
          case POLY.capsule:
          case POLY.cylinder:
            polys[o + 1] = index(2, 0xffff, 'end 1');
            polys[o + 2] = index(8, 0xffff, 'end 2');
            radii[i] = radius();
            break;
          case POLY.box:
            for (let k = 0; k < 4; k++) polys[o + 1 + k] = index(4 + 2 * k, 0xffff, `corner ${k + 1}`);
            break;
          default:
            polys[o] = 0xff; // not a polygon kind the game defines: skipped below with a warning
            unknownKinds++;
        }
      }
    }
    if (unknownKinds) this.warn(`${rr.stage}: ${label}: ${unknownKinds} polygon record(s) of undefined kinds 5–7 skipped`);

    const types = new Uint16Array(materialCount);
    if (materialCount > 0) {
      const mp = this.required(at + 0xf0, `${label}: materials`, materialCount);
      rr.span(mp, MATERIAL_BYTES * materialCount, `${label}: materials (${materialCount} × ${MATERIAL_BYTES} bytes)`);
      for (let i = 0; i < materialCount; i++) types[i] = materialKey(r.u8At(mp + MATERIAL_BYTES * i), r.u8At(mp + MATERIAL_BYTES * i + 3));
    }
    const polyMaterials = new Uint16Array(polyCount);
    const ip = polyCount > 0 ? rr.ptr(at + 0x118, `${label}: polygon material indices`) : null;
    if (ip !== null) {
      rr.span(ip, polyCount, `${label}: polygon material indices (${polyCount} bytes)`);
      let bad = 0;
      for (let i = 0; i < polyCount; i++) {
        const m = r.u8At(ip + i);
        if (m < materialCount) polyMaterials[i] = types[m];
        else bad++;
      }
      if (bad) this.warn(`${rr.stage}: ${label}: ${bad} polygon(s) name a material ≥ the material count ${materialCount}; they get the default surface`);
    } else if (materialCount > 0) polyMaterials.fill(types[0]);
    return { ...h, kind: h.kind as 4 | 8, vertices, centre, quantum, polys, radii, polyMaterials };
  }

  /** A pointer that must be set because its count is not zero. */
  private required(at: number, what: string, count: number): number {
    const p = this.rr.ptr(at, what);
    if (p === null) this.rr.fail(`${what}: null pointer with a count of ${count}`, at);
    return p;
  }

  private composite(at: number, h: BoundHeader, path: string, label: string, depth: number, onPath: Set<number>): Bound {
    const { rr } = this;
    const r = rr.r;
    if (depth >= MAX_COMPOSITE_DEPTH) rr.fail(`${label}: composites nested more than ${MAX_COMPOSITE_DEPTH} deep`, at);
    rr.span(at, COMPOSITE_BYTES, `${label}: ${COMPOSITE_BYTES}-byte composite record`);
    const capacity = r.u16At(at + 0xa0, `${label}: child count`);
    const second = r.u16At(at + 0xa2, `${label}: second child count`);
    // 0xA0 sizes the arrays; 0xA2 is the count the game reads (GetNumChildBounds). They have always been seen
    // equal; a smaller non-zero 0xA2 is a partly used capacity, anything else is read as 0xA0 with a warning.
    let n = capacity;
    if (second > 0 && second < capacity) n = second;
    else if (second !== capacity) {
      this.warn(`${rr.stage}: ${label}: child count at 0xA2 is ${second}, at 0xA0 ${capacity}; reading ${capacity} children`);
    }
    const children: CompositeChild[] = [];
    if (n === 0) return { ...h, kind: 10, children };
    const cp = this.required(at + 0x70, `${label}: child bound pointers`, n);
    rr.span(cp, 8 * n, `${label}: child bound pointers (${n} × 8 bytes)`);
    const tp = rr.ptr(at + 0x78, `${label}: child transforms`) ?? rr.ptr(at + 0x80, `${label}: second child transforms`);
    if (tp === null) this.warn(`${rr.stage}: ${label}: no child transforms; children placed as they are`);
    else rr.span(tp, TRANSFORM_BYTES * n, `${label}: child transforms (${n} × ${TRANSFORM_BYTES} bytes)`);
    const fp = rr.ptr(at + 0x90, `${label}: child flags`) ?? rr.ptr(at + 0x98, `${label}: second child flags`);
    if (fp !== null) rr.span(fp, FLAGS_BYTES * n, `${label}: child flags (${n} × ${FLAGS_BYTES} bytes)`);
    onPath.add(at);
    for (let i = 0; i < n; i++) {
      const childPath = path === '' ? `${i}` : `${path}_${i}`;
      const transform = new Float64Array(IDENTITY);
      if (tp !== null) {
        const t = tp + TRANSFORM_BYTES * i;
        for (let c = 0; c < 4; c++) for (let k = 0; k < 3; k++) transform[3 * c + k] = r.f32At(t + 16 * c + 4 * k);
        if (!transform.every(Number.isFinite)) rr.fail(`${label}: child ${i} transform is not finite`, t);
      }
      const flags: [number, number] | null = fp === null ? null : [r.u32At(fp + FLAGS_BYTES * i), r.u32At(fp + FLAGS_BYTES * i + 4)];
      const ptr = rr.ptr(cp + 8 * i, `${label}: child ${i}`);
      if (ptr === null) {
        children.push({ bound: null, transform, flags });
        continue;
      }
      if (onPath.has(ptr)) rr.fail(`${label}: child ${i} points back to the composite at ${hex(ptr)} that contains it (a cycle)`, cp + 8 * i);
      children.push({ bound: this.bound(ptr, childPath, depth + 1, onPath), transform, flags });
    }
    onPath.delete(at);
    return { ...h, kind: 10, children };
  }
}

export const polyName = (k: number): string => ['triangle', 'sphere', 'capsule', 'box', 'cylinder'][k] ?? `kind ${k}`;
