// Placements from CodeWalker's `.ymap.xml` (<CMapData><entities><Item type="CMloInstanceDef" | "CEntityDef">): an
// MLO interior's collision (`v_*.ybn`, `*_col.ybn`, `*_int.ybn`) is stored in the interior's own space and the
// game puts it where the map's instance says . Static map YBN is world space and needs none.
// Rotation convention (CodeWalker's YmapEntityDef, which draws interiors where the game has them): a CEntityDef
// stores the inverse (conjugate) of its world orientation; a CMloInstanceDef stores the orientation itself.
// Scale: a CEntityDef's scaleXY/scaleZ apply; an MLO instance is never scaled by the game (its values are ignored).
import { basename } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { quatToMat3, type Quat } from '../../shapes/index.ts';
import { checkXmlSize, echo } from './xml.ts';

export type Vec3 = [number, number, number];

/** A YBN file's stem (index.ts's ybnStem; repeated here so this module does not import the importer). */
const ybnStem = (file: string): string => basename(file).replace(/\.ybn(\.xml)?$/i, '');

export interface Placement {
  /** The .ymap.xml it came from (its file name), and the entity's index in <entities>. */
  ymap: string;
  index: number;
  kind: 'CMloInstanceDef' | 'CEntityDef';
  archetype: string;
  position: Vec3;
  /** As stored (x, y, z, w). */
  rotation: Quat;
  /** World orientation (normalised): the stored one for an MLO instance, its conjugate for an entity. */
  orientation: Quat;
  /** p ↦ R·(s ∘ p) + t as 12 numbers (axis images, translation), the composite-transform layout. */
  transform: Float64Array;
}

/** `.ymap.xml` (any case). */
export const isYmapXmlPath = (file: string): boolean => /\.ymap\.xml$/i.test(file);
/** A binary `.ymap` (the game's RSC7 form; any case). */
export const isYmapBinaryPath = (file: string): boolean => /\.ymap$/i.test(file);
/** Either form of a map placement file. */
export const isYmapPath = (file: string): boolean => isYmapXmlPath(file) || isYmapBinaryPath(file);

/** Names of interior collision: `v_*`, `*_col`, `*_int` (and `*_int_01`…) by file stem. */
export const looksInterior = (file: string): boolean => /^v_|_col$|_int(_\d+)?$/i.test(ybnStem(file));

/** GTA V's name hash (Jenkins one-at-a-time over the lower-cased name), as CodeWalker writes `hash_XXXXXXXX`. */
export function joaat(name: string): number {
  let h = 0;
  for (const ch of name.toLowerCase()) {
    h = (h + (ch.codePointAt(0)! & 0xff)) >>> 0;
    h = (h + (h << 10)) >>> 0;
    h = (h ^ (h >>> 6)) >>> 0;
  }
  h = (h + (h << 3)) >>> 0;
  h = (h ^ (h >>> 11)) >>> 0;
  return (h + (h << 15)) >>> 0;
}

/**
 * Longest run without a newline, `<`, `>` or quote in a .ymap.xml: more than a .ybn.xml's, since CodeWalker writes
 * some arrays (LOD lights) as long rows of numbers; still bounds the parser's memory (~35 bytes per byte of a run).
 */
export const MAX_YMAP_RUN_CHARS = 1 << 20;

/** Most entities one .ymap.xml may hold (the game's largest maps hold a few thousand). */
export const MAX_YMAP_ENTITIES = 200_000;

type Raw = Record<string, unknown>;

/** Reads the placements of a `.ymap.xml` text. Throws `ymap-xml: <file>: …` naming the entity and value. */
export function readYmapXml(text: string, file: string): Placement[] {
  const stage = `ymap-xml: ${file}`;
  checkXmlSize(text, stage, MAX_YMAP_RUN_CHARS);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    // fast-xml-parser reports a file cut short as "Invalid '[ "a", "b" ]' found." (the open elements): say that.
    const open = /^Invalid '\[([^\]]*)\]' found/.exec(valid.err.msg);
    const names = open ? [...open[1].matchAll(/"([^"]*)"/g)].map((m) => `<${m[1].slice(0, 40)}>`) : [];
    const why = names.length ? `the file ends inside ${names.slice(-4).join(' ')} (not closed: cut short?)` : valid.err.msg.slice(0, 320);
    throw new Error(`${stage}: not well-formed XML at line ${valid.err.line}, column ${valid.err.col}: ${why}`);
  }
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false, processEntities: false, isArray: (name) => name === 'Item' }).parse(text) as Raw;
  const map = doc.CMapData as Raw | undefined;
  if (!map || typeof map !== 'object') throw new Error(`${stage}: no <CMapData> root element (CodeWalker's .ymap.xml)`);
  const items = ((map.entities as Raw | undefined)?.Item as Raw[] | undefined) ?? [];
  if (items.length > MAX_YMAP_ENTITIES) throw new Error(`${stage}: ${items.length} entities, more than ${MAX_YMAP_ENTITIES}`);
  const out: Placement[] = [];
  items.forEach((item, index) => {
    const kind = item.type;
    if (kind !== 'CMloInstanceDef' && kind !== 'CEntityDef') return; // other entity kinds place no YBN
    const where = `${stage}: entity ${index} (${kind})`;
    const name = item.archetypeName;
    const archetype = typeof name === 'string' ? name.trim() : '';
    if (archetype === '') throw new Error(`${where}: no <archetypeName>`);
    const num = (el: unknown, k: string, what: string, fallback?: number): number => {
      const raw = (el as Raw | undefined)?.[k];
      if (raw === undefined && fallback !== undefined) return fallback;
      const v = Number(typeof raw === 'string' ? raw.trim() : NaN);
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(v)) throw new Error(`${where} "${archetype.slice(0, 80)}": <${what}> ${k} ${echo(String(raw))} is not a finite number`);
      return v;
    };
    const position = (['x', 'y', 'z'] as const).map((k) => num(item.position, k, 'position')) as Vec3;
    const rotation = (['x', 'y', 'z', 'w'] as const).map((k) => num(item.rotation, k, 'rotation', k === 'w' ? 1 : 0)) as Quat;
    const sxy = kind === 'CEntityDef' ? num(item.scaleXY, 'value', 'scaleXY', 1) : 1;
    const sz = kind === 'CEntityDef' ? num(item.scaleZ, 'value', 'scaleZ', 1) : 1;
    out.push(makePlacement(file, index, kind, archetype, position, rotation, sxy, sz, `${where} "${archetype.slice(0, 80)}": <rotation>`));
  });
  return out;
}

/**
 * One placement from an entity's stored fields (both .ymap forms): the orientation by the rotation convention above,
 * the scale for a CEntityDef only. Throws `<where> is a zero quaternion`.
 */
export function makePlacement(file: string, index: number, kind: Placement['kind'], archetype: string, position: Vec3, rotation: Quat, scaleXY: number, scaleZ: number, where: string): Placement {
  const n = Math.hypot(...rotation);
  if (!(n > 0)) throw new Error(`${where} is a zero quaternion`);
  const q = rotation.map((v) => v / n) as Quat;
  const orientation: Quat = kind === 'CMloInstanceDef' ? q : [-q[0], -q[1], -q[2], q[3]];
  const s = kind === 'CEntityDef' ? [scaleXY, scaleXY, scaleZ] : [1, 1, 1];
  const r = quatToMat3(orientation);
  const transform = new Float64Array(12);
  for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) transform[3 * c + k] = r[3 * c + k] * s[c];
  transform.set(position, 9);
  return { ymap: basename(file), index, kind, archetype, position, rotation, orientation, transform };
}

/** Does this placement's archetype name this YBN file: the stem, the stem without `_col`, or their `hash_XXXXXXXX`? */
export function namesFile(p: Placement, file: string): boolean {
  const stem = ybnStem(file).toLowerCase();
  const names = [stem, stem.replace(/_col$/, '')];
  const a = p.archetype.toLowerCase();
  const hash = /^hash_([0-9a-f]{8})$/.exec(a);
  if (hash) return names.some((n) => joaat(n) === parseInt(hash[1], 16));
  return names.includes(a);
}

/**
 * Placements per YBN file, and the interior placements (CMloInstanceDef) that name none of them. A CEntityDef that
 * names no YBN is ordinary (a prop: its collision is in its drawable), counted, not listed.
 */
export function matchPlacements(files: string[], placements: Placement[]): { byFile: Map<string, Placement[]>; unmatched: Placement[]; unmatchedEntities: number } {
  const byFile = new Map<string, Placement[]>(files.map((f) => [f, []]));
  const unmatched: Placement[] = [];
  let unmatchedEntities = 0;
  for (const p of placements) {
    const hits = files.filter((f) => namesFile(p, f));
    for (const f of hits) byFile.get(f)!.push(p);
    if (hits.length === 0) {
      if (p.kind === 'CMloInstanceDef') unmatched.push(p);
      else unmatchedEntities++;
    }
  }
  return { byFile, unmatched, unmatchedEntities };
}

/** "v_skate" (CMloInstanceDef 3 in map.ymap.xml at (100, 200, 10)). */
export const placementText = (p: Placement): string =>
  `"${p.archetype.slice(0, 80)}" (${p.kind} ${p.index} in ${p.ymap} at (${p.position.map((v) => +v.toPrecision(7)).join(', ')}))`;
