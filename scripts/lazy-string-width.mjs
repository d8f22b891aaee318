// esbuild plugin shared by the repository's launcher (bin/compile-collision.js) and the compiler folder
// (scripts/bundle-compiler.mjs): `string-width` (yargs' and cliui's, to measure help text) is evaluated on its first
// call, not at start. Its module builds an Intl.Segmenter (~10 ms: ICU) and a \p{RGI_Emoji} regular expression
// (15–30 ms) when it is evaluated, at every start of every command, for text only --help and usage errors measure.
// Each `import stringWidth from 'string-width'` gets a stand-in with the same default export that require()s the
// real module, which esbuild wraps so that it is evaluated on that first require; the package is otherwise as
// published (the same files, resolved the same way).
import { dirname } from 'node:path';

/** The stand-ins' esbuild namespace (their metafile inputs are named `<namespace>:<path>`: no file of their own). */
export const LAZY_NAMESPACE = 'lazy-string-width';

export function lazyStringWidth() {
  return {
    name: LAZY_NAMESPACE,
    setup(build) {
      build.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.pluginData === 'real' || args.kind !== 'import-statement') return undefined;
        const real = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'real' });
        if (real.errors.length || !real.path) return undefined; // resolved (or refused) as usual
        return { path: real.path, namespace: LAZY_NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => ({
        contents: `export default function stringWidth(...a) { return require(${JSON.stringify(args.path)}).default(...a); }\n`,
        loader: 'js', resolveDir: dirname(args.path),
      }));
    },
  };
}
