// Finds the Chromium the report's browser tests drive (playwright-core with Debian's `chromium` package: no
// downloaded browser builds). CHROMIUM_PATH names one; else the usual Debian paths. REQUIRE_BROWSER=1 (.ci/run sets
// it) makes a missing browser a failure instead of a skip.
import { existsSync } from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.CHROMIUM_PATH;
  if (named) return existsSync(named) ? named : undefined;
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p));
}

/** Flags for headless WebGL without a GPU (SwiftShader through ANGLE). */
export const CHROMIUM_ARGS = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox'];
