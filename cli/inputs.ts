// Command-line level arguments → level files: globs expanded (glob is loaded only when a pattern has magic), plain
// paths checked for what they are (a FIFO, a device, a folder or a link loop is named, not "no such level"), YBN
// detail copies (hi@/ma@) left out unless asked for.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDetailCopy, isYbnPath } from '../src/import/ybn/index.ts';
import { isYmapPath } from '../src/import/ybn/ymap.ts';
import { whatIsNot } from '../src/files.ts';

/** Level files and the .ymap / .ymap.xml placement files a port folder or glob may hold. */
const LEVEL_OR_YMAP = /\.(glb|gltf|ybn|ybn\.xml|forge|ymap|ymap\.xml)$/i;

/**
 * Input arguments → level files, sorted per pattern, each once. A pattern with glob magic ('levels/**\/*.glb')
 * expands to the level files it matches (.glb, .gltf, .ybn, .ybn.xml, .forge); a plain path is taken as given. Returns
 * what matched nothing, and (unless `ybnDetail`) the hi@/ma@ YBN detail copies it left out. A folder whose name is
 * not a level file's stands for the level files directly in it (`port/`: a GTA V port's .ybn files), or, holding
 * none, is itself the level: a folder of records extracted from a forge. `.ymap` (the game's) and `.ymap.xml`
 * (CodeWalker's) files among the matches are placements, not levels: returned as `ymaps`.
 */
export async function expandInputs(patterns: string[], opts: { ybnDetail?: boolean } = {}): Promise<{ files: string[]; unmatched: string[]; skipped: string[]; refused: { path: string; why: string }[]; ymaps: string[] }> {
  // glob (~20 ms to load) only when a pattern may have magic: without any of these characters glob sees none.
  const maybeMagic = patterns.some((p) => /[*?[\]{}()!+@]/.test(p));
  const { glob, hasMagic } = maybeMagic ? await import('glob') : { glob: undefined, hasMagic: () => false };
  const files: string[] = [];
  const unmatched: string[] = [];
  const refused: { path: string; why: string }[] = [];
  for (const p of patterns) {
    if (hasMagic(p, { windowsPathsNoEscape: true })) {
      const hits = (await glob!(p, { nodir: true, windowsPathsNoEscape: true })).filter((f) => LEVEL_OR_YMAP.test(f)).sort();
      if (hits.length === 0) unmatched.push(p);
      files.push(...hits);
    } else {
      // A FIFO, a device, a directory or a link loop is not "no such level": say what it is (whatIsNot).
      const not = whatIsNot(p);
      if (not === undefined) files.push(p);
      else if (not === 'a directory' && !LEVEL_OR_YMAP.test(p.replace(/[\\/]+$/, ''))) {
        const inside = readdirSync(p, { withFileTypes: true }).filter((d) => LEVEL_OR_YMAP.test(d.name) && whatIsNot(join(p, d.name)) === undefined);
        // None: a folder of extracted forge records (the forge importer says so when it holds none either).
        if (inside.length === 0) files.push(p);
        else files.push(...inside.map((d) => join(p, d.name)).sort());
      } else if (not === 'no such file') unmatched.push(p);
      else refused.push({ path: p, why: not });
    }
  }
  const ymaps = [...new Set(files.filter(isYmapPath))];
  const unique = [...new Set(files.filter((f) => !isYmapPath(f)))];
  const detail = (f: string): boolean => !opts.ybnDetail && isYbnPath(f) && isDetailCopy(f);
  return { files: unique.filter((f) => !detail(f)), unmatched, skipped: unique.filter(detail), refused, ymaps };
}
