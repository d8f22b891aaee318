// The ride's passes over a world built in WebAssembly (world-wasm.ts builds it and registers them here, once a world):
// what the encoder module's ride functions look like to JavaScript (RideWasm), the JavaScript face of each pass (the
// fold search, the surface look-up, the simulation, the quiet map's marks and judging, a ride's start, the plan's
// seam edges and measuring, the coverage grid and the lane passes over it), and the registry the ride's modules ask:
// each answer is the same as its JavaScript's (the rule, which runs for any other world). The ride's modules import
// this, not the builder: the world's passes, not how the world is written.
import { faceCos, type ContactModel } from './contact.ts';
import { probeReach, probeThickness, type ProbeShape } from './probes.ts';
import type { Hit, RideResult, RideStart, SimulationOptions } from './simulate.ts';
import type { NativeSurface, Query } from './grid.ts';
import type { RideWorld } from './world.ts';
import { GRID_CHUNK } from './world-pipe.ts';

/** Cells (or faces) a pass's call takes (world-pipe.ts GRID_CHUNK: the grid's passes' chunk). */
const CHUNK = GRID_CHUNK;
const align8 = (n: number): number => Math.ceil(n / 8) * 8;

export interface RideWasm {
  memory: WebAssembly.Memory;
  heapBase(): number;
  rideBegin(): void;
  rideBound(k: number): number;
  rideSetBound(k: number, v: number): void;
  rideResult(k: number): number;
  rideTransform(qx: number, qy: number, qz: number, qw: number, px: number, py: number, pz: number): void;
  rideWalkable(ny: number): void;
  rideGridPlace(vert: number, from: number, vertices: number, x0: number, z0: number, cell: number, nx: number, nz: number, place: number): void;
  rideGridCount(corner: number, from: number, faces: number, place: number, at: number, nx: number): void;
  rideGridStarts(at: number, cells: number, start: number): number;
  rideGridFill(corner: number, from: number, faces: number, place: number, at: number, items: number, nx: number): void;
  rideGridCountAfter(corner: number, from: number, faces: number, place: number, at: number, nx: number, first: number, cells: number): void;
  rideGridStartsSplit(at: number, after: number, first: number, cells: number, start: number): number;
  rideCover(vert: number, corner: number, bits: number, from: number, to: number, place: number, area: number, nx: number, total: number): number;
  rideMarkCells(vert: number, corner: number, bits: number, from: number, to: number, out: number, x0: number, z0: number, cell: number, nx: number, nz: number): number;
  rideSurface(c: number, x: number, z: number, y: number, reach: number, top: number): number;
  rideSurfaceIO(io: number): void;
  rideFoldWorld(vert: number, corner: number, bits: number, faces: number, start: number, items: number, x0: number, z0: number, cell: number, nx: number, nz: number, seen: number): void;
  rideFold(t: number, k: number): number;
  rideFoldDot(): number;
  rideFoldCorner(): number;
  rideSimWorld(vert: number, corner: number, allow: number, faces: number, start: number, items: number, x0: number, z0: number, cell: number, nx: number, nz: number): void;
  rideSimIO(): number;
  rideSimHits(): number;
  rideSim(): void;
  rideQuietWorld(vert: number, corner: number, allow: number, bits: number, faces: number, start: number, items: number, x0: number, z0: number, cell: number, nx: number, nz: number, quiet: number, table: number, tableEnd: number, io: number): void;
  rideStartIO(): number;
  rideStart(rider: number, p: number, skip: number): number;
  rideStartBound(rider: number, p: number, speed: number, length: number, bound: number): void;
  rideQuietBegin(pending: number, loud: number, state: number, candidates: number, slack: number): void;
  rideQuietConvex(bits: number, faces: number): number;
  rideQuietTableSlots(keys: number): number;
  rideQuietBox(): number;
  rideIsLoud(t: number): number;
  rideCrestFold(corner: number): number;
  rideSeamCorners(bits: number, from: number, to: number, out: number, count: number, cap: number): number;
  rideSeamKeys(vert: number, corner: number, corners: number, from: number, to: number, keys: number, lens: number): void;
  rideSeamBegin(): void;
  rideSeamEdges(corners: number, from: number, to: number, keys: number, lens: number, table: number, size: number, edges: number): number;
  rideSeamTotal(): number;
  ridePositive(area: number, n: number): number;
  rideLaneSpans(n: number, c: number, spacing: number, out: number): void;
  rideLaneCells(area: number, cnx: number, from: number, to: number, cols: number, rows: number, lanes: number, nx: number): void;
  rideSampled(area: number, hit: number, n: number, s: number): number;
  ridePlanWorld(vert: number, corner: number, bits: number, start: number, items: number, x0: number, z0: number, cell: number, nx: number, nz: number, io: number): void;
  rideMeasure(edges: number, from: number, to: number, across: number, nearReach: number, gapDrop: number, gapStep: number, gapMax: number, out: number): void;
  rideWritePart(
    sv: number, nv: number, cv: number, corners: number, offsets: number, nf: number, flat: number, concave: number, hasBits: number,
    values: number, hasValues: number, cornerOffsets: number, cornerIds: number, listed: number, indexed: number,
    vert: number, corner: number, allow: number, bits: number, t: number, nw: number, next: number, after: number, runs: number,
  ): void;
  ridePartCount(cv: number, corners: number, offsets: number, nf: number, nv: number): number;
  ridePartOrigin(): number;
}

/** A fold across an edge (quiet.ts foldAcross's answer and across corner). */
export type Fold = (t: number, k: number, across: Int32Array) => number;
/**
 * The quiet map's judging in WebAssembly (assembly/ride-quiet.ts): its box (x0, z0, x1, z1, written by the caller), and
 * QuietMap's quietInBox (of that box), isLoud and crestFold, 1 and 0 for true and false.
 */
export interface NativeQuiet {
  box: Float64Array;
  quietInBox(): number;
  isLoud(t: number): number;
  crestFold(corner: number): number;
}
/**
 * The quiet map's marks (quiet.ts markCells over every face), a bit a grid cell, how many faces may be loud, and the
 * judging over them (given GHOST_SLACK less the model's slack).
 */
export type MarkPass = () => { pending: Int32Array; count: number; quiet: (slack: number) => NativeQuiet };
/**
 * The coverage grid's areas (lanes.ts Cover's pass) over the given cells, or undefined where they do not fit; with
 * the plan's passes over them (CoverNative).
 */
export type CoverPass = (x0: number, z0: number, cell: number, nx: number, nz: number) => ({ area: Float64Array; total: number } & CoverNative) | undefined;
/**
 * lanes.ts's passes over a coverage grid in WebAssembly memory: its hit bytes there (undefined where they do not fit),
 * Cover.occupied, laneCells' dense sums (the lane grid's areas, valid until the next call; undefined where they do
 * not fit) and Cover.sampled's sum (of these hit bytes).
 */
export interface CoverNative {
  hit?: Uint8Array;
  occupied(): number;
  laneAreas(spacing: number, nx: number, nz: number): Float64Array | undefined;
  sampledSum(): number;
}
/** seam-edges.ts seamEdgesOf's answer, or undefined where its table does not fit. */
export type SeamPass = () => { edges: Uint32Array; total: number } | undefined;
/** Numbers a measured seam edge (assembly/ride-plan.ts rideMeasure): len, ix, iz, px, py, pz, near, nearY, far, farY, d, work. */
export const MEASURED = 12;
/**
 * The plan's measuring of seam edges [from, to) (index.ts plan: the rule): MEASURED numbers an edge from `from`'s
 * (a view valid until the next call), at most `chunk` edges a call.
 */
export interface MeasurePass {
  chunk: number;
  at(edges: Uint32Array, from: number, to: number, across: number, nearReach: number, gapDrop: number, gapStep: number, gapMax: number): Float64Array;
}

/**
 * The searches and passes a world this builder made runs in WebAssembly over its memory, each the same answers or
 * bytes as its JavaScript (test/ride/world-wasm.test.ts, sim-wasm.test.ts): the fold across an edge, the surface under
 * a point, a ride's simulation, and, once a world (they write into the grid's scratch), the coverage grid's pass and
 * the quiet map's marks.
 */
export interface Native {
  fold: Fold;
  /** Once the quiet map judges in WebAssembly: a ride's start to its quiet box (assembly/ride-quiet.ts rideStart). */
  start?: NativeStart;
  sim: NativeSim;
  surface: NativeSurface;
  cover?: CoverPass;
  marks?: MarkPass;
  seams: SeamPass;
  measure?: MeasurePass;
}
const NATIVE = new WeakMap<RideWorld, Native>();

/** Hands the world's passes in WebAssembly to the ride (world-wasm.ts, once a world, when it is finished). */
export function setNative(w: RideWorld, native: Native): void {
  NATIVE.set(w, native);
}

/**
 * A ride's start to its quiet box in WebAssembly (assembly/ride-quiet.ts rideStart: index.ts rider's startAt, boundOf
 * and quiet box, the same numbers): `io` its input (speed, x, y, z, dx, dz, length, start reach, the probe: kind 0
 * sphere, 1 capsule, 2 box, then radius and half length or the three half extents) and output (the start's centre and
 * velocity, the look-up's work); `at(rider, p, skip)` 0 no surface, 1 quiet, 2 to be simulated, 3 the bound not kept
 * (`bound(rider, p, speed, length, rideBound's answer)`, then ask again). `rider` tells one rider's kept answers from
 * another's (wasmStart gives each its own).
 */
export interface NativeStart {
  io: Float64Array;
  at(rider: number, p: number, skip: number): number;
  bound(rider: number, p: number, speed: number, length: number, bound: number): void;
}
let riders = 0;

/**
 * The ride's start in WebAssembly for a world this builder made whose quiet map judges there (quietMap(w) made first),
 * and a number for the rider asking; else undefined.
 */
export function wasmStart(w: RideWorld): { start: NativeStart; rider: number } | undefined {
  const start = NATIVE.get(w)?.start;
  return start && { start, rider: ++riders };
}

/** quiet.ts foldAcross in WebAssembly for a world this builder made; undefined for any other world. */
export const wasmFold = (w: RideWorld): Fold | undefined => NATIVE.get(w)?.fold;

/** surface.ts surfaceUnder's cell walk in WebAssembly for a world this builder made; else undefined. */
export const wasmSurface = (w: RideWorld): NativeSurface | undefined => NATIVE.get(w)?.surface;

/**
 * simulate.ts rideWith in WebAssembly (assembly/ride-sim.ts) for a world this builder made: the same result bit for bit,
 * q.work advanced by the same; undefined where the probe, options or start are not all plain numbers (rideWith then
 * runs them).
 */
export type NativeSim = (q: Query, start: RideStart, opt: SimulationOptions, model: ContactModel) => RideResult | undefined;

/** simulate.ts rideWith in WebAssembly for a world this builder made; else undefined. */
export const wasmSim = (w: RideWorld): NativeSim | undefined => NATIVE.get(w)?.sim;

const isNum = (x: unknown): x is number => typeof x === 'number';
const nums3 = (a: unknown): a is ArrayLike<number> => a != null && isNum((a as number[])[0]) && isNum((a as number[])[1]) && isNum((a as number[])[2]);

/** Contacts a substep at most (assembly/ride-sim.ts POOL; simulate.ts's pool holds as many). */
const SIM_POOL = 1024;
/** Words of a hit at rideSimHits (assembly/ride-sim.ts HIT_WORDS). */
const HIT_WORDS = 13;

/** The probe's kind as assembly/ride-sim.ts numbers it (0 sphere, 1 capsule, 2 box), or −1 where its numbers are not plain. */
function simKind(p: ProbeShape): number {
  if (p.kind === 'sphere') return isNum(p.radius) ? 0 : -1;
  if (p.kind === 'capsule') return isNum(p.radius) && isNum(p.halfLength) ? 1 : -1;
  if (p.kind === 'box') return nums3(p.half) ? 2 : -1;
  return -1;
}

/** The simulation over this instance's world (rideSimWorld set): the ride's numbers in, its results and hits out. */
export function nativeSim(w: RideWasm, hits: { out: Hit[] }): NativeSim {
  const at = w.rideSimIO();
  let io = new Float64Array(w.memory.buffer, at, 34);
  return (q, start, opt, model) => {
    const p = start.probe, kind = simKind(p), stop = start.distance ?? Infinity;
    if (kind < 0 || !nums3(start.position) || !nums3(start.velocity) || !isNum(start.duration) || !isNum(stop)) return undefined;
    if (!(isNum(opt.gravity) && isNum(opt.hz) && isNum(opt.skin) && isNum(opt.iterations) && isNum(opt.hitImpulse) && isNum(opt.maxContacts))) return undefined;
    if (!(isNum(model.angleSlack) && isNum(model.faceAngle))) return undefined;
    if (io.buffer !== w.memory.buffer) io = new Float64Array(w.memory.buffer, at, 34); // the memory grew
    io[0] = kind;
    io[1] = kind === 2 ? 0 : (p as { radius: number }).radius;
    io[2] = kind === 1 ? (p as { halfLength: number }).halfLength : 0;
    if (kind === 2) { const h = (p as { half: number[] }).half; io[3] = h[0]; io[4] = h[1]; io[5] = h[2]; } else io[3] = io[4] = io[5] = 0;
    io[6] = probeReach(p); io[7] = probeThickness(p);
    io[8] = opt.gravity; io[9] = 1 / opt.hz; io[10] = opt.skin; io[11] = opt.iterations; io[12] = opt.hitImpulse; io[13] = Math.min(opt.maxContacts, SIM_POOL);
    io[14] = faceCos(model); io[15] = model.angleSlack;
    io[16] = start.position[0]; io[17] = start.position[1]; io[18] = start.position[2];
    io[19] = start.velocity[0]; io[20] = start.velocity[1]; io[21] = start.velocity[2];
    io[22] = start.duration; io[23] = stop;
    const out: Hit[] = [];
    hits.out = out;
    w.rideSim();
    const r = io.buffer === w.memory.buffer ? io : (io = new Float64Array(w.memory.buffer, at, 34));
    const work0 = q.work;
    q.work += r[33];
    return { position: [r[24], r[25], r[26]], velocity: [r[27], r[28], r[29]], distance: r[30], time: r[31], hits: out, fell: r[32] === 1, work: q.work - work0 };
  };
}

/** Reads `count` hits at `at` (rideSimHits) into Hit objects. */
export function readHits(memory: WebAssembly.Memory, at: number, count: number, out: Hit[]): void {
  const h = new Float64Array(memory.buffer, at, HIT_WORDS * count);
  for (let i = 0, o = 0; i < count; i++, o += HIT_WORDS) {
    out.push({
      face: h[o], feature: h[o + 1], point: [h[o + 2], h[o + 3], h[o + 4]], normal: [h[o + 5], h[o + 6], h[o + 7]],
      impulse: h[o + 8], speedBefore: h[o + 9], speedAfter: h[o + 10], kick: h[o + 11], time: h[o + 12],
    });
  }
}

/** lanes.ts Cover's pass in WebAssembly for a world this builder made, the first time it is asked; else undefined. */
export function wasmCover(w: RideWorld): CoverPass | undefined {
  const n = NATIVE.get(w), c = n?.cover;
  if (n) n.cover = undefined;
  return c;
}

/**
 * seam-edges.ts seamEdgesOf in WebAssembly for a world this builder made, until its coverage grid is asked for (the
 * pass's table is the scratch the coverage grid's areas then take); else undefined.
 */
export function wasmSeams(w: RideWorld): SeamPass | undefined {
  const n = NATIVE.get(w);
  return n?.cover ? n.seams : undefined;
}

/**
 * index.ts plan's measuring of seam edges in WebAssembly for a world this builder made, until its coverage grid is
 * asked for (its memory is then the coverage grid's); else undefined.
 */
export function wasmMeasure(w: RideWorld): MeasurePass | undefined {
  const n = NATIVE.get(w);
  return n?.cover ? n.measure : undefined;
}

/** quiet.ts markCells over the whole world in WebAssembly for a world this builder made, the first time; else undefined. */
export function wasmMarks(w: RideWorld): MarkPass | undefined {
  const n = NATIVE.get(w), m = n?.marks;
  if (n) n.marks = undefined;
  return m;
}

/**
 * The plan's passes over the coverage grid's areas (nx × nz cells of `cell` m, f64 at areaAt) in WebAssembly. `free`
 * bytes at freeAt nothing else reads from the coverage pass on hold the hit bytes (as long as the world lives), then
 * laneAreas' scratch.
 */
export function coverNative(w: RideWasm, areaAt: number, cell: number, nx: number, nz: number, freeAt: number, free: number): CoverNative {
  const cells = nx * nz, fits = cells <= free;
  const hitAt = freeAt, scratchAt = freeAt + align8(cells), end = freeAt + free;
  const hit = fits ? new Uint8Array(w.memory.buffer, hitAt, cells).fill(0) : undefined;
  return {
    hit,
    occupied: () => {
      // A chunk a call (as the grid's passes: the later ones run the optimized code).
      let count = 0;
      for (let k = 0; k < cells; k += CHUNK) count += w.ridePositive(areaAt + 8 * k, Math.min(CHUNK, cells - k));
      return count;
    },
    laneAreas: (spacing, lx, lz) => {
      const colsAt = scratchAt, rowsAt = colsAt + 8 * nx, lanesAt = rowsAt + 8 * nz;
      if (!fits || lanesAt + 8 * lx * lz > end) return undefined;
      w.rideLaneSpans(nx, cell, spacing, colsAt);
      w.rideLaneSpans(nz, cell, spacing, rowsAt);
      const lanes = new Float64Array(w.memory.buffer, lanesAt, lx * lz).fill(0);
      // A chunk of rows a call (as the grid's passes: the later ones run the optimized code).
      const rows = Math.max(1, Math.floor(CHUNK / nx));
      for (let j = 0; j < nz; j += rows) w.rideLaneCells(areaAt, nx, j, Math.min(nz, j + rows), colsAt, rowsAt, lanesAt, lx);
      return lanes;
    },
    sampledSum: () => {
      let s = 0;
      // A chunk a call, the sum carried: the same additions in the same order.
      for (let k = 0; k < cells; k += CHUNK) s = w.rideSampled(areaAt + 8 * k, hitAt + k, Math.min(CHUNK, cells - k), s);
      return s;
    },
  };
}
