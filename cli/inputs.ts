// Command-line level arguments → level files: globs expanded (glob is loaded only when a pattern has magic), plain
// paths checked for what they are (a FIFO, a device, a folder or a link loop is named, not "no such level"), YBN
// detail copies (hi@/ma@) left out unless asked for.
import { isDetailCopy, isYbnPath } from '../src/import/ybn/index.ts';
import { whatIsNot } from '../src/files.ts';

/**
 * Input arguments → level files, sorted per pattern, each once. A pattern with glob magic ('levels/**\/*.glb')
 * expands to the level files it matches (.glb, .gltf, .ybn, .ybn.xml, .forge); a plain path is taken as given (a
 * directory too, as a folder of extracted forge records, unless it is named like a level file). Returns
 * what matched nothing, and (unless `ybnDetail`) the hi@/ma@ YBN detail copies it left out.
 */
export async function expandInputs(patterns: string[], opts: { ybnDetail?: boolean } = {}): Promise<{ files: string[]; unmatched: string[]; skipped: string[]; refused: { path: string; why: string }[] }> {
  // glob (~20 ms to load) only when a pattern may have magic: without any of these characters glob sees none.
  const maybeMagic = patterns.some((p) => /[*?[\]{}()!+@]/.test(p));
  const { glob, hasMagic } = maybeMagic ? await import('glob') : { glob: undefined, hasMagic: () => false };
  const files: string[] = [];
  const unmatched: string[] = [];
  const refused: { path: string; why: string }[] = [];
  for (const p of patterns) {
    if (hasMagic(p, { windowsPathsNoEscape: true })) {
      const hits = (await glob!(p, { nodir: true, windowsPathsNoEscape: true })).filter((f) => /\.(glb|gltf|ybn|ybn\.xml|forge)$/i.test(f)).sort();
      if (hits.length === 0) unmatched.push(p);
      files.push(...hits);
    } else {
      // A FIFO, a device, a directory or a link loop is not "no such level": say what it is (whatIsNot).
      const not = whatIsNot(p);
      // A folder is a level of extracted forge records, unless it is named like a level file (then it is a mistake).
      if (not === undefined || (not === 'a directory' && !/\.(glb|gltf|ybn|ybn\.xml|forge)[/\\]*$/i.test(p))) files.push(p);
      else if (not === 'no such file') unmatched.push(p);
      else refused.push({ path: p, why: not });
    }
  }
  const unique = [...new Set(files)];
  const detail = (f: string): boolean => !opts.ybnDetail && isYbnPath(f) && isDetailCopy(f);
  return { files: unique.filter((f) => !detail(f)), unmatched, skipped: unique.filter(detail), refused };
}
