// The ride's world built in WebAssembly (assembly/ride-world.ts): WorldBuilder's world, array for array and bit for
// bit (the rule stays writeFaces in world.ts; a test holds the two to the same bytes), written by the encoder
// module's ride writer into an instance of its own whose linear memory holds the world's arrays, which the world's
// typed arrays then view. Why: the ride writes every face of a level once in a fresh process, where JavaScript runs
// its first files unoptimized (~220 ms of a 1M-face ride's ~1 s); the same loop compiled ahead runs at full speed
// from the first part (docs/performance.md).
//
// Memory, from the heap base: a part's scratch (its shape's arrays copied in, and the writer's own), then the
// world's vertices (f64 × 3), corners (u32), allowances (f32) and face bits (u16) at their capacities. A part past a
// capacity grows the memory and moves the arrays up (the highest first, so none is overwritten before it moves); a
// pipelined build's part scratch is a ring of slots (world-pipe.ts). finish() builds the grid after the arrays and
// registers the world's passes in WebAssembly with native.ts, which the ride's modules ask.
import { encoderInstance, encoderSharedModule, sharedEncoderMemory, WASM_PAGE } from '../geometry/wasm.ts';
import { KIND_MESH, type PhysicsResource } from '../format/types.ts';
import { edgeAllowance, EDGE_CONVEX } from './contact.ts';
import type { Hit } from './simulate.ts';
import { forgetLeft, gridCells, leaveForCover, WORLD_DEFAULTS, type Grid, type WorldOptions } from './grid.ts';
import { coverNative, MEASURED, nativeSim, readHits, setNative, type Native, type NativeQuiet, type RideWasm } from './native.ts';
import { resourceFaces, resourceVertices, WALKABLE_MIN_NY, worldOf, writeFaces, type FaceArrays, type RideResource, type RideWorld } from './world.ts';
import { GRID_CHUNK, OP_COUNT_AFTER, OP_COVER, OP_FILL, OP_PLACE, PartPipe, PIPE_SLOTS } from './world-pipe.ts';


/**
 * How a WasmWorldBuilder writes the parts: here, one after the other (undefined); or through a queue of parts
 * (world-pipe.ts) that a worker thread writes while this one reads on ('worker'), or that this thread alone writes
 * ('here': the queue without the worker, for tests). The world is the same array for array.
 */
export type WorldPipeline = 'worker' | 'here' | undefined;

/** The ring of part slots a pipelined builder copies shapes into, bytes at first (grown for a part that needs more). */
export const PIPE_RING_BYTES = 4 << 20;

/** A part posted and not yet retired: its number in the queue, its ring bytes, where it came from, what it writes. */
interface Posted {
  c: number;
  start: number;
  end: number;
  runsAt: number;
  ri: number;
  pi: number;
  faces: number;
  vertices: number;
}

/** Faces (or vertices) a grid call takes. */
const CHUNK = GRID_CHUNK;
const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** The shape arrays the writer reads, as the codec gives them (anything else is written by writeFaces itself). */
function wasmShape(s: PhysicsResource['shapes'][number]): boolean {
  return s.vertices instanceof Float32Array && s.vertices.length % 3 === 0 && s.cornerVertices instanceof Uint16Array &&
    s.faceOffsets instanceof Uint16Array && s.flatBits instanceof Uint8Array && s.concaveBits instanceof Uint8Array &&
    s.edgeValues instanceof Float32Array && s.vertexCornerOffsets instanceof Uint16Array && s.cornerIdsByVertex instanceof Uint16Array;
}

/** A builder of the world in WebAssembly memory: add resources in order, then finish (WorldBuilder's contract, one thread). */
export class WasmWorldBuilder {
  private readonly w: RideWasm;
  private readonly base: number;
  private scratchCap = 0;
  private faceCap = 0;
  private vertCap = 0;
  private vertAt = 0;
  private cornerAt = 0;
  private allowAt = 0;
  private bitsAt = 0;
  private n = 0;
  private nv = 0;
  private readonly runs: number[] = [];
  private readonly names: string[] = [];
  /** Where finish laid the grid's vertex columns and rows, its per-cell scratch and the quiet map's marks. */
  private gridAt: { placeAt: number; atAt: number; afterAt: number; marksAt: number; ioAt: number; quietAt: number; loudAt: number; stateAt: number } | undefined;
  /** Where the ride being simulated puts its hits (rideHits). */
  private readonly hits: { out: Hit[] } = { out: [] };

  /** The queue of parts (pipelined builds), the parts in it, and the world's bounds so far (min x y z, max x y z). */
  private readonly pipe: PartPipe | undefined;
  private readonly posted: Posted[] = [];
  private readonly lo = [Infinity, Infinity, Infinity];
  private readonly hi = [-Infinity, -Infinity, -Infinity];
  /**
   * A pipelined build's coverage grid over the world grid's own cells, worked out on the writer thread once the grid
   * is built (while this thread goes on to the plan), into the grid's second-half scratch, read no more: the job and
   * where its areas lie.
   */
  private coverJob: { c: number; areaAt: number } | undefined;
  /** Whether finish has run. */
  private finished = false;

  /**
   * `faces` and `vertices`: the capacities to start with (an estimate: pages never written are never resident).
   * `pipeline`: how the parts are written (WorldPipeline); `ringBytes`: a pipelined builder's ring of part slots at
   * first (the default PIPE_RING_BYTES; tests make it small, so that parts wait for slots and the ring grows).
   */
  constructor(faces = 0, vertices = faces, pipeline?: WorldPipeline, ringBytes = PIPE_RING_BYTES) {
    const hits = this.hits;
    let hitsAt = 0;
    const imports = {
      convexAllowance: (value: number) => edgeAllowance(EDGE_CONVEX, value),
      rideAcos: Math.acos,
      rideHits: (count: number) => readHits(this.w.memory, hitsAt, count, hits.out),
    };
    if (pipeline) {
      const module = encoderSharedModule(), memory = sharedEncoderMemory();
      this.w = encoderInstance<RideWasm>('ride', imports, { module, memory });
      this.pipe = new PartPipe(this.w, module, memory, WALKABLE_MIN_NY, pipeline === 'worker');
    } else this.w = encoderInstance<RideWasm>('ride', imports);
    hitsAt = this.w.rideSimHits();
    this.base = align8(this.w.heapBase());
    this.w.rideWalkable(WALKABLE_MIN_NY);
    this.w.rideBegin();
    this.layout(pipeline ? ringBytes : 1 << 20, Math.max(0, Math.floor(faces)), Math.max(0, Math.floor(vertices)));
  }

  /** Lays the arrays out for these capacities (each at least its current), growing the memory and moving what is written. */
  private layout(scratch: number, faces: number, vertices: number): void {
    this.drain(); // the posted parts write where the arrays are now
    const scratchCap = align8(Math.max(scratch, this.scratchCap)), faceCap = Math.max(faces, this.faceCap), vertCap = Math.max(vertices, this.vertCap);
    const vertAt = this.base + scratchCap, cornerAt = vertAt + 24 * vertCap, allowAt = cornerAt + align8(12 * faceCap);
    const bitsAt = allowAt + align8(12 * faceCap), end = bitsAt + align8(2 * faceCap);
    this.reach(end);
    const u8 = new Uint8Array(this.w.memory.buffer);
    // Up, the highest array first: each lands at or above where it was, and above it only arrays already moved.
    if (this.n > 0 || this.nv > 0) {
      u8.copyWithin(bitsAt, this.bitsAt, this.bitsAt + 2 * this.n);
      u8.copyWithin(allowAt, this.allowAt, this.allowAt + 12 * this.n);
      u8.copyWithin(cornerAt, this.cornerAt, this.cornerAt + 12 * this.n);
      u8.copyWithin(vertAt, this.vertAt, this.vertAt + 24 * this.nv);
    }
    Object.assign(this, { scratchCap, faceCap, vertCap, vertAt, cornerAt, allowAt, bitsAt });
  }

  /** Views of the world's arrays at their capacities (valid until the memory next grows). */
  private arrays(): FaceArrays {
    const buf = this.w.memory.buffer;
    return {
      vert: new Float64Array(buf, this.vertAt, 3 * this.vertCap), corner: new Uint32Array(buf, this.cornerAt, 3 * this.faceCap),
      allow: new Float32Array(buf, this.allowAt, 3 * this.faceCap), faceBits: new Uint16Array(buf, this.bitsAt, this.faceCap),
    };
  }

  /** Appends the resource's triangle faces (non-triangle faces and non-mesh parts are skipped), as WorldBuilder.add. */
  add({ name, resource: r }: RideResource): void {
    const faces = this.n + resourceFaces(r), vertices = this.nv + resourceVertices(r);
    if (faces > this.faceCap || vertices > this.vertCap) {
      this.layout(0, faces > this.faceCap ? Math.max(faces, Math.ceil(this.faceCap * 1.5)) : 0, vertices > this.vertCap ? Math.max(vertices, Math.ceil(this.vertCap * 1.5)) : 0);
    }
    const ri = this.names.length, w = this.w;
    if (!r.shapes.every(wasmShape)) {
      // Arrays the codec does not give (a resource built in memory): writeFaces itself, into the same memory.
      this.drain();
      const lo = [0, 1, 2].map((k) => this.bound(k)), hi = [3, 4, 5].map((k) => this.bound(k));
      const at = writeFaces(r, ri, this.arrays(), { faces: this.n, vertices: this.nv }, lo, hi, this.runs);
      for (let k = 0; k < 3; k++) { this.setBound(k, lo[k]); this.setBound(3 + k, hi[k]); }
      this.n = at.faces;
      this.nv = at.vertices;
      this.names.push(name);
      return;
    }
    for (let pi = 0; pi < r.parts.length; pi++) {
      const p = r.parts[pi];
      if (p.kind !== KIND_MESH || p.shape >= r.shapes.length) continue;
      const s = r.shapes[p.shape];
      const cv = s.cornerVertices, corners = cv.length, nv = s.vertices.length / 3, nf = Math.max(0, s.faceOffsets.length - 1);
      const bitBytes = Math.max(s.flatBits.length, s.concaveBits.length, Math.ceil(corners / 8));
      // The part's scratch: its arrays (the bits zero-padded to its corners: a missing byte reads 0, as writeFaces'
      // undefined does), then the writer's next (u16 a corner), after (i32 a listed id) and runs (two u32 a face).
      const sizes = [12 * nv, 2 * corners, 2 * (nf + 1), bitBytes, bitBytes, 4 * s.edgeValues.length, 2 * s.vertexCornerOffsets.length,
        2 * s.cornerIdsByVertex.length, 2 * corners, 4 * s.cornerIdsByVertex.length, 8 * nf];
      const need = sizes.reduce((a, b) => a + align8(b), 0);
      if (need > this.scratchCap) this.layout(this.pipe ? Math.max(need, 2 * this.scratchCap) : need, 0, 0);
      const at: number[] = [];
      let o = this.pipe ? this.slot(need) : this.base;
      for (const b of sizes) { at.push(o); o += align8(b); }
      const buf = w.memory.buffer;
      new Float32Array(buf, at[0], 3 * nv).set(s.vertices);
      new Uint16Array(buf, at[1], corners).set(cv);
      new Uint16Array(buf, at[2], s.faceOffsets.length).set(s.faceOffsets);
      const flat = new Uint8Array(buf, at[3], bitBytes), concave = new Uint8Array(buf, at[4], bitBytes);
      flat.set(s.flatBits); flat.fill(0, s.flatBits.length);
      concave.set(s.concaveBits); concave.fill(0, s.concaveBits.length);
      new Float32Array(buf, at[5], s.edgeValues.length).set(s.edgeValues);
      new Uint16Array(buf, at[6], s.vertexCornerOffsets.length).set(s.vertexCornerOffsets);
      new Uint16Array(buf, at[7], s.cornerIdsByVertex.length).set(s.cornerIdsByVertex);
      const q = p.rotation, pos = p.position;
      if (this.pipe) {
        // Where its faces and vertices go, worked out here (the writer's own count), and the part posted.
        const faces = w.ridePartCount(at[1], corners, at[2], nf, nv), vertices = nv + w.ridePartOrigin();
        const c = this.pipe.post([
          at[0], nv, at[1], corners, at[2], nf, at[3], at[4], s.flatBits.length > 0 && s.concaveBits.length > 0 ? 1 : 0,
          at[5], s.edgeValues.length === corners ? 1 : 0, at[6], at[7], s.cornerIdsByVertex.length, s.vertexCornerOffsets.length === nv + 1 ? 1 : 0,
          this.vertAt, this.cornerAt, this.allowAt, this.bitsAt, this.n, this.nv, at[8], at[9], at[10],
          q[0], q[1], q[2], q[3], pos[0], pos[1], pos[2],
        ]);
        this.n += faces;
        this.nv += vertices;
        this.posted.push({ c, start: at[0], end: o, runsAt: at[10], ri, pi, faces: this.n, vertices: this.nv });
        if (this.posted.length === PIPE_SLOTS) this.retire();
        continue;
      }
      w.rideTransform(q[0], q[1], q[2], q[3], pos[0], pos[1], pos[2]);
      w.rideWritePart(
        at[0], nv, at[1], corners, at[2], nf, at[3], at[4], s.flatBits.length > 0 && s.concaveBits.length > 0 ? 1 : 0,
        at[5], s.edgeValues.length === corners ? 1 : 0, at[6], at[7], s.cornerIdsByVertex.length, s.vertexCornerOffsets.length === nv + 1 ? 1 : 0,
        this.vertAt, this.cornerAt, this.allowAt, this.bitsAt, this.n, this.nv, at[8], at[9], at[10],
      );
      const runs = w.rideResult(2);
      if (runs > 0) {
        const R = new Uint32Array(w.memory.buffer, at[10], 2 * runs);
        for (let k = 0; k < runs; k++) this.runs.push(R[2 * k], ri, pi, R[2 * k + 1]);
      }
      this.n = w.rideResult(0);
      this.nv = w.rideResult(1);
    }
    this.names.push(name);
  }

  /**
   * Ring bytes for a part of `need` bytes (at most the ring's): after the newest posted part, or from the ring's start,
   * wherever the oldest still posted does not lie; the oldest are retired (waited for) until it fits.
   */
  private slot(need: number): number {
    const ring = this.base, end = this.base + this.scratchCap;
    for (;;) {
      const posted = this.posted;
      if (posted.length === 0) return ring;
      const oldest = posted[0].start, head = posted[posted.length - 1].end;
      if (head > oldest) {
        if (head + need <= end) return head;
        if (ring + need <= oldest) return ring;
      } else if (head + need <= oldest) return head;
      this.retire();
    }
  }

  /**
   * Retires the oldest posted part once written: its runs into the world's, its bounds into the world's (in part order,
   * with the writer's comparisons: the first of equal values kept, as one writer widening corner by corner keeps it).
   */
  private retire(): void {
    const e = this.posted.shift()!, pipe = this.pipe!;
    pipe.wait(e.c);
    if (pipe.result(e.c, 0) !== e.faces || pipe.result(e.c, 1) !== e.vertices) {
      throw new Error(`ride: part ${e.pi} of resource ${e.ri} wrote ${pipe.result(e.c, 0)} faces and ${pipe.result(e.c, 1)} vertices, not the ${e.faces} and ${e.vertices} counted`);
    }
    const runs = pipe.result(e.c, 2);
    if (runs > 0) {
      const R = new Uint32Array(this.w.memory.buffer, e.runsAt, 2 * runs);
      for (let k = 0; k < runs; k++) this.runs.push(R[2 * k], e.ri, e.pi, R[2 * k + 1]);
    }
    for (let k = 0; k < 3; k++) {
      const a = pipe.result(e.c, 3 + k), b = pipe.result(e.c, 6 + k);
      if (a < this.lo[k]) this.lo[k] = a;
      if (b > this.hi[k]) this.hi[k] = b;
    }
  }

  /** Retires every posted part. */
  private drain(): void {
    while (this.posted.length) this.retire();
  }

  /** Bound k (rideBound's numbering) of the faces written so far. */
  private bound(k: number): number {
    if (!this.pipe) return this.w.rideBound(k);
    return k < 3 ? this.lo[k] : this.hi[k - 3];
  }

  private setBound(k: number, v: number): void {
    if (!this.pipe) this.w.rideSetBound(k, v);
    else if (k < 3) this.lo[k] = v;
    else this.hi[k - 3] = v;
  }

  /** Stops the writer thread of a pipelined build that will not be finished (a file refused half way); finish does it too. */
  close(): void {
    // A finished build's thread stops by itself once its last job is done (finish closed the queue); a build given up
    // stops it at once.
    if (!this.finished) this.pipe?.close(true);
  }

  /** Grows the memory to at least `end` bytes (a thread's linear memory holds 4 GiB at most: past it, said so). */
  private reach(end: number): void {
    const have = this.w.memory.buffer.byteLength;
    if (end <= have) return;
    try {
      this.w.memory.grow(Math.ceil((end - have) / WASM_PAGE));
    } catch (e) {
      throw new Error(`ride: the world's arrays and grid need ${Math.ceil(end / 2 ** 20).toLocaleString('en-US')} MiB of WebAssembly memory, more than a thread has (4 GiB): ride fewer files at a time (${(e as Error).message})`);
    }
  }

  /**
   * The world of the faces added, with its grid (buildGrid's, built here in the same memory, after the world's
   * arrays): its arrays view this builder's memory, which grows no more (nothing is added after).
   */
  finish(options: Partial<WorldOptions> = {}): RideWorld {
    this.drain();
    const w = this.w, n = this.n, nv = this.nv, pipe = this.pipe;
    const lo = [0, 1, 2].map((k) => this.bound(k)), hi = [3, 4, 5].map((k) => this.bound(k));
    forgetLeft();
    let grid: ((world: RideWorld) => Grid) | undefined;
    if (n > 0) {
      const g = gridCells({ faces: n, min: [lo[0], lo[1], lo[2]], max: [hi[0], hi[1], hi[2]] }, { ...WORLD_DEFAULTS, ...options });
      const cells = g.nx * g.nz;
      // After the world's arrays: each vertex's column and row (two i32), per cell two u32 (its last face + 1 and
      // its bytes, then where its next goes), the cells' starts (u32, cells + 1), then the cells' bytes. A pipelined
      // build counts and fills the faces after the middle on the writer thread, with per cell two u32 and one more
      // (the second half's first face) of its own, after the first half's.
      const placeAt = this.bitsAt + align8(2 * this.faceCap), atAt = placeAt + align8(8 * nv);
      const afterAt = atAt + 8 * cells, firstAt = afterAt + 8 * cells, startAt = pipe ? firstAt + align8(4 * cells) : afterAt;
      const itemsAt = startAt + align8(4 * (cells + 1));
      this.reach(itemsAt);
      // The first half's cells and the starts zeroed (fresh pages, faulted in here: a pipelined build does it while the
      // writer thread zeroes its own half's, so that neither waits for the other's faults).
      const zero = (): void => {
        new Uint8Array(w.memory.buffer, atAt, 8 * cells).fill(0);
        new Uint8Array(w.memory.buffer, startAt, itemsAt - startAt).fill(0);
      };
      if (!pipe) zero();
      let bytes: number;
      // A chunk a call: a function runs a call through in the code it started with (wasm has no on-stack
      // replacement), so the later chunks run the optimized code V8 compiles once the first ones made it hot.
      const place = (from: number, to: number): void => {
        for (let v = from; v < to; v += CHUNK) w.rideGridPlace(this.vertAt, v, Math.min(to, v + CHUNK), g.x0, g.z0, g.cell, g.nx, g.nz, placeAt);
      };
      const count = (from: number, to: number): void => {
        for (let t = from; t < to; t += CHUNK) w.rideGridCount(this.cornerAt, t, Math.min(to, t + CHUNK), placeAt, atAt, g.nx);
      };
      const fill = (from: number, to: number): void => {
        for (let t = from; t < to; t += CHUNK) w.rideGridFill(this.cornerAt, t, Math.min(to, t + CHUNK), placeAt, atAt, itemsAt, g.nx);
      };
      if (pipe) {
        // Each pass halved: the writer thread takes the second half of the vertices or faces while this one does the
        // first (a half the writer thread has not begun is done here: the same bytes either way).
        const h = Math.floor(n / 2), hv = Math.floor(nv / 2);
        const placed = pipe.postJob(OP_PLACE, [this.vertAt, hv, nv, g.x0, g.z0, g.cell, g.nx, g.nz, placeAt]);
        place(0, hv);
        pipe.wait(placed);
        const counted = pipe.postJob(OP_COUNT_AFTER, [this.cornerAt, h, n, placeAt, afterAt, g.nx, firstAt, cells]);
        zero();
        count(0, h);
        pipe.wait(counted);
        bytes = w.rideGridStartsSplit(atAt, afterAt, firstAt, cells, startAt) >>> 0;
        this.reach(itemsAt + bytes);
        const filled = pipe.postJob(OP_FILL, [this.cornerAt, h, n, placeAt, afterAt, itemsAt, g.nx]);
        fill(0, h);
        pipe.wait(filled);
      } else {
        place(0, nv);
        count(0, n);
        bytes = w.rideGridStarts(atAt, cells, startAt) >>> 0;
        this.reach(itemsAt + bytes);
        fill(0, n);
      }
      // The quiet map's folds (assembly/ride-fold.ts) read the world and grid here, with a u16 stamp a face after them;
      // then its marks, a bit a grid cell.
      const seenAt = align8(itemsAt + bytes), marksAt = seenAt + align8(2 * n), words = (cells + 31) >>> 5;
      // Then the surface look-up's answers; the quiet map's box (4 f64), loud bits (as the marks), face states (2 bits
      // a face) and the region its table of folds across grows in (assembly/ride-quiet.ts: at most one a convex
      // corner; pages never written are never resident).
      const ioAt = marksAt + align8(4 * words), quietAt = ioAt + 16, loudAt = quietAt + 32, stateAt = loudAt + align8(4 * words);
      const tableAt = stateAt + align8((n + 3) >>> 2), tableEnd = tableAt + 32 * w.rideQuietTableSlots(w.rideQuietConvex(this.bitsAt, n));
      this.reach(tableEnd);
      w.rideSurfaceIO(ioAt);
      w.rideFoldWorld(this.vertAt, this.cornerAt, this.bitsAt, n, startAt, itemsAt, g.x0, g.z0, g.cell, g.nx, g.nz, seenAt);
      w.rideSimWorld(this.vertAt, this.cornerAt, this.allowAt, n, startAt, itemsAt, g.x0, g.z0, g.cell, g.nx, g.nz);
      w.rideQuietWorld(this.vertAt, this.cornerAt, this.allowAt, this.bitsAt, n, startAt, itemsAt, g.x0, g.z0, g.cell, g.nx, g.nz, quietAt, tableAt, tableEnd, ioAt);
      this.gridAt = { placeAt, atAt, afterAt, marksAt, ioAt, quietAt, loudAt, stateAt };
      grid = (world) => {
        const buf = w.memory.buffer;
        leaveForCover(g, world.vert, new Int32Array(buf, placeAt, 2 * nv), new Uint8Array(buf, atAt, 8 * cells));
        return { ...g, start: new Uint32Array(buf, startAt, cells + 1), items: new Uint8Array(buf, itemsAt, bytes) };
      };
    }
    const world = worldOf(this.arrays(), n, nv, this.runs, this.names, lo, hi, options, false, grid);
    if (pipe && n > 0) {
      // The coverage grid's pass over the grid's own cells (the ride's plan asks for it after the seams), on the writer
      // thread while this one goes on, into the grid's second-half scratch (read no more); the thread then stops.
      const { placeAt, afterAt } = this.gridAt!, g = world.grid;
      this.coverJob = { c: pipe.postJob(OP_COVER, [this.vertAt, 0, n, this.cornerAt, this.bitsAt, placeAt, afterAt, g.nx, g.nx * g.nz]), areaAt: afterAt };
      pipe.close();
    } else this.close();
    this.finished = true;
    if (n > 0) {
      const g = world.grid, cells = g.nx * g.nz, words = (cells + 31) >>> 5, { placeAt, atAt, marksAt, ioAt, quietAt, loudAt, stateAt } = this.gridAt!;
      const native: Native = {
        surface: { at: w.rideSurface, io: new Float64Array(w.memory.buffer, ioAt, 2) },
        sim: nativeSim(w, this.hits),
        fold: (t, k, across) => {
          if (w.rideFold(t, k) === 0) return -1;
          across[0] = w.rideFoldCorner();
          return Math.acos(Math.max(-1, Math.min(1, w.rideFoldDot())));
        },
        marks: () => {
          let count = 0;
          for (let t = 0; t < n; t += CHUNK) count += w.rideMarkCells(this.vertAt, this.cornerAt, this.bitsAt, t, Math.min(n, t + CHUNK), marksAt, g.x0, g.z0, g.cell, g.nx, g.nz);
          const quiet = (slack: number): NativeQuiet => {
            new Uint8Array(w.memory.buffer, loudAt, stateAt + ((n + 3) >>> 2) - loudAt).fill(0);
            w.rideQuietBegin(marksAt, loudAt, stateAt, count, slack);
            native.start = { io: new Float64Array(w.memory.buffer, w.rideStartIO(), 19), at: w.rideStart, bound: w.rideStartBound };
            return { box: new Float64Array(w.memory.buffer, quietAt, 4), quietInBox: w.rideQuietBox, isLoud: w.rideIsLoud, crestFold: w.rideCrestFold };
          };
          return { pending: new Int32Array(w.memory.buffer, marksAt, words), count, quiet };
        },
        // The coverage grid's areas where the world grid's per-cell scratch holds them (8 bytes a cell), its vertices'
        // columns and rows the grid's own where the cells are the same, else worked out again in their place.
        cover: (x0, z0, cell, nx, nz) => {
          if (nx * nz > cells) return undefined;
          forgetLeft(); // the grid's leftovers are this memory: a later coverage grid in JavaScript must not take them
          const own = Object.is(x0, g.x0) && Object.is(z0, g.z0) && Object.is(cell, g.cell) && nx === g.nx && nz === g.nz;
          // The writer thread's pass (a pipelined build): waited for (done here if that thread has not begun it); over
          // these cells, its areas and total; else it has stopped reading the grid's vertex columns, which go below.
          const job = this.coverJob;
          this.coverJob = undefined;
          if (job) {
            this.pipe!.wait(job.c);
            if (own) {
              const free = 8 * nv > this.scratchCap ? [placeAt, align8(8 * nv)] : [this.base, this.scratchCap];
              const area = new Float64Array(w.memory.buffer, job.areaAt, nx * nz);
              return { area, total: this.pipe!.result(job.c, 0), ...coverNative(w, job.areaAt, cell, nx, nz, free[0], free[1]) };
            }
          }
          if (!own) {
            for (let v = 0; v < nv; v += CHUNK) w.rideGridPlace(this.vertAt, v, Math.min(nv, v + CHUNK), x0, z0, cell, nx, nz, placeAt);
          }
          const area = new Float64Array(w.memory.buffer, atAt, nx * nz).fill(0);
          let total = 0;
          for (let t = 0; t < n; t += CHUNK) total = w.rideCover(this.vertAt, this.cornerAt, this.bitsAt, t, Math.min(n, t + CHUNK), placeAt, atAt, nx, total);
          // After it, the grid's vertex columns and rows are read no more; nor, once the world is finished, the
          // parts' scratch: the plan's passes take the larger.
          const free = 8 * nv > this.scratchCap ? [placeAt, align8(8 * nv)] : [this.base, this.scratchCap];
          return { area, total, ...coverNative(w, atAt, cell, nx, nz, free[0], free[1]) };
        },
        // The seam edges' corners, keys, lengths, table and edges (where they do not fit: seamEdgesOf).
        seams: () => {
          // The corners first, as many as the memory holds at 80 bytes a corner (4 the corner, 48 its keys, 8 its
          // length, 4 the edge, at most 16 of table), then the rest laid out after them; in the grid's per-cell
          // scratch or the parts' scratch (the world is finished), the larger.
          forgetLeft(); // as the coverage grid's pass: a coverage grid in JavaScript must not take this memory
          const [cornersAt, bytes] = 8 * cells > this.scratchCap ? [atAt, 8 * cells] : [this.base, this.scratchCap];
          const end = cornersAt + bytes, cap = Math.floor(bytes / 80);
          let count = 0;
          for (let t = 0; t < n && count >= 0; t += CHUNK) count = w.rideSeamCorners(this.bitsAt, t, Math.min(n, t + CHUNK), cornersAt, count, cap);
          if (count < 0) return undefined;
          let size = 1;
          while (size < 2 * count) size *= 2;
          const keysAt = cornersAt + align8(4 * count), lensAt = keysAt + 48 * count, tableAt = lensAt + 8 * count, edgesAt = tableAt + 4 * size;
          if (edgesAt + 4 * count > end) return undefined;
          for (let m = 0; m < count; m += CHUNK) w.rideSeamKeys(this.vertAt, this.cornerAt, cornersAt, m, Math.min(count, m + CHUNK), keysAt, lensAt);
          new Uint32Array(w.memory.buffer, tableAt, size).fill(0);
          w.rideSeamBegin();
          let kept = 0;
          for (let m = 0; m < count; m += CHUNK) kept = w.rideSeamEdges(cornersAt, m, Math.min(count, m + CHUNK), keysAt, lensAt, tableAt, size, edgesAt);
          return { edges: new Uint32Array(w.memory.buffer, edgesAt, kept).slice(), total: w.rideSeamTotal() };
        },
      };
      // The measuring's edges and numbers, a chunk at a time, where the seam edges' pass works.
      const [measureAt, bytes] = 8 * cells > this.scratchCap ? [atAt, 8 * cells] : [this.base, this.scratchCap];
      const chunk = Math.min(4096, Math.floor(bytes / (4 + 8 * MEASURED)) - 1);
      if (chunk > 0) {
        w.ridePlanWorld(this.vertAt, this.cornerAt, this.bitsAt, g.start.byteOffset, g.items.byteOffset, g.x0, g.z0, g.cell, g.nx, g.nz, ioAt);
        const outAt = measureAt + align8(4 * chunk);
        native.measure = {
          chunk,
          at: (edges, from, to, across, nearReach, gapDrop, gapStep, gapMax) => {
            forgetLeft(); // as the coverage grid's pass: a coverage grid in JavaScript must not take this memory
            new Uint32Array(w.memory.buffer, measureAt, to - from).set(edges.subarray(from, to));
            w.rideMeasure(measureAt, 0, to - from, across, nearReach, gapDrop, gapStep, gapMax, outAt);
            return new Float64Array(w.memory.buffer, outAt, MEASURED * (to - from));
          },
        };
      }
      setNative(world, native);
    }
    return world;
  }
}
