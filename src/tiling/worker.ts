// Worker thread (src/tiling/pool.ts): encodes batches of resource jobs (bytes transferred back), single pieces of
// a large mesh (src/tiling/mesh-threads.ts; shape arrays transferred back), mesh validation reports and the cell
// runs of small objects during the import. Every request carries an id; the reply carries it back with a result
// or an error.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { classifyCracks, validateMesh, type MeshReport } from '../import/validate.ts';
import { cellRuns } from './cells.ts';
import { buildResource, resourceBuffers, writeResource, type EncodeOptions, type ResourceJob } from './build.ts';
import type { ValidateItem } from './pool.ts';
import { ValidationMemo, type MemoItem } from '../import/validate-memo.ts';
import { StoredValidation } from '../import/validate-store.ts';
import { pieceReply } from './mesh-threads.ts';
import { patchUnit, type PatchItem, type PatchResult } from './seams.ts';
import type { PieceInput } from '../geometry/pieces.ts';

type Request =
  | { id: number; kind: 'encode'; batch: { index: number; job: ResourceJob }[]; encode?: EncodeOptions; writeDir?: string; sha256?: boolean }
  | { id: number; kind: 'validate'; items: ValidateItem[] | MemoItem[] }
  | { id: number; kind: 'cracks'; keys?: number[]; names?: string[] }
  | { id: number; kind: 'reset'; session?: string }
  | { id: number; kind: 'restore'; stored?: Uint8Array; code: string }
  | { id: number; kind: 'stored' }
  | { id: number; kind: 'cellRuns'; items: ValidateItem[]; cellSize: number }
  | { id: number; kind: 'piece'; input: PieceInput }
  | { id: number; kind: 'patch'; items: PatchItem[]; pack?: string };

/**
 * Objects validated since the last 'cracks' request, with their reports (open-edge lists kept here, not sent):
 * 'cracks' splits their open edges into borders and cracks over all of them and answers with the counts.
 */
let validated: { item: ValidateItem; report: MeshReport }[] = [];

/** A session's memo (src/import/validate-memo.ts), named by the token of the 'reset' that started its build. */
let memo: ValidationMemo | undefined;
let memoToken: string | undefined;

/** Outside a session, with the cache on ('restore'): src/import/validate-store.ts. */
let stored: StoredValidation | undefined;

/**
 * Worker heap in use (bytes) past which the end of a crack pass collects garbage at once: 128 MiB. Until the pass,
 * this thread holds every object's validation report and open edges (~1.3 KB an object: ~350 MB for the 64M
 * bench level's 262,464 objects); after it they are garbage, and nothing this thread allocates while it encodes
 * makes V8 collect them before the build ends: held beside the encoding, they took the 64M build's peak from
 * 1,824 to 2,113–2,140 MiB. Below it (the 1M level's ~50 MB) V8's own schedule is left alone.
 */
const COLLECT_AFTER_PASS_BYTES = 128 * 2 ** 20;

let collect: (() => void) | undefined;

/**
 * A full collection when the heap is past COLLECT_AFTER_PASS_BYTES (V8's gc, exposed for this; as Jest does). Only
 * ever an economy: where V8 will not expose it, nothing is collected and nothing fails.
 */
function collectAfterPass(): void {
  if (getHeapStatistics().used_heap_size < COLLECT_AFTER_PASS_BYTES) return;
  try {
    if (!collect) {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    }
    collect();
  } catch {
    collect = () => {};
  }
}

/**
 * Requests other than 'cellRuns', in arrival order, handled one a turn of the event loop. The plan on the main
 * thread takes the small objects' cell runs that are back when it starts; behind each batch's validation they came
 * back too late for most of them (the 1M bench level: runs for 9 of 18 batches back before the plan, the last
 * ~90 ms after it, with the worker up ~75 ms after the import began). Between two queued requests, the messages
 * that have come in meanwhile are taken in, and cell runs among them answered at once (their order among
 * themselves and the others' order are kept; nothing else depends on when a cell run is answered).
 */
const queued: Request[] = [];

function runQueued(): void {
  handle(queued.shift()!);
  // A setImmediate queued while immediates run waits for the next turn, after its poll phase (new messages).
  if (queued.length) setImmediate(runQueued);
}

parentPort!.on('message', (msg: Request) => {
  if (msg.kind === 'cellRuns') return handle(msg);
  if (queued.push(msg) === 1) setImmediate(runQueued);
});

function handle(msg: Request): void {
  try {
    if (msg.kind === 'patch') {
      parentPort!.postMessage({ id: msg.id, result: patchUnit(msg.items, msg.pack) });
      return;
    }
    if (msg.kind === 'piece') {
      const { result, transfer } = pieceReply(msg.input);
      parentPort!.postMessage({ id: msg.id, result }, transfer);
      return;
    }
    if (msg.kind === 'cellRuns') {
      const result = msg.items.map((it) => it.groups.map((g) => cellRuns(it.positions, g, msg.cellSize)));
      parentPort!.postMessage({ id: msg.id, result }, result.flat().map((r) => r.buffer as ArrayBuffer));
      return;
    }
    if (msg.kind === 'validate' && memo) {
      parentPort!.postMessage({ id: msg.id, result: (msg.items as MemoItem[]).map((it) => memo!.validate(it)) });
      return;
    }
    if (msg.kind === 'validate' && stored && stored.count + msg.items.length > stored.limit) {
      validated = stored.plain(); // too many objects to keep: on as without a stored pass
      stored = undefined;
    }
    if (msg.kind === 'validate' && stored) {
      parentPort!.postMessage({ id: msg.id, result: stored.validate(msg.items as ValidateItem[]) });
      return;
    }
    if (msg.kind === 'restore') {
      stored = new StoredValidation(msg.stored, msg.code);
      validated = [];
      parentPort!.postMessage({ id: msg.id, result: null });
      return;
    }
    if (msg.kind === 'stored') {
      const bytes = stored?.encode();
      parentPort!.postMessage({ id: msg.id, result: bytes ?? null }, bytes ? [bytes.buffer as ArrayBuffer] : []);
      return;
    }
    if (msg.kind === 'validate') {
      const items = msg.items as ValidateItem[];
      const reports = items.map((it) => validateMesh(it.positions, it.groups));
      items.forEach((item, i) => validated.push({ item, report: reports[i] }));
      parentPort!.postMessage({ id: msg.id, result: reports.map(({ open: _, ...r }) => r) });
      return;
    }
    if (msg.kind === 'reset') {
      // A new build on a worker kept across builds (--watch): what an earlier, perhaps failed, build validated here
      // must not reach this build's crack pass.
      validated = [];
      stored = undefined;
      if (msg.session !== memoToken) {
        memoToken = msg.session;
        memo = msg.session === undefined ? undefined : new ValidationMemo();
      }
      parentPort!.postMessage({ id: msg.id, result: null });
      return;
    }
    if (msg.kind === 'cracks' && memo) {
      parentPort!.postMessage({ id: msg.id, result: memo.cracks(msg.keys ?? [], msg.names ?? []) });
      return;
    }
    if (msg.kind === 'cracks' && stored) {
      parentPort!.postMessage({ id: msg.id, result: stored.cracks() });
      setImmediate(collectAfterPass); // once this handler's own references are gone
      return;
    }
    if (msg.kind === 'cracks') {
      const objs = validated.map(({ item, report }) => ({ name: item.name ?? '', positions: item.positions, groups: item.groups, report }));
      validated = [];
      parentPort!.postMessage({ id: msg.id, result: classifyCracks(objs) });
      setImmediate(collectAfterPass); // once this handler's own references (objs) are gone
      return;
    }
    const result = msg.batch.map(({ index, job }) => {
      const r = buildResource(job, msg.encode);
      if (msg.writeDir !== undefined) writeResource(msg.writeDir, r, msg.sha256);
      return { index, result: r };
    });
    parentPort!.postMessage({ id: msg.id, result }, result.flatMap((r) => resourceBuffers(r.result)));
  } catch (e) {
    parentPort!.postMessage({ id: msg.id, error: (e as Error).message });
  }
}
