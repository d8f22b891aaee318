// Long mutation-fuzz runs of the PhysicsResource codec: npm run fuzz -- --iterations N --seed S [--corpus DIR...] [--max-bytes N]
// With --forge: of whole .forge files through the forge importer instead (test/import/forge/mutate.ts; the corpus is
// its forges in each layout). With --ymap: of the game's binary .ymap through its reader (test/import/ybn/ymap-mutate.ts).
// Corpus: the hand-laid resources of test/format/fixtures.ts, test/format/reference/*.physics, test/golden/*.physics
// and any --corpus directories. Every mutated resource must be refused with a FormatError or read, write back byte
// for byte and pass through verify and inspect without throwing (test/format/mutate.ts). Exit 1 on any failure;
// each failure prints its iteration, which replays alone with the same seed.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HAND_RESOURCES, layResource } from '../test/format/fixtures.ts';
import { fuzz } from '../test/format/mutate.ts';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '100000' },
    seed: { type: 'string', default: String(Date.now() % 1e9) },
    corpus: { type: 'string', multiple: true, default: [] },
    'max-bytes': { type: 'string', default: String(1 << 16) },
    forge: { type: 'boolean', default: false },
    ymap: { type: 'boolean', default: false },
  },
});
const iterations = Number(values.iterations);
const seed = Number(values.seed);
if (!Number.isInteger(iterations) || iterations < 1 || !Number.isInteger(seed)) {
  process.stderr.write('fuzz: --iterations and --seed take integers\n');
  process.exit(2);
}

if (values.ymap) {
  const { checkYmap, mutateYmap, YMAP_FUZZ_BASES } = await import('../test/import/ybn/ymap-mutate.ts');
  const { prng } = await import('../test/fixtures/meshes.ts');
  const stats = { read: 0, refused: 0, failures: [] as string[], slowest: 0 };
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) {
    const rand = prng((seed * 0x9e3779b1) ^ i);
    const [name, base] = YMAP_FUZZ_BASES[Math.floor(rand() * YMAP_FUZZ_BASES.length)];
    checkYmap(mutateYmap(base, rand), stats, `iteration ${i} (${name})`);
  }
  const ms = performance.now() - t0;
  process.stdout.write(
    `fuzz --ymap: seed ${seed}, ${iterations} mutated .ymap files from ${YMAP_FUZZ_BASES.length} in ${(ms / 1000).toFixed(1)} s: ${stats.read} read, ` +
      `${stats.refused} refused, ${stats.failures.length} failures; slowest ${stats.slowest.toFixed(0)} ms\n`,
  );
  for (const f of stats.failures.slice(0, 20)) process.stdout.write(`  ${f}\n`);
  process.exit(stats.failures.length ? 1 : 0);
}

if (values.forge) {
  const { checkForge, FORGE_FUZZ_BASES, mutateForge } = await import('../test/import/forge/mutate.ts');
  const { prng } = await import('../test/fixtures/meshes.ts');
  const stats = { built: 0, refused: 0, failures: [] as string[], slowest: 0 };
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) {
    const rand = prng((seed * 0x9e3779b1) ^ i);
    const [name, base] = FORGE_FUZZ_BASES[Math.floor(rand() * FORGE_FUZZ_BASES.length)];
    checkForge(mutateForge(base, rand), stats, `iteration ${i} (${name})`);
  }
  const ms = performance.now() - t0;
  process.stdout.write(
    `fuzz --forge: seed ${seed}, ${iterations} mutated forges from ${FORGE_FUZZ_BASES.length} in ${(ms / 1000).toFixed(1)} s: ${stats.built} built, ` +
      `${stats.refused} refused, ${stats.failures.length} failures; slowest ${stats.slowest.toFixed(0)} ms\n`,
  );
  for (const f of stats.failures.slice(0, 20)) process.stdout.write(`  ${f}\n`);
  process.exit(stats.failures.length ? 1 : 0);
}

const dirs = [new URL('../test/format/reference/', import.meta.url).pathname, new URL('../test/golden/', import.meta.url).pathname, ...values.corpus];
const corpus = Object.values(HAND_RESOURCES).map((make) => layResource(make()));
// Large resources slow every iteration down (each accepted one is copied, verified and compared); skip them unless
// --max-bytes says otherwise.
const maxBytes = Number(values['max-bytes']);
for (const dir of dirs.filter((d) => existsSync(d))) {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.physics')).sort()) {
    const b = new Uint8Array(readFileSync(`${dir}/${f}`));
    if (b.length <= maxBytes) corpus.push(b);
  }
}

const stats = fuzz(corpus, iterations, seed);
const rate = Math.round((iterations / stats.ms) * 1000);
process.stdout.write(
  `fuzz: seed ${seed}, ${iterations} mutated resources from ${corpus.length} in ${(stats.ms / 1000).toFixed(1)} s (${rate}/s): ` +
    `${stats.accepted} read and round-tripped (${stats.foreignLayout} in a layout only the hints reproduce), ${stats.refused} refused, ${stats.failures.length} failures\n` +
    `refusals by stage: ${JSON.stringify(stats.byStage)}\n`,
);
for (const f of stats.failures.slice(0, 20)) {
  const file = join(tmpdir(), `fuzz-${seed}-${f.iteration}.physics`);
  writeFileSync(file, f.input);
  process.stdout.write(`  iteration ${f.iteration}: ${f.error} (input saved as ${file})\n`);
}
process.exitCode = stats.failures.length ? 1 : 0;
