// What the glTF import keeps from one build of a level to the next in one process (src/build/session.ts): the world-space
// arrays it made, found again by what they were made from. An author's edit (a moved ramp, a changed material)
// leaves most accessors' bytes and most nodes' world matrices as they were, so most objects' arrays are the
// previous build's, not computed again, and everything after the import that is kept per array (cell runs,
// validation, cache keys) is found again too.
//
// Exactness: an array is taken again only for the same inputs, compared exactly — the accessor's bytes (a memcmp
// against the previous file's, never a hash), its component type, type and count, the 16 float64 words of the
// world matrix, the primitive mode and the winding flip (a triangle list is kept with the positions it indexes).
// The arrays are never written after the import (assembleObject copies, it does not shift in place), so a kept
// array still holds what a fresh import makes. An array is handed to one object per build: two nodes with the same
// mesh and matrix get one each.

import { SharedArena } from './shared-arena.ts';

const ids = new WeakMap<object, number>();
let lastId = 0;

/** A number for this array (or any object), the same for the process's lifetime: what the session's memos key by. */
export function arrayId(a: object): number {
  let id = ids.get(a);
  if (id === undefined) ids.set(a, (id = ++lastId));
  return id;
}

/** Most bytes of an accessor sampled for its lookup key (the match itself compares every byte). */
const SAMPLE_BYTES = 64;

/** An accessor's data as the memo compares it: what the values are, and their bytes in the file. */
export interface AccessorData {
  /** Component type, element type and count: `5126:VEC3:24`. */
  kind: string;
  bytes: Uint8Array;
}

/** A lookup key: the kind, the length, and a sample of the bytes (start, middle, end). */
function sampleKey(d: AccessorData): string {
  const b = d.bytes;
  let h = 0x811c9dc5;
  const mix = (from: number): void => {
    const to = Math.min(b.length, from + SAMPLE_BYTES);
    for (let i = Math.max(0, from); i < to; i++) h = Math.imul(h ^ b[i], 0x01000193);
  };
  mix(0);
  mix((b.length >> 1) - (SAMPLE_BYTES >> 1));
  mix(b.length - SAMPLE_BYTES);
  return `${d.kind}:${b.length}:${(h >>> 0).toString(36)}`;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

const scratch = new Float64Array(16);
const scratchWords = new Int32Array(scratch.buffer);

/** A number from a float64 matrix's bits (to find candidates; the match compares every word). */
function matrixHash(m: Float64Array): number {
  scratch.set(m);
  let h = 0x811c9dc5;
  for (let i = 0; i < 32; i++) h = Math.imul(h ^ scratchWords[i], 0x01000193);
  return h >>> 0;
}

/** Bit for bit the same matrix (−0 and 0 differ, as they may in the products; NaN never passes checkWorld). */
function sameMatrix(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < 16; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** World positions kept by (accessor token, world matrix), with the triangle lists made for them. */
interface Placed {
  token: number;
  matrix: Float64Array;
  positions: Float32Array;
  lists: { token: number; mode: number; flip: boolean; list: Uint32Array }[];
  /** The build that last handed it out, and its place in that build's order. */
  used: number;
  order: number;
}

const placedHash = (token: number, m: Float64Array): number => (matrixHash(m) ^ Math.imul(token, 0x9e3779b1)) >>> 0;

/**
 * Placed arrays of the previous build by a hash of token and matrix (compared exactly), and in the order the walk
 * asked for them: it asks in the same order build after build, so the entry after the last one found is tried
 * first. An entry is handed out once a build (two nodes with the same mesh and matrix get one each).
 */
class PlacedGeneration {
  private prev = new Map<number, Placed[]>();
  private next = new Map<number, Placed[]>();
  private prevOrder: Placed[] = [];
  private nextOrder: Placed[] = [];
  private cursor = 0;
  private build = 0;

  /** The entry of positions handed out (this build's or a kept one). */
  readonly of = new WeakMap<Float32Array, Placed>();

  begin(): void {
    this.build++;
    this.cursor = 0;
    this.next = new Map();
    this.nextOrder = [];
  }

  /** The hash find computed last, for keep() of the same (token, matrix) after a miss. */
  private last: { token: number; m: Float64Array; h: number } | undefined;

  find(token: number, m: Float64Array): Float32Array | undefined {
    const h = placedHash(token, m);
    this.last = { token, m, h };
    const c = this.prevOrder[this.cursor];
    let hit = c !== undefined && c.used !== this.build && c.token === token && sameMatrix(c.matrix, m) ? c : undefined;
    if (!hit) {
      const list = this.prev.get(h);
      if (list) for (const p of list) if (p.used !== this.build && p.token === token && sameMatrix(p.matrix, m)) (hit ??= p);
    }
    if (!hit) return undefined;
    this.cursor = hit.order + 1;
    this.take(hit, h);
    return hit.positions;
  }

  /** Keeps positions made for (token, m); m is kept as it is (the walk makes a matrix per node and never writes it). */
  keep(token: number, m: Float64Array, positions: Float32Array): void {
    const l = this.last;
    const h = l && l.token === token && l.m === m ? l.h : placedHash(token, m);
    this.take({ token, matrix: m, positions, lists: [], used: -1, order: -1 }, h);
  }

  private take(p: Placed, h: number): void {
    p.used = this.build;
    p.order = this.nextOrder.length;
    this.nextOrder.push(p);
    const here = this.next.get(h);
    if (here) here.push(p);
    else this.next.set(h, [p]);
    this.of.set(p.positions, p);
  }

  commit(): void {
    this.prev = this.next;
    this.prevOrder = this.nextOrder;
    this.begin();
  }
}

/** Arrays kept by key for one build, found by the next (then those not used again are dropped). */
class Generation<T> {
  prev = new Map<string, T>();
  next = new Map<string, T>();
  /** Whether the value for key was found again (or made) this build. */
  get(key: string, make: () => T): T {
    let v = this.next.get(key);
    if (v !== undefined) return make(); // a second use this build: its own array
    v = this.prev.get(key) ?? make();
    this.next.set(key, v);
    return v;
  }
  commit(): void {
    this.prev = this.next;
    this.next = new Map();
  }
  abandon(): void {
    this.next = new Map();
  }
}

export class ImportMemo {
  /** Accessors of the previous build by sample key: their bytes and token. */
  private accessors = new Map<string, { bytes: Uint8Array; token: number }[]>();
  private nextAccessors = new Map<string, { bytes: Uint8Array; token: number }[]>();
  private tokens = 0;
  private positions = new PlacedGeneration();
  private objects = new Generation<{ positions: Float32Array; groups: { material: number; indices: Uint32Array }[] }>();
  /** The import's shared memory, kept from build to build. */
  readonly arena = new SharedArena();
  /** Arrays found again / made, over the last build (tests and --verbose). */
  readonly stats = { reused: 0, made: 0 };

  /**
   * Two buffers the level file is read into, in turn: the kept accessors view the file of the last finished
   * import, so a build reads into the other one. A fresh 10 MB buffer a build cost 15–25 ms of page faults where
   * the read itself is ~2 ms (the 1M bench level).
   */
  private files: (Uint8Array<ArrayBuffer> | undefined)[] = [undefined, undefined];
  /** The buffer the kept accessors view (-1: none of the two), and the one this build read into. */
  private keptFile = -1;
  private thisFile = -1;

  /** Memory for this build's level file, size bytes (not the buffer the kept accessors view). */
  readonly fileBuffer = (size: number): Uint8Array<ArrayBuffer> => {
    const k = this.keptFile === 0 ? 1 : 0;
    let b = this.files[k];
    if (!b || b.length < size) this.files[k] = b = new Uint8Array(Math.max(size, Math.ceil(1.25 * (b?.length ?? 0))));
    this.thisFile = k;
    return b.subarray(0, size);
  };

  /** Starts a build's import (before the file is read). */
  begin(): void {
    this.thisFile = -1;
    this.nextAccessors = new Map();
    this.positions.begin();
    this.objects.abandon();
    this.stats.reused = this.stats.made = 0;
  }

  /** The import finished: what it used is what the next build looks in. */
  commit(): void {
    this.keptFile = this.thisFile;
    this.accessors = this.nextAccessors;
    this.nextAccessors = new Map();
    this.positions.commit();
    this.objects.commit();
  }

  /** A number naming the accessor's data: the same as the previous build's for the same kind and bytes. */
  token(d: AccessorData): number {
    const key = sampleKey(d);
    const here = this.nextAccessors.get(key);
    const seen = here?.find((c) => sameBytes(c.bytes, d.bytes)) ?? this.accessors.get(key)?.find((c) => sameBytes(c.bytes, d.bytes));
    const token = seen?.token ?? ++this.tokens;
    if (!here?.some((c) => c.token === token)) {
      if (here) here.push({ bytes: d.bytes, token });
      else this.nextAccessors.set(key, [{ bytes: d.bytes, token }]);
    }
    return token;
  }

  /** The kept world positions of accessor `token` under matrix `m` (exactly), or undefined: make them and keep(). */
  findPositions(token: number, m: Float64Array): Float32Array | undefined {
    const p = this.positions.find(token, m);
    if (p) this.stats.reused++;
    return p;
  }

  keepPositions(token: number, m: Float64Array, positions: Float32Array): void {
    this.stats.made++;
    this.positions.keep(token, m, positions);
  }

  /**
   * The kept triangle list (indices `token`, or none: -1) for positions this memo handed out or kept (that gives
   * the vertex count, and one list per object even where nodes share a mesh), by mode and flip; or undefined.
   */
  findTriangles(token: number, positions: Float32Array, mode: number, flip: boolean): Uint32Array | undefined {
    const placed = this.positions.of.get(positions);
    if (placed) for (const l of placed.lists) if (l.token === token && l.mode === mode && l.flip === flip) return this.stats.reused++, l.list;
    return undefined;
  }

  keepTriangles(token: number, positions: Float32Array, mode: number, flip: boolean, list: Uint32Array): void {
    this.stats.made++;
    const placed = this.positions.of.get(positions);
    if (!placed) return;
    placed.lists.push({ token, mode, flip, list });
    if (placed.lists.length > 4) placed.lists.shift(); // indices edited again and again under the same positions
  }

  /** An object of several primitives, concatenated: by its chunks' arrays and materials. */
  assembled<T extends { positions: Float32Array; groups: { material: number; indices: Uint32Array }[] }>(key: string, make: () => T): T {
    return this.count(this.objects, key, make) as T;
  }

  private count<T>(g: Generation<T>, key: string, make: () => T): T {
    let made = false;
    const v = g.get(key, () => ((made = true), make()));
    if (made) this.stats.made++;
    else this.stats.reused++;
    return v;
  }
}
