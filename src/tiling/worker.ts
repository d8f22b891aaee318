// Worker thread: builds the resource jobs it is sent (src/tiling/pool.ts) and posts the bytes back, transferred.
import { parentPort } from 'node:worker_threads';
import { buildResource, type EncodeOptions, type ResourceJob } from './build.ts';

parentPort!.on('message', (msg: { index: number; job: ResourceJob; encode?: EncodeOptions }) => {
  try {
    const result = buildResource(msg.job, msg.encode);
    parentPort!.postMessage({ index: msg.index, result }, [result.bytes.buffer as ArrayBuffer]);
  } catch (e) {
    parentPort!.postMessage({ index: msg.index, error: (e as Error).message });
  }
});
