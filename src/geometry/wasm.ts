// The encoder's WebAssembly module (source: assembly/, AssemblyScript; compiled at `npm install` by
// scripts/build-wasm.mjs into wasm.generated.ts): instantiated once per thread on first use, with a bump layout of
// its linear memory for one call at a time. The callers (encode.ts, tree-wasm.ts) lay out their arrays from the
// heap base, copy in, call, copy out; nothing stays live between calls, so the memory is reused and only grows.
// piece() also takes memory past its caller's region itself (assembly/piece.ts), so views are made after a call.
// A linear memory cannot shrink: a memory grown past RETAIN_BYTES is dropped with its instance (the compiled module
// stays) after the call, or, after a whole-mesh encode (encodeMeshShapes), once no call has used it for
// LARGE_IDLE_MS, so that big meshes encoded one after another reuse it instead of faulting in fresh pages each time.

import { WASM_BASE64, WASM_SHARED_BASE64, WASM_SHARED_PAGES } from './wasm.generated.ts';
import { convexValue } from './edge-rule.ts';

export interface EncoderWasm {
  memory: WebAssembly.Memory;
  heapBase(): number;
  build(n: number, v: number, fv: number, box: number, ord: number, tb: number, bx: number, leaves: number, stack: number, nodes: number, leaf: number): number;
  orderScratchBytes(n: number): number;
  weld(nv: number, nt: number, bits: number, indices: number, outBits: number, remap: number, tris: number, source: number, arena: number): void;
  weldResult(k: number): number;
  split(n: number, pos: number, tris: number, maxFaces: number, spatial: number, ids: number, ends: number, arena: number): number;
  matchBegin(n: number, points: number, codes: number, arena: number, flatCos: number): void;
  matchInsert(from: number, to: number): void;
  matchPair(from: number, to: number, points: number, codes: number): void;
  matchResult(k: number): number;
  piece(pos: number, tris: number, local: number, subset: number, n: number, arena: number, flatCos: number, exportOpen: number): number;
  topology(nt: number, tris: number, nv: number, arena: number, cap: number): void;
  topologyOut(k: number): number;
  topologyResult(k: number): number;
  groupExtent(pos: number, indices: number, from: number, to: number): void;
  extentResult(k: number): number;
  cracksBegin(np: number, px: number, py: number, pz: number, pMesh: number, pEdge: number, size: number, tol: number, cosMax: number, join: number, meshes: number, arena: number): number;
  cracksEdges(from: number, to: number): void;
  cracksFaces(mi: number, pos: number, nv: number, idx: number, nt: number, limit: number): number;
}

let MODULE: WebAssembly.Module | null = null;
let SHARED_MODULE: WebAssembly.Module | null = null;
let EXPORTS: EncoderWasm | null = null;

/** The compiled module (compiled synchronously on first use, once a thread: a few ms), for instances of their own. */
export function encoderModule(): WebAssembly.Module {
  MODULE ??= new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'));
  return MODULE;
}

/**
 * The same module over an imported shared memory (scripts/build-wasm.mjs): instances on two threads over one memory.
 * A WebAssembly.Module posted to a worker brings its compiled code along.
 */
export function encoderSharedModule(): WebAssembly.Module {
  SHARED_MODULE ??= new WebAssembly.Module(Buffer.from(WASM_SHARED_BASE64, 'base64'));
  return SHARED_MODULE;
}

/**
 * A shared memory for encoderInstance's `shared`: `pages` to start with (at least the module's static data's),
 * growable to 4 GiB (a thread's limit).
 */
export function sharedEncoderMemory(pages = WASM_SHARED_PAGES): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: Math.max(pages, WASM_SHARED_PAGES), maximum: 65536, shared: true });
}

/** What the module imports (assembly/'s @external("env", …) functions and AssemblyScript's abort). */
export interface EncoderImports {
  abort: () => never;
  /** assembly/edges.ts: a convex edge value's rare slow path. */
  convexValue: (d: number) => number;
  /** assembly/cracks.ts: the crack pass's rare parallel test. */
  hypot3: (x: number, y: number, z: number) => number;
  /** assembly/ride-world.ts: a convex edge's allowance (src/ride/world-wasm.ts). */
  convexAllowance: (value: number) => number;
  /** assembly/ride-sim.ts and ride-quiet.ts: Math.acos itself (the contact model's, the quiet map's fold; src/ride/world-wasm.ts). */
  rideAcos: (x: number) => number;
  /** assembly/ride-sim.ts: a ride's hits ready to be read (src/ride/world-wasm.ts). */
  rideHits: (count: number) => void;
}

/**
 * An instance of the encoder module with a linear memory of its own, for the calls of one user (`who` names it in
 * messages): the imports its calls reach as given; any other refuses, so an import the module gains is provided by
 * the one user whose functions call it. With `shared`, an instance of the shared-memory module over that memory.
 */
export function encoderInstance<T>(who: string, imports: Partial<Omit<EncoderImports, 'abort'>> = {}, shared?: { module: WebAssembly.Module; memory: WebAssembly.Memory }): T {
  const refuse = (name: string) => (): never => { throw new Error(`${who}: wasm import ${name} is not one of its calls`); };
  const env: EncoderImports = {
    abort: (): never => { throw new Error(`${who}: wasm abort`); },
    convexValue: imports.convexValue ?? refuse('convexValue'),
    hypot3: imports.hypot3 ?? refuse('hypot3'),
    convexAllowance: imports.convexAllowance ?? refuse('convexAllowance'),
    rideAcos: imports.rideAcos ?? refuse('rideAcos'),
    rideHits: imports.rideHits ?? refuse('rideHits'),
  };
  // A plain record, as Imports types it. `shared`: the shared-memory module (encoderSharedModule, or the same posted to
  // a worker) over its memory.
  if (shared) return new WebAssembly.Instance(shared.module, { env: { ...env, memory: shared.memory } }).exports as unknown as T;
  return new WebAssembly.Instance(encoderModule(), { env: { ...env } }).exports as unknown as T;
}

/** The module's exports (~25 KB of wasm, compiled synchronously on first use: a few ms; instantiating: less). */
export function encoderWasm(): EncoderWasm {
  EXPORTS ??= encoderInstance<EncoderWasm>('encoder', {
    convexValue, // the rare slow path of a convex edge value: JavaScript's own cos and acos, so bytes cannot drift
    hypot3: (x: number, y: number, z: number): number => Math.hypot(x, y, z), // the crack pass's rare parallel test (assembly/cracks.ts)
  });
  return EXPORTS;
}

/**
 * Memory kept between calls (bytes): enough for every mesh up to a few hundred thousand triangles (a 21,845-face
 * shape needs ~10 MB, an 80k mesh's weld and split ~12 MB), so the level compile's cells and objects reuse it.
 */
export const RETAIN_BYTES = 64 * 2 ** 20;

/**
 * How long a memory grown past RETAIN_BYTES is kept after a whole-mesh encode that used it (ms): long enough for
 * the caller's next big mesh to reuse it (between calls there is only copying out: tens of ms), short enough that
 * an idle process lets it go soon. A 4M-triangle terrain's encode needs ~290 MB; faulting that in afresh (a 4 KB
 * page ~2 µs on a VM) cost it ~1,350 against ~1,100 ms reusing it (docs/performance.md). The timer does not keep
 * the process alive. The compile does not keep it (src/tiling/build.ts buildResource lets it go at once).
 */
export const LARGE_IDLE_MS = 1_000;

let idle: ReturnType<typeof setTimeout> | undefined;

/** After a keeping call (its results copied out): a memory grown past RETAIN_BYTES is dropped once idle for LARGE_IDLE_MS. */
function keepWhileBusy(): void {
  if (idle !== undefined) clearTimeout(idle);
  idle = undefined;
  const w = EXPORTS;
  if (!w || w.memory.buffer.byteLength <= RETAIN_BYTES) return;
  idle = setTimeout(() => {
    idle = undefined;
    if (EXPORTS === w) EXPORTS = null;
  }, LARGE_IDLE_MS);
  (idle as { unref?: () => void }).unref?.();
}

/**
 * Lets this thread's memory grown past RETAIN_BYTES go now: what every call does afterwards unless it keeps the
 * memory (`keep`), and what a caller of a keeping call does when no big mesh follows and it has other memory to use
 * (the compile, before a resource's bytes are written: there a kept memory would sit beside the next stage's).
 */
export function releaseEncoderMemory(): void {
  if (idle !== undefined) clearTimeout(idle);
  idle = undefined;
  if (EXPORTS && EXPORTS.memory.buffer.byteLength > RETAIN_BYTES) EXPORTS = null;
}

/**
 * Runs one encoder call (`what` names it for messages, e.g. "encode: 1,000,000 triangles"): afterwards a memory
 * grown past RETAIN_BYTES is let go, at once or with `keep` once idle for LARGE_IDLE_MS, and after a failure the
 * instance is replaced. Running out of linear memory (4 GiB at most for wasm32, or less if the process cannot map
 * it) becomes a plain error saying so, instead of "unreachable" (a trap in assembly/arena.ts) or a RangeError from
 * Memory.grow.
 */
export function withEncoder<T>(what: string, fn: () => T, keep = false): T {
  try {
    const out = fn();
    if (keep) keepWhileBusy();
    else releaseEncoderMemory();
    return out;
  } catch (e) {
    EXPORTS = null;
    throw wasmError(e, what);
  }
}

/** The error to report for `e` thrown by an encoder call: out-of-memory traps reworded, anything else as it is. */
export function wasmError(e: unknown, what: string): unknown {
  const oom = e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /memory/i.test(e.message));
  return oom ? new Error(`${what}: out of WebAssembly memory (a thread's encoder holds 4 GiB at most): split the mesh (${(e as Error).message})`) : e;
}

/** A WebAssembly memory page, bytes. */
export const WASM_PAGE = 65_536;

/** One call's layout: `take(bytes)` hands out 8-byte aligned offsets from the heap base; `commit()` grows memory. */
export class WasmLayout {
  private at: number;
  constructor(readonly w: EncoderWasm) {
    this.at = (w.heapBase() + 7) & ~7;
  }

  take(bytes: number): number {
    const p = this.at;
    this.at = (this.at + bytes + 7) & ~7;
    return p;
  }

  /** Where the memory taken so far ends: a call's arena (its own tables) starts here. */
  end(): number {
    return this.at;
  }

  /** Grows the memory to hold everything taken; returns the (possibly new) buffer. */
  commit(): ArrayBuffer {
    const have = this.w.memory.buffer.byteLength;
    if (this.at > have) this.w.memory.grow(Math.ceil((this.at - have) / WASM_PAGE));
    return this.w.memory.buffer;
  }
}
