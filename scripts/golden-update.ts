// npm run golden:update — regenerates test/golden/<case>.physics and <case>.json with the reference encoder.
// The reference is reference/ (Rust, the public frostbite-formats crate as a black box; see reference/README.md). It
// needs cargo; nothing else in the project does. Cases: test/golden/cases.ts. Meshes: test/fixtures/meshes.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GOLDEN_CASES, HEADER_FORMS, type GoldenCase, type GoldenObject, objectMesh } from '../test/golden/cases.ts';
import { meshDigest } from '../test/golden/digest.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REFERENCE_DIR = join(ROOT, 'reference');
const BINARY = join(REFERENCE_DIR, 'target', 'release', 'skate-collision-reference');
const GOLDEN_DIR = join(ROOT, 'test', 'golden');
/** How many tree nodes each shape's summary lists (the .physics holds them all). */
const SUMMARY_NODES = 8;

function buildReference(): void {
  const probe = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    console.error(
      'golden:update: cargo not found. Regenerating goldens needs Rust (https://rustup.rs): it builds reference/, ' +
        'the reference encoder. The committed goldens in test/golden/ are enough for `npm test`.',
    );
    process.exit(1);
  }
  console.log('golden:update: building reference/ (cargo build --release --ignore-rust-version)');
  const r = spawnSync('cargo', ['build', '--release', '--ignore-rust-version'], { cwd: REFERENCE_DIR, stdio: 'inherit' });
  if (r.status !== 0 || !existsSync(BINARY)) {
    console.error(`golden:update: cargo build failed (exit ${r.status}); see the output above`);
    process.exit(1);
  }
}

const run = (args: string[]): string => execFileSync(BINARY, args, { encoding: 'utf8', maxBuffer: 1 << 30 });

function referenceInput(c: GoldenCase, objects: GoldenObject[], split?: number): object {
  const form = HEADER_FORMS[c.header];
  return {
    word08: form.word08,
    body: form.body.length ? Buffer.from(form.body).toString('hex') : undefined,
    split,
    objects: objects.map((o) => {
      const m = objectMesh(o);
      return { name: o.name ?? o.fixture, positions: new RawJson(floatList(m.positions)), indices: Array.from(m.indices), material: o.material, ids: o.ids };
    }),
  };
}

/** A JSON fragment written as is (JSON.stringify cannot write −0). */
class RawJson {
  constructor(readonly text: string) {}
}

/** f32 values as a JSON array, exactly: shortest round-trip decimals, and −0 kept as -0.0 (JSON.stringify writes 0). */
const floatList = (a: Float32Array): string => `[${Array.from(a, (v) => (Object.is(v, -0) ? '-0.0' : String(v))).join(',')}]`;

/** JSON.stringify with RawJson fragments spliced in. */
function toJson(value: object): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => (v instanceof RawJson ? `\u0000RAW${raws.push(v.text) - 1}\u0000` : v));
  return text.replace(/"\\u0000RAW(\d+)\\u0000"/g, (_m, i) => raws[Number(i)]);
}

/** Runs `reference encode` on one input; returns the bytes and the harness's stats. */
function encode(tmp: string, tag: string, input: object): { bytes: Uint8Array; stats: any } {
  const inPath = join(tmp, `${tag}.json`);
  const outPath = join(tmp, `${tag}.physics`);
  writeFileSync(inPath, toJson(input));
  const stats = JSON.parse(run(['encode', inPath, outPath]));
  for (const o of stats.objects) {
    for (const b of o.batches) if (b.error) throw new Error(`golden:update: ${tag}: object ${o.name}: ${b.error}`);
  }
  return { bytes: new Uint8Array(readFileSync(outPath)), stats };
}

const hexNode = (s: string): string => `0x${s}`;

function edgeClasses(edges: [number, number, number][]): Record<string, number> {
  const out = { convex: 0, concave: 0, flat: 0, plain: 0 };
  for (const [value, concave, flat] of edges) {
    if (flat) out.flat++;
    else if (concave) out.concave++;
    else if (value !== 1) out.convex++;
    else out.plain++; // open, non-manifold, or concave with d <= 0: value 1.0, no bit
  }
  return out;
}

function summary(c: GoldenCase, bytes: Uint8Array, stats: any, decoded: any): object {
  return {
    case: c.name,
    what: c.what,
    generatedBy: 'scripts/golden-update.ts: reference/ (frostbite-formats =0.3.0, black box); regenerate with npm run golden:update',
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    rewritesIdentically: decoded.rewrites_identically,
    input: {
      header: c.header,
      objects: c.objects.map((o) => {
        const m = objectMesh(o);
        return {
          name: o.name ?? o.fixture,
          fixture: o.fixture,
          triangles: o.triangles,
          material: o.material,
          ids: o.ids,
          vertexCount: m.positions.length / 3,
          triangleCount: m.indices.length / 3,
          digest: meshDigest(m),
        };
      }),
      referenceSplit: c.referenceSplit,
    },
    reference: stats.objects,
    header: { version: decoded.version, word08: decoded.word08, body: decoded.body },
    parts: decoded.parts,
    shapes: decoded.shapes.map((s: any) => ({
      vertices: s.vertices.length,
      corners: s.corners.length,
      faces: s.faces.length - 1,
      nodes: s.tree.length,
      min: s.min,
      max: s.max,
      edgeClasses: edgeClasses(s.edges),
      firstVertices: s.vertices.slice(0, 4),
      firstFaces: Array.from({ length: Math.min(4, s.faces.length - 1) }, (_, f) => s.corners.slice(s.faces[f], s.faces[f + 1])),
      firstEdges: s.edges.slice(0, 6),
      firstNodes: s.tree.slice(0, SUMMARY_NODES).map(hexNode),
    })),
  };
}

function main(): void {
  buildReference();
  const tmp = mkdtempSync(join(tmpdir(), 'golden-'));
  try {
    let total = 0;
    for (const c of GOLDEN_CASES) {
      const { bytes, stats } = encode(tmp, c.name, referenceInput(c, c.objects, c.referenceSplit));
      const physicsPath = join(GOLDEN_DIR, `${c.name}.physics`);
      writeFileSync(physicsPath, bytes);
      const decoded = JSON.parse(run(['decode', physicsPath]));
      if (!decoded.rewrites_identically) throw new Error(`golden:update: ${c.name}: the crate does not rewrite its own output identically`);
      writeFileSync(join(GOLDEN_DIR, `${c.name}.json`), `${JSON.stringify(summary(c, bytes, stats, decoded), null, 1)}\n`);
      total += bytes.length;
      console.log(`${c.name.padEnd(24)} ${String(bytes.length).padStart(8)} bytes  shapes ${decoded.shapes.length}`);
    }
    console.log(`golden:update: ${GOLDEN_CASES.length} cases, ${total} bytes of .physics in test/golden/`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main();
