// Seeded mutation fuzzing of whole .forge files, shared by test/import/forge/fuzz.test.ts (a short run in the
// suite) and scripts/fuzz.ts --forge (long runs): each input is read and placed by the importer's two stages
// (readForgeRecords, placeForgeLevel) and must build finite objects or be refused with an Error carrying the forge
// stage — never a TypeError, a RangeError, or anything slow.
import { placeForgeLevel, readForgeRecords } from '../../../src/import/forge/index.ts';
import { SharedArena } from '../../../src/import/shared-arena.ts';
import { ac2DataFile, boxBody, dataFile, forgeFile, genericEntityBody, IDENTITY4, linkingEntity, lzopBlocks, placedLevel, refListBody, rotZ, sphereBody, T, translate, unityDataFile, type FixtureRecord } from '../../fixtures/forge.ts';

const STAGE = 'forge: fuzz.forge';
/** One arena for every iteration (a build's first object otherwise allocates a 4 MiB chunk). */
const arena = new SharedArena();
const INTERESTING = [0, 1, 2, 3, 5, 6, 8, 9, 10, 16, 26, 27, 0x7f, 0x80, 0xff, 0x100, 0x3f800000, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];

/** 1–3 mutations: bit flips, bytes, interesting u16/u32 (aligned or not), truncation, a copied run, a filled run. */
export function mutateForge(base: Uint8Array, rand: () => number): Uint8Array {
  let b = base.slice();
  const int = (n: number): number => Math.floor(rand() * n);
  const steps = 1 + int(3);
  for (let s = 0; s < steps && b.length > 0; s++) {
    const dv = new DataView(b.buffer);
    const at = int(b.length);
    switch (int(8)) {
      case 0:
        b[at] ^= 1 << int(8);
        break;
      case 1:
        b[at] = int(256);
        break;
      case 2:
      case 3: {
        const p = rand() < 0.5 ? at & ~3 : at;
        if (p + 4 <= b.length) dv.setUint32(p, rand() < 0.7 ? INTERESTING[int(INTERESTING.length)] : dv.getUint32(p, true) + int(9) - 4, true);
        break;
      }
      case 4:
        if (at + 2 <= b.length) dv.setUint16(at, INTERESTING[int(INTERESTING.length)] & 0xffff, true);
        break;
      case 5:
        b = b.slice(0, at);
        break;
      case 6:
        b.copyWithin(at, int(b.length), int(b.length) + 1 + int(64));
        break;
      default:
        b.fill(rand() < 0.5 ? 0 : 0xff, at, at + 1 + int(16));
    }
  }
  return b;
}

export interface ForgeFuzzStats {
  built: number;
  refused: number;
  failures: string[];
  slowest: number;
}

/** Reads and places one input; a refusal must be an Error with the stage prefix, a build finite objects. */
export function checkForge(bytes: Uint8Array, stats: ForgeFuzzStats, what: string): void {
  const t0 = performance.now();
  try {
    const read = readForgeRecords(bytes, STAGE, { warn: () => {} });
    const r = placeForgeLevel(read, { stem: 'fuzz', stage: STAGE, chordError: 0.5, nativeShapes: false, materials: {}, logger: { warn: () => {} }, arena });
    for (const o of r.objects) {
      if (!o.positions.every(Number.isFinite)) stats.failures.push(`${what}: ${o.name}: a non-finite position`);
    }
    stats.built++;
  } catch (e) {
    const m = (e as Error).message;
    if (e instanceof Error && m.startsWith(`${STAGE}: `) && !(e instanceof TypeError) && !(e instanceof RangeError)) stats.refused++;
    else stats.failures.push(`${what}: ${(e as Error).name}: ${m}`);
  }
  stats.slowest = Math.max(stats.slowest, performance.now() - t0);
}

const nested: FixtureRecord[] = [
  { id: 0x100, type: T.SphereShape, name: 'b', body: sphereBody([0, 0, 0], 0.5) },
  { id: 0x101, type: T.ReferenceListShape, name: 'l1', body: refListBody([0x100, 0x100, 0x100], [translate(0, 0, 0), translate(2, 0, 0), translate(4, 0, 0)], [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]) },
  { id: 0x102, type: T.ReferenceListShape, name: 'l2', body: refListBody([0x101, 0x101], [IDENTITY4, translate(0, 5, 0)], [[1, 1, 1, 1], [1, 1, 1, 1]]) },
  { id: 0x10, type: T.Entity, name: 'e', body: linkingEntity(0x10, rotZ(30, [1, 2, 3]), [0x102]) },
];
const lzo = lzopBlocks(Uint8Array.of(1), 16) !== undefined ? dataFile(placedLevel(), 'lzo') : undefined;
/** The corpus: forges in each layout (the LZO1X one when lzop is installed). */
export const FORGE_FUZZ_BASES: [string, Uint8Array][] = [
  ['listed layout', forgeFile([{ id: 1, name: 'level', bytes: dataFile(placedLevel()) }])],
  ['ACExplorer AC2 layout, version 26', forgeFile([{ id: 1, name: 'level', bytes: ac2DataFile(placedLevel()) }, { id: 2, name: 'nest', bytes: ac2DataFile(nested, { checkList: 1 }) }])],
  ['Unity, version 27', forgeFile([{ id: 0x77n << 32n, name: 'u', bytes: unityDataFile([
    { id: 0x99n << 32n, type: T.Entity, name: 'gate', body: genericEntityBody(rotZ(90, [1, 2, 3]), { linkIds: [0x5n] }) },
    { id: 0x5n, type: T.BoxShape, name: 'post', body: boxBody([0.5, 1, 2]) },
  ]) }], 27)],
  ...(lzo ? [['LZO1X blocks', forgeFile([{ id: 1, name: 'lzo', bytes: lzo }])] as [string, Uint8Array]] : []),
];

