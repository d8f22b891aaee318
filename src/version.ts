// The tool's version: package.json's, read at run time from the package root, found upwards from this file (the
// sources run as src/version.ts, the published package as dist/src/version.js). Not a JSON import: tsc would copy
// package.json into dist/ as a second, stale-prone package.json, and `../package.json` points elsewhere there.
import type { Hash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOOL_NAME = 'compile-collision';

function packageVersion(): string {
  for (let dir = new URL('./', import.meta.url); ; ) {
    try {
      const j = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
      if (j?.name === 'skate-collision' && typeof j.version === 'string') return j.version;
    } catch {
      // none here, or not readable: keep going up
    }
    const up = new URL('../', dir);
    if (up.href === dir.href) throw new Error(`version: no package.json of skate-collision above ${import.meta.url}`);
    dir = up;
  }
}

/** package.json's `version`. */
export const TOOL_VERSION: string = packageVersion();

/**
 * Feeds the compiler's modules under `dir` into `h` (name, then bytes; sorted, so any machine gives the same
 * digest): `.ts`/`.js`/`.mjs`/`.json`/`.wasm` files, not declarations; folders too when `recursive`. What the code
 * digests of the cache (src/build/cache.ts) and of an unchanged build (src/build/unchanged.ts) are made of. A missing folder
 * (a bundle without its source tree) adds nothing.
 */
export function hashSources(h: Hash, dir: string, recursive: boolean, rel = ''): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.isDirectory()) {
      if (recursive) hashSources(h, join(dir, e.name), true, `${rel}${e.name}/`);
    } else if (e.isFile() && /\.(ts|js|mjs|json|wasm)$/.test(e.name) && !e.name.endsWith('.d.ts')) {
      h.update(`${rel}${e.name}\0`).update(readFileSync(join(dir, e.name)));
    }
  }
}
