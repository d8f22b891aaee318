// Seeded mutation fuzzing of the PhysicsResource codec, shared by test/format/fuzz.test.ts (a short run in the suite)
// and scripts/fuzz.ts (long runs). Each mutated resource must either be refused with a FormatError or read, write
// back byte for byte, and survive verify and inspect without throwing. Iteration i uses its own generator seeded
// from (seed, i), so any failure replays alone.
import { FormatError } from '../../src/format/cursor.ts';
import { formatSummary, summarize } from '../../src/format/inspect.ts';
import { defaultLayout } from '../../src/format/layout.ts';
import { readPhysicsResource, writePhysicsResource } from '../../src/format/resource.ts';
import type { PhysicsResource, ShapeRecord } from '../../src/format/types.ts';
import { verifyResource } from '../../src/format/verify.ts';
import { prng as rng } from '../fixtures/meshes.ts';

const INTERESTING_U32 = [0, 1, 2, 3, 4, 8, 0x38, 0x54, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
const INTERESTING_U16 = [0, 1, 2, 3, 0x7fff, 0x8000, 0xfffe, 0xffff];
/** Header fields and shape-record fields are where structure lives: hit them more often than random bytes. */
const HEADER_WORDS = [0x0c, 0x10, 0x14, 0x18, 0x1c, 0x20, 0x24, 0x28, 0x2c, 0x30, 0x34];

export function mutate(base: Uint8Array, rand: () => number): Uint8Array {
  let b = base.slice();
  const int = (n: number): number => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const shapeTable = b.length >= 0x2c ? new DataView(b.buffer).getUint32(0x28, true) + 0x28 : 0x38;
  const steps = 1 + int(3);
  for (let s = 0; s < steps && b.length > 0; s++) {
    const dv = new DataView(b.buffer);
    const u32At = (at: number, v: number): void => {
      if (at + 4 <= b.length) dv.setUint32(at, v >>> 0, true);
    };
    const relOrAbs = (at: number): number => (rand() < 0.5 ? pick(INTERESTING_U32) : int(b.length + 16) - at);
    switch (int(11)) {
      case 10:
        b = relocate(b, rand);
        break;
      case 0:
        b[int(b.length)] ^= 1 << int(8);
        break;
      case 1:
        b[int(b.length)] = int(256);
        break;
      case 2: {
        const at = 4 * int(b.length / 4);
        u32At(at, relOrAbs(at));
        break;
      }
      case 3: {
        const at = 2 * int(b.length / 2);
        if (at + 2 <= b.length) dv.setUint16(at, pick(INTERESTING_U16), true);
        break;
      }
      case 4: {
        const at = pick(HEADER_WORDS);
        if (at + 4 <= b.length) u32At(at, rand() < 0.5 ? dv.getUint32(at, true) + int(9) - 4 : relOrAbs(at));
        break;
      }
      case 5: {
        // A shape-record field: a count (u16) or one of the twelve offsets.
        const rec = shapeTable + 0x54 * int(4);
        if (rand() < 0.4) {
          const at = rec + 0x18 + 2 * int(4);
          if (at + 2 <= b.length) dv.setUint16(at, rand() < 0.5 ? pick(INTERESTING_U16) : dv.getUint16(at, true) + int(5) - 2, true);
        } else {
          const at = rec + 0x24 + 4 * int(12);
          if (at + 4 <= b.length) u32At(at, rand() < 0.5 ? dv.getUint32(at, true) + 2 * int(9) - 8 : relOrAbs(at));
        }
        break;
      }
      case 6:
        b = b.slice(0, int(b.length));
        break;
      case 7: {
        const tail = Uint8Array.from({ length: 1 + int(64) }, () => (rand() < 0.7 ? 0 : int(256)));
        const grown = new Uint8Array(b.length + tail.length);
        grown.set(b);
        grown.set(tail, b.length);
        b = grown;
        break;
      }
      case 8: {
        const n = 1 + int(32);
        const from = int(b.length);
        const to = int(b.length);
        b.copyWithin(to, from, from + n);
        break;
      }
      default: {
        const at = int(b.length);
        b.fill(rand() < 0.5 ? 0 : 0xff, at, at + 1 + int(16));
      }
    }
  }
  return b;
}

/**
 * Moves one array of one shape to the end of the file (at a random alignment and distance) and repoints its offset,
 * leaving the old bytes behind: a valid resource in a layout our writer would not choose, when the array is real.
 */
function relocate(b: Uint8Array<ArrayBuffer>, rand: () => number): Uint8Array<ArrayBuffer> {
  if (b.length < 0x38) return b;
  const dv = new DataView(b.buffer);
  const shapes = dv.getUint32(0x18, true);
  const table = dv.getUint32(0x28, true) + 0x28;
  if (shapes === 0 || table + 0x54 * shapes > b.length) return b;
  const rec = table + 0x54 * Math.floor(rand() * Math.min(shapes, 8));
  const slot = Math.floor(rand() * 12);
  const field = rec + 0x24 + 4 * slot;
  const from = dv.getUint32(field, true) + field;
  const n = 4 + Math.floor(rand() * 256);
  if (from === field || from + n > b.length) return b;
  const to = b.length + 4 * Math.floor(rand() * 5);
  const out = new Uint8Array(to + n + Math.floor(rand() * 16));
  out.set(b);
  out.set(b.subarray(from, from + n), to);
  new DataView(out.buffer).setUint32(field, to - field, true);
  return out;
}

export interface FuzzStats {
  iterations: number;
  accepted: number;
  /** Accepted resources whose layout differs from our default (only the layout hints reproduce them). */
  foreignLayout: number;
  refused: number;
  /** Refusals by stage ("header", "shape 0", "layout", ...). */
  byStage: Record<string, number>;
  failures: { iteration: number; error: string; input: Uint8Array }[];
  ms: number;
}

/** The resource's recorded layout is not the one our writer chooses by default. */
function isForeign(res: PhysicsResource): boolean {
  const l = res.layout!;
  const d = defaultLayout(res);
  return l.size !== d.size || l.fill.length > 0 || l.partTable !== d.partTable || l.arrays.some((a, i) => a.some((x, k) => x !== d.arrays[i][k]));
}

/** One mutated resource through read → write → verify → inspect. Returns a failure message, or null. */
export function checkOne(bytes: Uint8Array, stats: FuzzStats): string | null {
  try {
    const res = readPhysicsResource(bytes);
    const back = writePhysicsResource(res);
    if (!Buffer.from(back).equals(Buffer.from(bytes))) return `accepted but wrote back different bytes (${bytes.length} → ${back.length})`;
    if (isForeign(res)) stats.foreignLayout++;
    verifyResource(res, 'fuzz');
    formatSummary(summarize(res, bytes.length));
    stats.accepted++;
    return null;
  } catch (e) {
    if (e instanceof FormatError) {
      stats.refused++;
      const stage = e.stage.replace(/\d+/, 'N');
      stats.byStage[stage] = (stats.byStage[stage] ?? 0) + 1;
      return null;
    }
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

export function fuzz(corpus: readonly Uint8Array[], iterations: number, seed: number): FuzzStats {
  const stats: FuzzStats = { iterations, accepted: 0, foreignLayout: 0, refused: 0, byStage: {}, failures: [], ms: 0 };
  const t0 = performance.now();
  // Most mutated resources are refused: capturing a stack for each FormatError would dominate the run.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (let i = 0; i < iterations; i++) {
      const rand = rng((seed * 0x9e3779b1) ^ i);
      const input = mutate(corpus[Math.floor(rand() * corpus.length)], rand);
      const failure = checkOne(input, stats);
      if (failure) stats.failures.push({ iteration: i, error: failure, input });
    }
  } finally {
    Error.stackTraceLimit = limit;
  }
  stats.ms = performance.now() - t0;
  return stats;
}

type Rand = () => number;
const int = (rand: Rand, n: number): number => Math.floor(rand() * n);
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[int(rand, xs.length)];

/** A float nudged by a few units in its last place (f32), the kind of change the tree's slack is about. */
const nudge = (v: number, rand: Rand): number => v + (Math.abs(v) || 1e-30) * 2 ** -23 * (int(rand, 9) - 4);

function editFloat(a: Float32Array | number[], rand: Rand): void {
  if (a.length === 0) return;
  const k = int(rand, a.length);
  const values = [Number.NaN, Infinity, -Infinity, 0, -0, 1, 1.5, -1e-30, 1e38, -1e38, a[int(rand, a.length)]];
  a[k] = rand() < 0.5 ? nudge(a[k], rand) : pick(rand, values);
}

function editInt(a: Uint16Array | Int16Array | Uint8Array | Uint32Array, rand: Rand): void {
  if (a.length === 0) return;
  const k = int(rand, a.length);
  const bits = a instanceof Uint8Array ? 8 : a instanceof Uint32Array ? 32 : 16;
  switch (int(rand, 4)) {
    case 0: {
      const j = int(rand, a.length);
      [a[k], a[j]] = [a[j], a[k]];
      break;
    }
    case 1:
      a[k] ^= 1 << int(rand, bits);
      break;
    case 2:
      a[k] += int(rand, 5) - 2;
      break;
    default:
      a[k] = pick(rand, [0, 1, a.length, a[int(rand, a.length)], 2 ** (bits - 1), 2 ** bits - 1]);
  }
}

/**
 * One to three field edits of a read resource's shapes (and now and then an array cut short or dropped): values
 * set to NaN, infinities, extremes or nudged by a few ulps, indices swapped or bumped, tree bits flipped.
 */
export function mutateRecord(res: PhysicsResource, rand: Rand): void {
  if (res.shapes.length === 0) return;
  const planed = res.shapes.filter((s) => s.planeOffsets.length > 0);
  for (let n = 1 + int(rand, 3); n > 0; n--) {
    const which = int(rand, 14);
    // Few shapes have face planes (kinds 2 and 3): their edits go to one that has.
    const s: ShapeRecord = which === 10 && planed.length ? pick(rand, planed) : pick(rand, res.shapes);
    if (which === 13) {
      // Structure: an array cut short or dropped (the counts check).
      const key = pick(rand, ['edgeValues', 'vertexCornerOffsets', 'cornerIdsByVertex', 'flatBits', 'tree', 'planeOffsets'] as const);
      const a = s[key];
      (s as unknown as Record<string, ArrayLike<number>>)[key] = a.subarray(0, rand() < 0.5 ? 0 : int(rand, a.length));
      continue;
    }
    switch (which) {
      case 0: editFloat(s.min, rand); break;
      case 1: editFloat(s.max, rand); break;
      case 2: case 3: editFloat(s.vertices, rand); break;
      case 4: editInt(s.vertexCornerOffsets, rand); break;
      case 5: editInt(s.cornerIdsByVertex, rand); break;
      case 6: editInt(s.cornerVertices, rand); break;
      case 7: editFloat(s.edgeValues, rand); break;
      case 8: editInt(rand() < 0.5 ? s.concaveBits : s.flatBits, rand); break;
      case 9: editInt(s.faceOffsets, rand); break;
      case 10: rand() < 0.5 ? editInt(s.planeNormals, rand) : editFloat(s.planeOffsets, rand); break;
      default: editInt(s.tree, rand);
    }
  }
}
