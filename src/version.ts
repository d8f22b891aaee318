// The tool's version: package.json's, read at run time from the package root, found upwards from this file (the
// sources run as src/version.ts, the published package as dist/src/version.js). Not a JSON import: tsc would copy
// package.json into dist/ as a second, stale-prone package.json, and `../package.json` points elsewhere there.
import { readFileSync } from 'node:fs';

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
