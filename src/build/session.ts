// A compile session: what one build of a level leaves for the next build in the same process (--watch, or a
// program compiling again after each edit). Pass the same CompileSession to every compileLevel of one level
// (CompileHooks.session); a build then takes from the previous one what the edit did not change, found by exact
// comparison of what it was made from, never by a hash alone:
// - the import's world-space arrays (src/import/memo.ts: accessor bytes and world matrices compared);
// - per array: the cell runs (src/tiling/cells.ts), the validation report and its cracks (src/import/validate.ts,
//   on the worker that validated it), and the cache key of every resource made of the same arrays (src/build/cache.ts).
// The output is byte for byte a build without a session (test/compile/session.test.ts); only the time differs.
import { randomBytes } from 'node:crypto';
import { KeyMemo } from './cache-key.ts';
import { ImportMemo } from '../import/memo.ts';
import { RunsMemo } from '../tiling/cells.ts';
import { ValidationKeep } from './validation.ts';

export { arrayId } from '../import/memo.ts';

/**
 * State kept across builds in one process, best used for one level (everything is matched by content or by the
 * identity of arrays it made, so another level only finds less to reuse). One build at a time (a second
 * compileLevel while one runs is refused); sessions may share kept workers (CompileHooks.pool), one build at a time.
 */
export class CompileSession {
  /** @internal Set while a build runs. */
  building = false;
  /** Names this session to the worker that keeps its validation (src/tiling/worker.ts 'reset'). */
  private readonly token = randomBytes(8).toString('hex');
  /** @internal The import's arrays. */
  readonly import = new ImportMemo();
  /** @internal Cell runs per (positions, indices, cell size). */
  readonly runs = new RunsMemo();
  /** @internal Cache keys by a job's make-up (src/build/cache-key.ts jobSignature). */
  readonly keys = new KeyMemo();
  /** @internal Validation reports and crack counts (src/build/validation.ts). */
  readonly validation = new ValidationKeep(this.token);
}
