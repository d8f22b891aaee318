// Worker entry in plain JavaScript: registers tsx in this thread (loader hooks are per thread on Node 20), then
// loads the TypeScript worker named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
