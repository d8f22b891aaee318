// The Blender add-on in Blender: test/blender/run.py under bpy (Blender 4.2 as a Python module: pip install
// bpy==4.2.0), one child per case. properties: set through the add-on's fields and operators vs typed by hand,
// the compiled .physics files are byte for byte the same; finding: a known crack's "go to" selects the object, the
// edge and puts the 3D cursor on it; import: File → Import → skate. collision gives back a compiled sample's
// triangles (per resource) and material words; records: to-gltf's stored records of a --native-shapes output shown,
// kept, exported with the same extras and compiled again to the same files. Without bpy the tests are skipped with
// one line, unless REQUIRE_BLENDER=1 (.ci/run), which makes that a failure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyTempDir } from '../fixtures/levels.ts';
import { addonEntries, zipBytes } from '../../scripts/blender-zip.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// SK8_BLENDER_PYTHON: the interpreter whose bpy runs the cases (a venv with another Blender's wheel, docs/blender-addon.md);
// else PYTHON (.ci/run's), else python3.
const PYTHON = process.env.SK8_BLENDER_PYTHON || process.env.PYTHON || 'python3';
// Blender makes a blender_* folder in its temporary directory per process and leaves it: each process here gets a
// TMPDIR of its own that the test removes (the probe's at once, a case's with the test's folder).
const probeTmp = mkdtempSync(join(tmpdir(), 'sk8-bpy-probe-'));
const probe = spawnSync(PYTHON, ['-c', 'import bpy; print("BLENDER " + bpy.app.version_string)'], { encoding: 'utf8', env: { ...process.env, TMPDIR: probeTmp } });
rmSync(probeTmp, { recursive: true, force: true });
const hasBpy = probe.status === 0;
const version = /^BLENDER (.*)$/m.exec(probe.stdout ?? '')?.[1];
if (hasBpy) console.log(`blender add-on tests: ${PYTHON}, bpy ${version}`);
const required = process.env.REQUIRE_BLENDER === '1';
if (!hasBpy && !required) console.log(`blender add-on tests skipped: ${PYTHON} cannot import bpy (pip install bpy==4.2.0)`);

describe('Blender as a Python module for the add-on tests', () => {
  it.runIf(required)('is installed when REQUIRE_BLENDER=1', () => {
    expect(hasBpy, `REQUIRE_BLENDER=1 but ${PYTHON} cannot import bpy`).toBe(true);
  });
});

const tmp = lazyTempDir('sk8-blender-');
afterAll(() => tmp.cleanup());

/** The JSON chunk of a .glb. */
function glbJson(path: string): any {
  const b = readFileSync(path);
  return JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString('utf8'));
}

/** Runs one case of run.py; returns its RESULT json (the case asserts; a failed assertion fails here with its message). */
function runCase(name: string, ...args: string[]): Record<string, any> {
  const work = join(tmp.dir, [name, ...args.slice(1)].join('-'));
  // HOME in the temporary folder: Blender's user folders (installed add-ons, preferences) are made there.
  const env = { ...process.env, HOME: join(work, 'home'), TMPDIR: join(work, 'tmp') };
  mkdirSync(env.TMPDIR, { recursive: true });
  const r = spawnSync(PYTHON, [join(ROOT, 'test/blender/run.py'), name, work, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000, env });
  const result = /^RESULT (.*)$/m.exec(r.stdout ?? '');
  expect(r.status, `run.py ${name} failed:\n${(r.stderr ?? '').split('\n').slice(-25).join('\n')}`).toBe(0);
  expect(result, 'run.py printed no RESULT line').not.toBeNull();
  return JSON.parse(result![1]);
}

describe.skipIf(!hasBpy)('the Blender add-on (bpy headless)', () => {
  it('properties set through the add-on compile to the same bytes as the same properties typed by hand', () => {
    const r = runCase('properties');
    expect(r.files).toEqual(['ball.physics', 'deck.physics', 'grind_rail.physics', 'plate.physics', 'pool.physics', 'post.physics', 'ramp.physics', 'tube.physics']);
    // The words the properties chose: concrete, metal, default, metal rail (grind), wood (material), water, packed.
    expect(r.materials).toEqual({ deck: [0x60], post: [0x160], ball: [0x20], tube: [0x20], grind_rail: [0xba0], ramp: [0x1a0], pool: [0xf007a0], plate: [0xf007a0] });
    expect(r.written.deck).toEqual({ sk8_collision_mode: 'box', sk8_shape: '{"type": "box", "size": [3.0, 0.5, 1.0], "centre": [0.0, 0.25, 0.0]}', sk8_surface: 'concrete' });
    expect(r.layout).toMatch(/^layout: 8 objects < budget 4,003 → one resource per object/);
  }, 240_000);

  it("a known crack: go to selects the object and the edge, and puts the cursor on the crack", () => {
    const r = runCase('finding');
    expect(r.finding).toEqual(['crackEdges', 'right', 1]);
    expect(r.edge).toEqual([[10, 3, 1], [10, 5, 1]]);
  }, 240_000);

  it("compile --ride's findings: a row per ride kind and resource in the findings list, go to puts the cursor on the place", () => {
    const r = runCase('ride');
    expect(r.rows).toEqual([['rideBump', 'collision_area_0_-1.physics', 1, 'WARNING'], ['rideBump', 'collision_area_0_0.physics', 1, 'WARNING'], ['rideStep', 'collision_area_0_0.physics', 1, 'WARNING']]);
    expect(r.cursor).toEqual([1.5, 3, 0.25]);
  }, 240_000);
  it("go to: objects the compiler renamed (by the manifest's sourceNames), an Array modifier's copy, a degenerate triangle", () => {
    const r = runCase('goto');
    expect(r.sourceNames).toEqual({ Rail_1: 'Rail 1', Rail_1_2: 'Rail_1', wall_2: 'wall', CON_: 'CON', Kicker_: 'Kicker.' });
    for (const [compiled, [selected, at]] of Object.entries(r.picked as Record<string, [string, string]>)) expect(selected, compiled).toBe(at);
    expect(Object.keys(r.picked)).toHaveLength(6);
    expect(r.array).toEqual({ cursor: [3, -20, 0], edge: [[-1, -1, 0], [-1, 1, 0]] });
    expect(r.degenerate).toEqual([4, 5, 6]);
    expect(r.missing).toMatch(/no object named Gone in this file \(the finding's object, compiled as Rail_1_2\)/);
  }, 240_000);

  it("the ride check's and the grind map's findings are listed with the others, and Go To takes each to its place", () => {
    const r = runCase('placed', join(ROOT, 'samples/skatepark.glb'));
    expect(Object.keys(r.rows)).toEqual(expect.arrayContaining(['rideSnag funbox', 'grindTooDense ledge', 'rideGap collision_area_0_0.physics']));
    expect(['funbox', 'quarter_pipe']).toContain(r.went.hit[0]);
    expect(r.went.dense).toEqual([1, -1, 0.5]);
    expect(r.went.cell).toEqual([5, 5, 0]);
  }, 240_000);

  it('objects with a collision setting that yield nothing are named in a warning', () => {
    const r = runCase('dropped');
    expect(Object.keys(r.dropped).sort()).toEqual(['box_empty', 'cage_box', 'cam_box', 'edges_only', 'points_box', 'rail_curve']);
    expect(r.dropped.cage_box).toMatch(/a lattice object gives no collision/);
    expect(r.dropped.box_empty).toMatch(/an Empty set to Box has no mesh to fit the shape to: turn on Explicit Shape/);
    expect(r.dropped.edges_only).toMatch(/loose edges give collision only as a grind curve/);
  }, 240_000);

  it('the sidebar at its default width: kinds and warnings whole; the last result cleared while building; a bad packed word, a compile error and a missing numpy said in one line', () => {
    const r = runCase('panel');
    expect(r.rows).toEqual(expect.arrayContaining(['non-manifold', 'back-to-back', 'winding', 'Rail_1 ×3']));
    expect(r.warning_lines.length).toBeGreaterThan(1);
    expect(r.running.slice(0, 2)).toEqual([0, 0]);
    expect(r.packed).toMatch(/'0xZZZ' is not a packed word/);
    expect(r.error).toMatch(/^failed: compile: .*park\.blend \(the scene exported\): every collision triangle is degenerate/);
    expect(r.error).not.toMatch(/sk8-compile-/);
    expect(r.numpy).toBe("failed: Blender's glTF exporter needs numpy, which this Blender's Python lacks: install it (Debian/Ubuntu: sudo apt install python3-numpy) or use Blender from blender.org, which bundles it");
  }, 240_000);

  it('a long build shows the stage and its counts while it runs, from the compiler\'s --progress-json lines', () => {
    const r = runCase('progress', '150');
    expect(r.files).toBe(150);
    // Every line read, by the non-blocking pipe and by the thread reader: the stages' 0/1 and 1/1 and encode's 150.
    expect(r.events).toBeGreaterThanOrEqual(150 + 2 * 4);
    expect(r.threaded).toBe(r.events);
    expect(r.counted).toBeGreaterThan(0);
    expect(r.first).toMatch(/^compiling… encode \d+\/150 · \d+ s \(Esc cancels\)$/);
    expect(r.bars[0]).toEqual(['progress', expect.any(Number), expect.stringMatching(/^\d+ %$/)]);
    expect(r.status).toMatch(/^built in [\d.]+ s → /);
    // A compiler older than the add-on (no --progress-json) is named as such, not with yargs' last line.
    expect(r.old).toMatch(/^failed: this compile-collision is older than the add-on \(it has no --progress-json\): update it/);
  }, 240_000);

  it('importing a compiled sample brings back its triangles and material words, its grind prisms as grind curves with their surface, and compiles again to the same 17 files', () => {
    const r = runCase('import', join(ROOT, 'samples/skatepark.glb'));
    // 1,480 triangles compiled, 48 of them the two grind prisms, which come back as curves (loose edges).
    expect(r.triangles).toBe(1432);
    // to-gltf writes a grind surface as its word; the field shows the surface that word is (round_rail: 0x02380ba0).
    expect(r.curves).toEqual({
      grind_handrail: { edges: 2, radius: 0.025, surface: 'round_rail', stored: '0x02380ba0' },
      grind_ledge_grind: { edges: 1, radius: 0.03, surface: 'metal_rail', stored: '0x00000ba0' },
    });
    expect(r.resources).toBe(17);
    expect(r.materials).toContain(0x60);
    // Compiled again from Blender: all 17 files byte for byte (stairs.physics' back-to-back pairs in their place).
    expect(r.files).toBe(17);
    expect(r.identical).toHaveLength(17);
  }, 240_000);

  it("to-gltf's stored records (--native-shapes) survive Blender: shown, kept, exported unchanged, compiled to the same files", () => {
    const r = runCase('records');
    expect(r.summaries).toEqual({
      crate_box: 'stored box record: exact round trip',
      rock_hull: 'stored hull record: 36 vertices, 68 faces: exact round trip',
      stack_convex_parts: 'convex_parts: 3 parts, 2 stored records',
    });
    expect(r.panels.crate_box).toEqual(['Collision', 'stored box record: exact round trip']);
    // The mode menu: the record's own mode and none keep it; every other entry says it drops the record.
    expect(r.menus.rock_hull).toContain('Hull');
    expect(r.menus.rock_hull).toContain('None');
    expect(r.menus.rock_hull).toContain('Box (drops the record)');
    expect(r.menus.rock_hull).toContain('Not set (triangle mesh) (drops the record)');
    expect(r.asked).toMatchObject({ title: 'Drop the stored record?', confirm_text: 'Drop Record' });
    expect(r.asked.message).toMatch(/^rock_hull holds a stored hull record: 36 vertices, 68 faces: exact round trip\. The compiler will then build a box from the mesh\.$/);
    expect(r.python_form).toBe('python');
    // Every node's extras (sk8_shape records, sk8_part, sk8_physics, modes) and the scene's sk8_compile leave Blender
    // as they came: the same JSON text once parsed (numbers the same doubles, integers integers, keys in order).
    const before = glbJson(r.source), after = glbJson(r.exported);
    const extrasOf = (doc: any) => Object.fromEntries(doc.nodes.map((n: any) => [n.name, JSON.stringify(n.extras ?? null)]));
    const a = extrasOf(before), b = extrasOf(after);
    const records = before.nodes.filter((n: any) => n.extras?.sk8_shape).map((n: any) => n.name).sort();
    expect(records).toEqual(['crate_box', 'rock_convex_hull', 'rock_hull', 'stack_aggregate', 'stack_convex_parts']);
    for (const name of Object.keys(a)) expect(b[name], `extras of ${name}`).toBe(a[name]);
    expect(JSON.stringify(after.scenes[0].extras.sk8_compile)).toBe(JSON.stringify(before.scenes[0].extras.sk8_compile));
    // Recompiled with --recorded-options: every file the --native-shapes compile wrote, byte for byte.
    expect(r.files).toBe(14);
    expect(r.identical).toHaveLength(14);
    // The add-on's Compile button with Native Shapes on (its own export of the scene): the same 14 files.
    expect(r.button_identical).toEqual(r.identical);
  }, 240_000);

  it.each(['extension', 'legacy'])('the zip of npm run blender:zip installs as a %s add-on; a missing compiler is named, one in node_modules/.bin above the .blend never run', (how) => {
    const zip = join(tmp.dir, `addon-${how}.zip`);
    writeFileSync(zip, zipBytes(addonEntries()));
    const r = runCase('install', zip, how);
    expect(r.files).toEqual(expect.arrayContaining(['__init__.py', 'blender_manifest.toml', 'catalog.py', 'gltf_hooks.py', 'LICENSE']));
    expect(r.files).not.toContain('__pycache__');
    expect(r.missing).toMatch(/the path set in the add-on preferences .* is not a file/);
    expect(r.none).toMatch(/^compile-collision not found: install the add-on from the release zip/);
  }, 240_000);

  it("the release's zip, carrying the compiler, works with only node on PATH and nothing configured", async () => {
    // scripts/bundle-compiler.mjs (plain JavaScript, as the release runs it): the compiler folder the zip carries.
    const bundler = '../../scripts/bundle-compiler.mjs';
    const { bundleCompiler } = (await import(bundler)) as { bundleCompiler: (root: string, out: string) => Promise<string[]> };
    const compiler = join(tmp.dir, 'release-compiler');
    await bundleCompiler(ROOT, compiler);
    const zip = join(tmp.dir, 'addon-release.zip');
    writeFileSync(zip, zipBytes(addonEntries(compiler)));
    const r = runCase('release', zip);
    expect(r.command[1]).toMatch(/skate_collision[\\/]compiler[\\/]compile-collision\.mjs$/);
    expect(r.files).toEqual(['deck.physics', 'ground.physics']);
    expect(r.imported).toBeGreaterThan(0);
  }, 240_000);

  it('nothing a .blend holds is run: hostile output folders, shims, planted and world-writable compilers, no node (POSIX, and Windows by parameter)', () => {
    const r = runCase('hostile');
    expect(r.posix_outputs).toBe(17);
    expect(r.planted).toMatch(/^compile-collision not found/);
    expect(r.world_writable).toMatch(/on PATH is not run: its folder .* can be written by other users/);
    expect(r.no_node).toMatch(/^node \(Node\.js 20 or newer\) not found: looked on PATH .*\(nvm, fnm, volta/);
    expect(r.windows_line).toMatch(/^"C:\\Program Files\\nodejs\\node\.exe" /);
    expect(Object.keys(r.windows_refused)).toEqual(['evil.cmd', 'evil.bat', 'evil.CMD..', 'evil.ps1', 'evil']);
  }, 240_000);
});
