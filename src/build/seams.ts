// The build's seams stage (src/build/compile.ts encodeStage): the open corners matched over the level
// (src/tiling/seams.ts, src/geometry/seams.ts), the codes stored into each resource's bytes and staged file, and
// each cache entry settled with its final bytes.
import { join } from 'node:path';
import { SEAM_NONE } from '../geometry/edge-rule.ts';
import { carrySeamValues, type LevelFaces, type SeamMatch } from '../geometry/seams.ts';
import { noteBytes, releaseBytes, type BuiltResource } from '../tiling/build.ts';
import { runPatches, type ThreadPool } from '../tiling/pool.ts';
import { applySeams, countSeams, levelMatch, type PatchItem, type SeamMode } from '../tiling/seams.ts';
import type { Staging } from '../output/staging.ts';
import type { ResourceCache } from './cache.ts';

/**
 * Matches the open corners over the level and stores each resource's codes ('level') or open corners ('shape')
 * into its bytes and its staged file: the changed span in place for a file this build wrote, the whole file anew
 * for one taken from the cache (it may be linked with the previous output, which must not change) — and nothing,
 * not even a read, for one from the cache that already holds these codes. Each cache entry then holds the final
 * bytes (appended to a pack: src/output/cache-pack.ts). `faces`: the level's triangles as encoded (world space), for
 * open edges lying on another object's face ('level' only).
 */
export async function joinSeams(built: BuiltResource[], mode: SeamMode, carried: number[], cached: BuiltResource[], keys: string[], cache: ResourceCache | undefined, staging: Staging, pool: ThreadPool | undefined, threads: number, onDone?: (done: number, total: number) => void, faces?: LevelFaces[]): Promise<SeamMatch> {
  const match = levelMatch(built, mode === 'level' ? faces : undefined);
  if (mode === 'level') carrySeamValues(built.map((r) => r.open), match.codes, carried);
  // The files this build wrote that gain joined corners are patched on every thread (each read back, checked,
  // patched in place and summed, and with the cache on appended to a pack: src/tiling/seams.ts patchUnit); the
  // rest here, in resource order.
  const patched: number[] = [];
  const items: PatchItem[] = [];
  built.forEach((r, i) => {
    const codes = mode === 'level' ? match.codes[i] : null;
    if (cached[i] !== undefined || r.parts === 0 || !r.check) return;
    const item: PatchItem = { name: r.name, path: join(staging.dir, r.file), check: r.check, codes: hasJoined(codes) ? codes : null, shape: r.open.shape, corner: r.open.corner, arrays: r.open.arrays, sha256: cache !== undefined, toCache: cache?.wantsEntry(keys[i]) };
    if (item.codes === null && !item.toCache) return;
    patched.push(i);
    items.push(item);
  });
  const results = await runPatches(items, pool, threads, onDone, cache && ((unit) => cache.unitPack(unit)));
  const byIndex = new Map(patched.map((i, k) => [i, { ...results[k], toCache: items[k].toCache }]));
  built.forEach((r, i) => {
    const codes = mode === 'level' ? match.codes[i] : null;
    const fromCache = cached[i] !== undefined;
    if (fromCache && cache!.holds(keys[i], codes, r.open.corner.length)) {
      countSeams(r, codes);
      if (r.parts > 0) staging.note(r.file, r.check ?? r.bytes, r.sha256); // a linked file's bytes are not read
      return;
    }
    const done = byIndex.get(i);
    if (done) {
      countSeams(r, codes);
      if (done.sums) Object.assign(r, done.sums);
      if (done.sha256) r.sha256 = done.sha256;
    } else {
      const [lo, hi] = applySeams(r, codes, !fromCache);
      if (lo < hi && r.parts > 0) {
        if (fromCache) staging.replace(r.file, r.bytes);
        else staging.patch(r.file, r.bytes, lo, hi);
      }
      // What is known of the bytes follows them (a file this build wrote was summed where it was written).
      if (lo < hi || r.check === undefined || (cache && r.sha256 === undefined)) noteBytes(r, cache !== undefined);
    }
    if (r.parts > 0) staging.note(r.file, r.check!, r.sha256);
    cache?.settle(keys[i], r, codes, done?.toCache ? (done.copied ?? null) : undefined);
    // The bytes leave memory again, to be read back (checked) only if asked for: the manifest's equal-file count.
    if (r.parts > 0) releaseBytes(r, join(staging.dir, r.file));
  });
  return match;
}

const hasJoined = (codes: Float32Array | null): boolean => codes !== null && codes.some((c) => c !== SEAM_NONE);
