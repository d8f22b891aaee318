// Zips the Blender add-on: blender/dist/skate_collision-<version>.zip holding skate_collision/ (the package with its
// blender_manifest.toml, for Blender 4.2+ "Install from Disk", and bl_info for older loaders), the project's
// LICENSE and the compiler (skate_collision/compiler/: the bundled CLI, so that a Blender user needs only Node). Stored with a fixed date and sorted names, so the same sources give the same bytes; __pycache__ and
// .pyc are left out. Plain node (zlib's deflate and crc32), no dependency. Run: npm run blender:zip [-- --out F.zip]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACKAGE = join(ROOT, 'blender', 'skate_collision');

/** Where the zip carries the compiler, under the add-on's folder: `node compiler/compile-collision.mjs ARGS`. */
export const COMPILER_FOLDER = 'compiler';
export const COMPILER_ENTRY = 'compile-collision.mjs';

/** The add-on's version, from its blender_manifest.toml. */
export function addonVersion(): string {
  const m = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(PACKAGE, 'blender_manifest.toml'), 'utf8'));
  if (!m) throw new Error('blender-zip: blender/skate_collision/blender_manifest.toml: no version line');
  return m[1];
}

/**
 * [name in the zip, bytes] for every file the zip holds, sorted by name; with `compilerDir` (the folder
 * scripts/bundle-compiler.mjs writes), that folder's files as skate_collision/compiler/ (docs/blender-addon.md, "The
 * compiler in the zip").
 */
export function addonEntries(compilerDir?: string): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (name === '__pycache__' || name.endsWith('.pyc')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out.push([`skate_collision/${relative(PACKAGE, p).split(sep).join('/')}`, readFileSync(p)]);
    }
  };
  walk(PACKAGE);
  out.push(['skate_collision/LICENSE', readFileSync(join(ROOT, 'LICENSE'))]);
  if (compilerDir) for (const name of readdirSync(compilerDir)) out.push([`skate_collision/${COMPILER_FOLDER}/${name}`, readFileSync(join(compilerDir, name))]);
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** A zip (deflate) of the entries; every entry dated 1980-01-01 00:00. */
export function zipBytes(entries: [string, Buffer][]): Buffer {
  const DOS_TIME = 0, DOS_DATE = (0 << 9) | (1 << 5) | 1;
  const locals: Buffer[] = [], centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // -rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Writes the add-on's zip carrying the compiler folder `compilerDir`; returns the number of files and bytes. */
export function writeAddonZip(out: string, compilerDir: string): { files: number; bytes: number } {
  const entries = addonEntries(compilerDir);
  mkdirSync(dirname(out), { recursive: true });
  const bytes = zipBytes(entries);
  writeFileSync(out, bytes);
  return { files: entries.length, bytes: bytes.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? process.argv[i + 1] : join(ROOT, 'blender', 'dist', `skate_collision-${addonVersion()}.zip`);
  // The compiler the zip carries, bundled afresh from the sources (needs the wasm module: npm install builds it).
  // @ts-expect-error a plain-JavaScript build script, no declarations
  const { bundleCompiler } = await import('./bundle-compiler.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'sk8-compiler-'));
  await bundleCompiler(ROOT, dir);
  const { files, bytes } = writeAddonZip(out, dir);
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`wrote ${out}: ${files} files, ${bytes} bytes\n`);
}

