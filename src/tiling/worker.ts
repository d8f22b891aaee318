// Worker thread: builds the batches of resource jobs it is sent (src/tiling/pool.ts) and posts the results back,
// their bytes transferred.
import { parentPort } from 'node:worker_threads';
import { buildResource, type EncodeOptions, type ResourceJob } from './build.ts';

parentPort!.on('message', (msg: { batch: { index: number; job: ResourceJob }[]; encode?: EncodeOptions }) => {
  try {
    const results = msg.batch.map(({ index, job }) => ({ index, result: buildResource(job, msg.encode) }));
    parentPort!.postMessage({ results }, results.map((r) => r.result.bytes.buffer as ArrayBuffer));
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).message });
  }
});
