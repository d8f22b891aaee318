// Inputs are read only from where the level lives, only as regular files, never past what the format allows
// (src/files.ts: inputs confined to the level).
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLevel } from '../../src/build/compile.ts';
import { MAX_RESOURCE_BYTES, READ_CHUNK, readInto, readRegularFile, resolveUri } from '../../src/files.ts';
import { importGltf, IMPORT_DEFAULTS } from '../../src/import/gltf.ts';
import { tempDir } from '../fixtures/levels.ts';
import { glbBytes, triangleBin, triangleJson } from '../fixtures/gltf-raw.ts';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const tmp = tempDir('sk8-inputs-');
afterAll(tmp.cleanup);
const quiet = { logger: { warn: () => {} } };
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: tmp.dir, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 60_000, env: { ...process.env, CI: '1' } });

/** A .gltf in dir whose one buffer has the given uri (and an image pointing outside, never read). */
function gltfWithUri(dir: string, name: string, uri: string): string {
  mkdirSync(dir, { recursive: true });
  const json = triangleJson();
  delete json.scene;
  json.buffers[0].uri = uri;
  json.images = [{ uri: '../../../../etc/shadow.png' }];
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(json));
  return path;
}

const level = join(tmp.dir, 'level');
const secret = join(tmp.dir, 'secret.bin'); // outside the level's directory, 48 bytes a build would accept
writeFileSync(secret, triangleBin());

describe('buffer URIs are confined to the glTF directory', () => {
  const outside: [string, string][] = [
    ['a relative path up and out', '../../../../etc/passwd'],
    ['an absolute path', '/etc/passwd'],
    ['percent-encoded ../', '..%2F..%2F..%2F..%2Fetc%2Fpasswd'],
    ['percent-encoded dots', '%2e%2e/secret.bin'],
    ['a file one level up', '../secret.bin'],
  ];
  for (const [title, uri] of outside) {
    it(`refuses ${title} (${uri}), naming the buffer, with none of its bytes in the message`, async () => {
      const input = gltfWithUri(level, `out-${title.replace(/\W+/g, '-')}.gltf`, uri);
      const err = await compileLevel(input, { out: join(tmp.dir, 'never') }, quiet).then(() => undefined, (e: Error) => e);
      expect(err?.message).toMatch(new RegExp(`^gltf: .*: buffer 0 "${uri.replace(/[.%/]/g, '\\$&')}": resolves to .*, outside the glTF's directory .*level; refusing to read it \\(--allow-outside-uris reads it\\)$`));
      expect(err?.message).not.toMatch(/index|root:/);
      expect(existsSync(join(tmp.dir, 'never'))).toBe(false);
    });
  }
  it('refuses a symbolic link inside the directory that points out of it', async () => {
    symlinkSync(secret, join(level, 'linked.bin'));
    await expect(compileLevel(gltfWithUri(level, 'link.gltf', 'linked.bin'), { out: join(tmp.dir, 'never') }, quiet)).rejects.toThrow(/buffer 0 "linked\.bin": resolves to .*secret\.bin, outside/);
  });
  it('refuses URLs with a scheme', async () => {
    await expect(compileLevel(gltfWithUri(level, 'url.gltf', 'file:///etc/passwd'), { out: join(tmp.dir, 'never') }, quiet)).rejects.toThrow(/buffer 0 "file:\/\/\/etc\/passwd": URI scheme "file:" is not read/);
  });
  it('reads files inside it: a subfolder, percent-encoded names', async () => {
    mkdirSync(join(level, 'bins dir'), { recursive: true });
    writeFileSync(join(level, 'bins dir/tri.bin'), triangleBin());
    const r = await compileLevel(gltfWithUri(level, 'sub.gltf', 'bins%20dir/tri.bin'), { out: join(tmp.dir, 'sub-out') }, quiet);
    expect(r.manifest.totals['collision-triangles']).toBe(1);
  });
  it('--allow-outside-uris reads what the user allows (CLI); without it the CLI exits 1 naming the buffer', () => {
    gltfWithUri(level, 'shared.gltf', '../secret.bin');
    const refused = cli('level/shared.gltf', '-o', 'shared-out');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/buffer 0 "\.\.\/secret\.bin": resolves to .*secret\.bin, outside the glTF's directory/);
    const allowed = cli('level/shared.gltf', '-o', 'shared-out', '--allow-outside-uris');
    expect(allowed.stderr).toBe('');
    expect(allowed.status).toBe(0);
    expect(JSON.parse(readFileSync(join(tmp.dir, 'shared-out/manifest.json'), 'utf8')).totals['collision-triangles']).toBe(1);
  });
  it('resolveUri: percent-decoding before the check; bad encoding is an error', () => {
    expect(() => resolveUri(level, '%E0%A4%A', 'buffer 0', false)).toThrow(/buffer 0: URI is not valid percent-encoding/);
    expect(() => resolveUri(level, 'a%00b', 'buffer 0', false)).toThrow(/NUL/);
    expect(resolveUri(level, '../x', 'buffer 0', true)).toBe(join(tmp.dir, 'x'));
  });
});

describe('a .glb naming other files', () => {
  it('is refused naming the buffer, and the file is not read', async () => {
    const json = JSON.stringify({ asset: { version: '2.0' }, buffers: [{ byteLength: 48, uri: '../../../../etc/passwd' }] }).padEnd(96, ' ');
    writeFileSync(join(level, 'external.glb'), glbBytes(json));
    await expect(compileLevel(join(level, 'external.glb'), { out: join(tmp.dir, 'never') }, quiet)).rejects.toThrow(
      /^gltf: .*external\.glb: buffer 0 "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd": a \.glb's buffers are read from the file itself, not from other files/,
    );
  });
});

describe('only regular files, never more bytes than the format allows', () => {
  it('a buffer URI naming /dev/zero is refused, not read (even with --allow-outside-uris)', async () => {
    const input = gltfWithUri(level, 'zero.gltf', '/dev/zero');
    await expect(compileLevel(input, { out: join(tmp.dir, 'never') }, quiet)).rejects.toThrow(/outside the glTF's directory/);
    await expect(compileLevel(input, { out: join(tmp.dir, 'never'), allowOutsideUris: true }, quiet)).rejects.toThrow(/buffer 0 "\/dev\/zero": a character device, not a regular file; refusing to read it/);
  });
  it('a FIFO inside the directory is refused at once (no wait for a writer)', async () => {
    execFileSync('mkfifo', [join(level, 'pipe.bin')]);
    await expect(compileLevel(gltfWithUri(level, 'fifo.gltf', 'pipe.bin'), { out: join(tmp.dir, 'never') }, quiet)).rejects.toThrow(/buffer 0 "pipe\.bin": a FIFO \(named pipe\), not a regular file/);
  });
  it('a buffer file longer than its byteLength is read only up to byteLength', async () => {
    writeFileSync(join(level, 'long.bin'), triangleBin());
    truncateSync(join(level, 'long.bin'), 256 << 20); // a sparse 256 MiB tail
    const r = await importGltf(gltfWithUri(level, 'long.gltf', 'long.bin'), IMPORT_DEFAULTS, quiet.logger);
    expect(Math.max(...r.inputBytes.slice(1).map((b) => b.byteLength))).toBe(48);
  });
  it('the level itself must be a regular file', async () => {
    await expect(compileLevel('/dev/zero', { out: join(tmp.dir, 'never') }, quiet)).rejects.toThrow(/^gltf: \/dev\/zero: a character device, not a regular file/);
  });
  it('--studio-template /dev/zero is refused', async () => {
    await expect(compileLevel(gltfWithUri(level, 'tpl.gltf', 'long.bin'), { out: join(tmp.dir, 'never'), studioTemplate: '/dev/zero' }, quiet)).rejects.toThrow(/template: \/dev\/zero: a character device, not a regular file/);
  });
  it('inspect and verify refuse /dev/zero and a file larger than any PhysicsResource (CLI)', () => {
    const huge = join(tmp.dir, 'huge.physics');
    // A resource's version and magic, then a sparse tail past the cap (no disk used): refused by its size, unread.
    const head = Buffer.alloc(8);
    head.writeUInt32LE(2, 0);
    head.writeUInt32LE(0x69af7015, 4);
    writeFileSync(huge, head);
    truncateSync(huge, MAX_RESOURCE_BYTES + 1);
    // Zeros past the cap: refused from their first bytes, as not a PhysicsResource at all.
    const zeros = join(tmp.dir, 'zeros.physics');
    writeFileSync(zeros, '');
    truncateSync(zeros, MAX_RESOURCE_BYTES + 1);
    const expected: Record<string, RegExp> = {
      '/dev/zero': /\/dev\/zero: .*a character device, not a regular file/,
      'huge.physics': /huge\.physics: .*1073741825 bytes, more than any PhysicsResource \(MAX_RESOURCE_BYTES, 1 GiB\)/,
      'zeros.physics': /zeros\.physics: (open: )?not a PhysicsResource \(1073741825 bytes; a PhysicsResource starts with version 2/,
    };
    for (const file of Object.keys(expected)) {
      for (const command of ['inspect', 'verify']) {
        const r = cli(command, file);
        expect(r.status, `${command} ${file}`).toBe(1);
        expect(r.stderr, `${command} ${file}`).toMatch(expected[file]);
      }
    }
  });
  it('readRegularFile: the cap refuses or truncates as asked', () => {
    const p = join(tmp.dir, 'ten.bin');
    writeFileSync(p, '0123456789');
    expect(() => readRegularFile(p, 9)).toThrow(/10 bytes, more than 9 bytes/);
    expect(Buffer.from(readRegularFile(p, 4, 'truncate')).toString()).toBe('0123');
    expect(readRegularFile(p, 10).byteLength).toBe(10);
  });
  it('readInto reads a file whole in chunks (READ_CHUNK below the 2 GiB Node refuses in one read)', () => {
    expect(READ_CHUNK).toBeLessThan(2 ** 31);
    const p = join(tmp.dir, 'chunks.bin');
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff);
    writeFileSync(p, bytes);
    const fd = openSync(p, 'r');
    try {
      const out = new Uint8Array(1000);
      expect(readInto(fd, out, 1000, 7)).toBe(1000);
      expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });
});
