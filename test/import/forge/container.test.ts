// The .forge container: forges written field by field (test/fixtures/forge.ts) with stored blocks and with LZO1X
// blocks made by lzop (a separate program), read back to the records; other algorithm bytes refused naming them;
// every truncated prefix and seeded mutations of a whole forge read or refused with a FormatError, never anything else.
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/format/cursor.ts';
import { readDataFile, readForge, readForgeIndex, readStreams } from '../../../src/import/forge/container.ts';
import { ac2DataFile, Bytes, boxBody, dataFile, dataFileStreams, forgeFile, lzopBlocks, section, sphereBody, storedBlocks, T, type FixtureRecord } from '../../fixtures/forge.ts';
import { prng } from '../../fixtures/meshes.ts';

const records: FixtureRecord[] = [
  { id: 0x101, type: T.SphereShape, name: 'ball', body: sphereBody([1, 2, 3], 0.5) },
  { id: 0x102, type: T.BoxShape, name: 'crate', body: boxBody([1, 1, 1]) },
  { id: 0x103, type: T.MeshShape, name: '', body: new Uint8Array(40).fill(7) },
];
const HAVE_LZOP = lzopBlocks(Uint8Array.of(1), 16) !== undefined;
const noWarn = (m: string): void => {
  throw new Error(`unexpected warning: ${m}`);
};

/** A version-25 forge: each data file moved 440 bytes after its indexed offset (the readers' header there). */
function withV25Prefix(f: Uint8Array): Uint8Array {
  const dv = new DataView(f.buffer, f.byteOffset);
  const block = Number(dv.getBigUint64(21 + 32, true));
  const table = Number(dv.getBigUint64(block + 8, true));
  const offset = Number(dv.getBigUint64(table, true));
  const g = new Uint8Array(f.length + 440);
  g.set(f.subarray(0, offset));
  g.set(f.subarray(offset), offset + 440);
  return g;
}

/** The forge's one index entry listed `n` times (the same offset and size), in a new index table and name table. */
function listedAgain(f: Uint8Array, n: number): Uint8Array {
  const dv = new DataView(f.buffer, f.byteOffset);
  const block = Number(dv.getBigUint64(21 + 32, true));
  const table = Number(dv.getBigUint64(block + 8, true));
  const names = Number(dv.getBigUint64(block + 32, true));
  const idx = new Bytes();
  for (let i = 0; i < n; i++) idx.raw(f.subarray(table, table + 8)).u32(i === 0 ? 7 : 1000 + i).raw(f.subarray(table + 12, table + 16));
  const nameTable = new Bytes();
  for (let i = 0; i < n; i++) nameTable.raw(i === 0 ? f.subarray(names, names + 188) : new Bytes().zeros(44).raw(new TextEncoder().encode('again')).zeros(123 + 16).done());
  const extra = new Bytes().raw(idx.done()).raw(nameTable.done()).done();
  const g = new Uint8Array(f.length + extra.length);
  g.set(f);
  g.set(extra, f.length);
  const gv = new DataView(g.buffer);
  gv.setUint32(block, n, true);
  gv.setBigUint64(block + 8, BigInt(f.length), true);
  gv.setBigUint64(block + 32, BigInt(f.length + 16 * n), true);
  return g;
}

describe('forge container', () => {
  it('reads the index and a stored data file back to its records (version 26)', () => {
    const f = forgeFile([{ id: 7, name: 'level_01', bytes: dataFile(records) }]);
    const idx = readForgeIndex(f, 'forge');
    expect(idx.version).toBe(26);
    expect(idx.entries).toHaveLength(1);
    expect(idx.entries[0]).toMatchObject({ id: 7n, name: 'level_01' });
    const c = readForge(f, 'forge', noWarn);
    expect(c.refused).toEqual([]);
    expect(c.dataFiles[0].generation).toBe('ac2');
    expect(c.dataFiles[0].records.map((r) => [r.id, r.type, r.name, r.body.length])).toEqual(records.map((r) => [BigInt(r.id), r.type, r.name, r.body.length]));
    expect(Buffer.from(c.dataFiles[0].records[1].body).equals(Buffer.from(records[1].body))).toBe(true);
  });

  it('holds only the bodies `keep` wants; the others are listed with an empty body or only counted', () => {
    const f = forgeFile([{ id: 7, name: 'level_01', bytes: dataFile(records) }]);
    const c = readForge(f, 'forge', noWarn, (t) => t === T.BoxShape || 'entry');
    expect(c.dataFiles[0].records.map((r) => [r.type, r.body.length])).toEqual([[T.SphereShape, 0], [T.BoxShape, records[1].body.length], [T.MeshShape, 0]]);
    // false: only counted by type, not listed.
    const d = readForge(f, 'forge', noWarn, (t) => t === T.BoxShape);
    expect(d.dataFiles[0].records.map((r) => r.type)).toEqual([T.BoxShape]);
    expect([...d.counted]).toEqual([[T.SphereShape, 1], [T.MeshShape, 1]]);
  });

  it.skipIf(!HAVE_LZOP)('reads LZO1X blocks made by lzop (several blocks per stream)', () => {
    const many: FixtureRecord[] = Array.from({ length: 300 }, (_, i) => ({ id: 0x1000 + i, type: T.SphereShape, name: `s${i}`, body: sphereBody([i, 0, 0], 1) }));
    const d = dataFile(many, 'lzo');
    const c = readForge(forgeFile([{ id: 9, name: 'lzo', bytes: d }]), 'forge', noWarn);
    expect(c.refused).toEqual([]);
    expect(c.dataFiles[0].records).toHaveLength(300);
    expect(c.dataFiles[0].records[299].name).toBe('s299');
    expect(d.length).toBeLessThan(dataFile(many).length / 2); // really compressed
  });

  it('follows the index block chain (a second block via the next pointer)', () => {
    const f = forgeFile([{ id: 1, name: 'a', bytes: dataFile(records.slice(0, 1)) }, { id: 2, name: 'b', bytes: dataFile(records.slice(1, 2)) }]);
    // Split the one block of two entries into two blocks of one: append a second block after the file.
    const dv = new DataView(f.buffer);
    const block = Number(dv.getBigUint64(21 + 32, true));
    const table = Number(dv.getBigUint64(block + 8, true));
    const names = Number(dv.getBigUint64(block + 32, true));
    const second = new Bytes().u32(1).u32(0).u64(table + 16).u64(0).zeros(8).u64(names + 188).u64(0).done();
    const g = new Uint8Array(f.length + second.length);
    g.set(f);
    g.set(second, f.length);
    const gv = new DataView(g.buffer);
    gv.setUint32(block, 1, true);
    gv.setBigUint64(block + 16, BigInt(f.length), true);
    expect(readForgeIndex(g, 'forge').entries.map((e) => e.name)).toEqual(['a', 'b']);
    gv.setBigUint64(f.length + 16, BigInt(block), true); // a cycle
    expect(() => readForgeIndex(g, 'forge')).toThrow(/index block chain returns to/);
  });

  it('version 25: the data file starts 440 bytes after its indexed offset', () => {
    const d = dataFile(records);
    const padded = new Uint8Array(440 + d.length);
    padded.set(d, 440);
    const f = forgeFile([{ id: 3, name: 'v25', bytes: padded }], 25);
    // The fixture indexes the padded size; the readers count the size from after the prefix.
    const dv = new DataView(f.buffer);
    const block = Number(dv.getBigUint64(21 + 32, true));
    const table = Number(dv.getBigUint64(block + 8, true));
    dv.setUint32(table + 12, d.length, true);
    const c = readForge(f, 'forge', noWarn);
    expect(c.refused).toEqual([]);
    expect(c.dataFiles[0].records).toHaveLength(3);
  });

  it('the AC1 generation: no prefix, no u16 list in the table of contents', () => {
    const toc = new Bytes().u16(1).u32(0x55).u32(13 + 1 + 10).done();
    const data = new Bytes().u32(0xabcdef).u32(10).u32(1).u8(0x41).u8(0).zeros(10).done();
    const d = new Bytes().raw(section(storedBlocks(toc))).raw(section(storedBlocks(data))).done();
    const c = readForge(forgeFile([{ id: 4, name: 'ac1', bytes: d }]), 'forge', noWarn);
    expect(c.dataFiles[0].generation).toBe('ac1');
    expect(c.dataFiles[0].records[0]).toMatchObject({ id: 0x55n, type: 0xabcdef, name: 'A' });
  });

  for (const [algorithm, name] of [[2, 'LZO2A'], [5, 'LZO1C'], [7, 'unknown']] as const) {
    it(`a compressed block with algorithm ${algorithm} is refused naming ${name}`, () => {
      const { toc, data } = dataFileStreams(records);
      const fake = (d: Uint8Array) => [{ raw: d.length + 5, packed: d }];
      const d = new Bytes().u32(0).raw(section(fake(toc), algorithm)).raw(section(fake(data), algorithm)).done();
      const c = readForge(forgeFile([{ id: 5, name: 'x', bytes: d }]), 'forge', noWarn);
      expect(c.dataFiles).toEqual([]);
      expect(c.refused[0].why).toMatch(new RegExp(`compression algorithm ${algorithm} \\(${name}\\) is not read: only LZO1X \\(0, 1\\) and stored blocks are`));
    });
  }
  it('stored blocks are read whatever the algorithm byte', () => {
    const c = readForge(forgeFile([{ id: 5, name: 'x', bytes: dataFile(records, 'stored', 2) }]), 'forge', noWarn);
    expect(c.dataFiles[0].records).toHaveLength(3);
  });

  it('a block table that decompresses past the cap is refused before anything is allocated', () => {
    const b = new Bytes().u8(0x33, 0xaa, 0xfb, 0x57, 0x99, 0xfa, 0x04, 0x10).u8(1, 0, 1, 0, 0x80).u16(0xffff).u16(0xffff);
    for (let i = 0; i < 0xffff; i++) b.u16(0xffff).u16(1);
    const d = new Bytes().u32(0).raw(b.done()).done();
    expect(() => readDataFile(d, 0, d.length, 'ac2', 'df', noWarn)).toThrow(/decompress to 4294836225 bytes, more than the \d+-byte cap/);
  });

  it('the table of contents must account for each record', () => {
    const { toc, data } = dataFileStreams(records);
    const s = new Uint8Array(toc.length + data.length);
    s.set(toc);
    s.set(data, toc.length);
    new DataView(s.buffer).setUint32(2 + 4, 5, true); // record 0's span
    // Neither AC2-generation layout fits: the reason for each is given.
    expect(() => readStreams(s, 'ac2', 'streams', noWarn)).toThrow(/the records fit neither AC2-generation layout: after the table and its counted byte block\(s\): .*; after the table with u16 lists: record 0 at 0x20: table of contents span 5 bytes, the record's header and body take 52/);
    // One layout (AC1): the record's own account.
    const ac1 = new Bytes().u16(1).u32(0x55).u32(5).raw(data.subarray(0, 52)).done();
    expect(() => readStreams(ac1, 'ac1', 'streams', noWarn)).toThrow(/record 0 \(0xfa3f7a18\): table of contents span 5 bytes, the record's header and body take 52 \(13-byte header \+ 4-byte name \+ 35-byte body\)/);
  });

  describe('the two AC2-generation layouts, detected from the records', () => {
    for (const version of [25, 26] as const) {
      it(`version ${version}: ACExplorer's layout (prefix, i16 entries, counted byte block${version === 26 ? 's' : ''} after the table)`, () => {
        const f = forgeFile([{ id: 7, name: 'ac2', bytes: ac2DataFile(records, { version }) }], version === 25 ? 26 : 26);
        // The fixture writer puts no 440-byte prefix; the version field alone decides the counted blocks.
        new DataView(f.buffer).setUint32(9, version, true);
        const g = version === 25 ? withV25Prefix(f) : f;
        const c = readForge(g, 'forge', noWarn);
        expect(c.refused).toEqual([]);
        expect(c.dataFiles[0]).toMatchObject({ generation: 'ac2', layout: 'counted' });
        expect(c.dataFiles[0].records.map((r) => [r.id, r.type, r.name, r.body.length])).toEqual(records.map((r) => [BigInt(r.id), r.type, r.name, r.body.length]));
        expect(Buffer.from(c.dataFiles[0].records[0].body).equals(Buffer.from(records[0].body))).toBe(true);
      });
    }
    it('check byte 1 with its 3 bytes and 12-byte list, and an empty prefix', () => {
      const c = readForge(forgeFile([{ id: 7, name: 'ac2', bytes: ac2DataFile(records, { prefix: 0, checkList: 3 }) }]), 'forge', noWarn);
      expect(c.refused).toEqual([]);
      expect(c.dataFiles[0].records.map((r) => r.name)).toEqual(['ball', 'crate', '']);
    });
    it('the layout with u16 lists after each entry still reads', () => {
      const c = readForge(forgeFile([{ id: 7, name: 'listed', bytes: dataFile(records) }]), 'forge', noWarn);
      expect(c.dataFiles[0]).toMatchObject({ generation: 'ac2', layout: 'listed' });
    });
    it('version 26 blocks read as version 25 (one counted block) fit no layout: refused naming both', () => {
      const f = forgeFile([{ id: 7, name: 'ac2', bytes: ac2DataFile(records, { version: 26 }) }]);
      new DataView(f.buffer).setUint32(9, 25, true);
      const c = readForge(withV25Prefix(f), 'forge', noWarn);
      expect(c.dataFiles).toEqual([]);
      expect(c.refused[0].why).toMatch(/fit neither AC2-generation layout/);
    });
  });

  it('a data file the index lists 1,000 times is decoded and read once', () => {
    const f = listedAgain(forgeFile([{ id: 7, name: 'level', bytes: dataFile(records) }]), 1000);
    const warnings: string[] = [];
    const c = readForge(f, 'forge', (m) => warnings.push(m));
    expect(c.dataFiles).toHaveLength(1);
    expect(c.repeated).toHaveLength(999);
    const { toc, data } = dataFileStreams(records);
    expect(c.decoded).toBe(toc.length + data.length);
    expect(warnings).toEqual([expect.stringMatching(/^forge: 999 index entries list a data file listed before \(e\.g\. data file 1001 "again" is data file 7 "level"\); read once$/)]);
  });

  it('a data file listed again is warned about once, its own oddities too', () => {
    const d = dataFile(records);
    const padded = new Uint8Array(d.length + 3);
    padded.set(d);
    const f = listedAgain(forgeFile([{ id: 7, name: 'level', bytes: padded }]), 50);
    const warnings: string[] = [];
    const c = readForge(f, 'forge', (m) => warnings.push(m));
    expect(c.repeated).toHaveLength(49);
    expect(warnings.filter((w) => w.includes('after the second section'))).toEqual(['forge: data file 7 "level": 3 byte(s) after the second section; ignored']);
    expect(warnings).toHaveLength(2);
  });

  it('what all data files decompress to is checked against a cap proportional to the file before any is decoded', () => {
    // 1,200 blocks that each claim 65,535 bytes from 1 packed byte: 78.6 MB from a ~14 KB file.
    const claim = (n: number): Uint8Array => {
      const b = new Bytes().u8(0x33, 0xaa, 0xfb, 0x57, 0x99, 0xfa, 0x04, 0x10).u8(1, 0, 1, 0, 0x80).u16(0xffff).u16(n);
      for (let i = 0; i < n; i++) b.u16(0xffff).u16(1);
      for (let i = 0; i < n; i++) b.u32(0).u8(0x11);
      return b.done();
    };
    const d = new Bytes().u32(0).raw(claim(1)).raw(claim(1200)).done();
    const f = forgeFile([{ id: 7, name: 'bomb', bytes: d }]);
    expect(() => readForge(f, 'forge', noWarn)).toThrow(new RegExp(`^forge: its 1 data file\\(s\\) decompress to ${1201 * 65535} bytes in all, more than the ${64 * 2 ** 20 + 32 * f.length}-byte cap for a ${f.length}-byte file \\(67108864 \\+ 32 × its size\\); refusing before decoding any$`));
  });

  it.skipIf(!HAVE_LZOP)('the records kept are capped in proportion to the file (identical records compress to almost nothing)', () => {
    // 60,000 identical spheres packed by lzop (65,535-byte blocks) into a file far under 320 KB, whose cap
    // (50,000 + size / 32) is under 60,000: refused with the cap and the file size; only counting them is not capped.
    const many: FixtureRecord[] = Array.from({ length: 60_000 }, () => ({ id: 0x10000, type: T.SphereShape, name: '', body: sphereBody([0, 0, 0], 1) }));
    const f = forgeFile([{ id: 7, name: 'spheres', bytes: dataFile(many, 'lzo', 1, 0xffff) }]);
    const cap = 50_000 + Math.floor(f.length / 32);
    expect(f.length).toBeLessThan(320_000);
    expect(() => readForge(f, 'forge', noWarn)).toThrow(new RegExp(`^forge: the data files list more than ${cap} records of the types the level reads \\(50000 \\+ one per 32 bytes of the ${f.length}-byte file\\); refusing$`));
    expect(readForge(f, 'forge', noWarn, () => false).counted.get(T.SphereShape)).toBe(60_000);
  });

  it('refuses a wrong magic and an unknown version', () => {
    const f = forgeFile([{ id: 1, name: 'a', bytes: dataFile(records) }]);
    const bad = f.slice();
    bad[0] = 0x53;
    expect(() => readForgeIndex(bad, 'forge')).toThrow(/expected the magic "scimitar"/);
    const v = f.slice();
    new DataView(v.buffer).setUint32(9, 30, true);
    expect(() => readForgeIndex(v, 'forge')).toThrow(/forge version 30 is not one of 25, 26, 27/);
  });
});

describe('forge container: hostile input', () => {
  const base = forgeFile([{ id: 7, name: 'level', bytes: dataFile(records) }, { id: 8, name: 'two', bytes: dataFile(records.slice(0, 2)) }]);
  const attempt = (b: Uint8Array, what: string): void => {
    try {
      readForge(b, 'forge', () => {});
    } catch (e) {
      expect(e, what).toBeInstanceOf(FormatError);
    }
  };
  it('every truncated prefix is read in part or refused with a FormatError', () => {
    for (let n = 0; n < base.length; n++) attempt(base.subarray(0, n), `prefix ${n}`);
    // A forge cut inside a data file still reads its index; the cut data file is refused and counted.
    const cut = readForge(base.subarray(0, base.length - 3), 'forge', () => {});
    expect(cut.refused.map((r) => r.entry.name)).toEqual(['two']);
    expect(cut.refused[0].why).toMatch(/runs past the end/);
  });
  const many: FixtureRecord[] = Array.from({ length: 40 }, (_, i) => ({ id: 0x1000 + i, type: T.SphereShape, name: `s${i}`, body: sphereBody([i, 0, 0], 1) }));
  it.skipIf(!HAVE_LZOP)('every truncated prefix and 1,000 mutations of an LZO1X forge: read or FormatError', () => {
    const lzo = forgeFile([{ id: 7, name: 'lzo', bytes: dataFile(many, 'lzo') }]);
    for (let n = 0; n < lzo.length; n++) attempt(lzo.subarray(0, n), `prefix ${n}`);
    const rand = prng(2728);
    for (let i = 0; i < 1000; i++) {
      const b = lzo.slice();
      b[Math.floor(rand() * b.length)] ^= 1 << Math.floor(rand() * 8);
      attempt(b, `mutation ${i}`);
    }
  });
  it('2,000 seeded mutations are read or refused with a FormatError', () => {
    const rand = prng(2727);
    const words = [0, 1, 2, 0xff, 0xffff, 0x7fffffff, 0xffffffff];
    for (let i = 0; i < 2000; i++) {
      const b = base.slice();
      const dv = new DataView(b.buffer);
      for (let s = 0, n = 1 + Math.floor(rand() * 3); s < n; s++) {
        const at = Math.floor(rand() * b.length);
        if (rand() < 0.5) b[at] ^= 1 << Math.floor(rand() * 8);
        else if (at + 4 <= b.length) dv.setUint32(at, words[Math.floor(rand() * words.length)], true);
      }
      attempt(b, `mutation ${i}`);
    }
  });
});
