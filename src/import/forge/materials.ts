// CollisionMaterial references → skate. surfaces. A shape's material is a reference (forge-shapes.md: "ref
// CollisionMaterial") to a CollisionMaterial record; its class layout is not in the specs, so only the record's
// name (from the data file's records stream) is used: first the --forge-materials override file (name or id →
// surface), then the documented keyword table below (docs/forge.md "Materials"), else the default surface 0x20
// with one warning per material. No real forge file was available: the keywords are a starting point, not a
// census of Shaun White Skateboarding's material names.
import { readRegularFile } from '../../files.ts';
import { buildSurfaceTable, DEFAULT_MATERIAL, normaliseSurfaceName } from '../materials.ts';

/** Keyword (matched case-insensitively anywhere in the material's name) → surface, first match wins. */
export const FORGE_MATERIAL_KEYWORDS: readonly (readonly [string, string])[] = [
  ['asphalt', 'asphalt'],
  ['tarmac', 'asphalt'],
  ['concrete', 'concrete'],
  ['cement', 'concrete'],
  ['pavement', 'concrete'],
  ['brick', 'brick'],
  ['marble', 'marble'],
  ['granite', 'marble'],
  ['rock', 'bedrock'],
  ['stone', 'concrete_rough'],
  ['rail', 'metal_rail'],
  ['grate', 'metal_grate'],
  ['chainlink', 'chainlink_fence'],
  ['fence', 'chainlink_fence'],
  ['metal', 'metal'],
  ['steel', 'metal'],
  ['iron', 'metal'],
  ['wood', 'wood'],
  ['plank', 'wood'],
  ['grass', 'grass'],
  ['dirt', 'earth'],
  ['mud', 'earth'],
  ['earth', 'earth'],
  ['soil', 'earth'],
  ['sand', 'sand'],
  ['gravel', 'gravel'],
  ['glass', 'glass'],
  ['water', 'water'],
  ['plastic', 'plastic'],
  ['rubber', 'rubber'],
  ['cloth', 'cloth'],
  ['fabric', 'cloth'],
  ['cardboard', 'cardboard'],
];

/** A map file's entries: material name (exact, case-insensitive) or id ("0x…" or decimal) → surface name. */
export type ForgeMaterialMap = Record<string, string>;

/** Largest --forge-materials file read (bytes): a map of a few hundred names is a few KB. */
export const MAX_MAP_BYTES = 1 << 20;

/** Reads and checks a --forge-materials file: a JSON object of strings, every surface a known one. */
export function readForgeMaterialMap(file: string): ForgeMaterialMap {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(readRegularFile(file, MAX_MAP_BYTES, 'error', 'a --forge-materials map (MAX_MAP_BYTES, 1 MiB)')).toString('utf8'));
  } catch (e) {
    throw new Error(`forge-materials: ${file}: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`forge-materials: ${file}: expected a JSON object of "material name or id": "surface"`);
  const table = buildSurfaceTable();
  const out: ForgeMaterialMap = Object.create(null);
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v !== 'string') throw new Error(`forge-materials: ${file}: "${k}": expected a surface name, found ${JSON.stringify(v).slice(0, 80)}`);
    // A surface is read as a glTF material name is ("Earth", "Metal Rail", "roofing.001"), so Studio's names mean
    // Studio's words here too; a hex id as the lookup spells it (0x1a2b), whatever zeros or case the map used.
    const surface = normaliseSurfaceName(v);
    if (!table.has(surface)) throw new Error(`forge-materials: ${file}: "${k}": "${v}" is not a skate. surface (${[...table.keys()].slice(0, 8).join(', ')}, …)`);
    const key = k.trim().toLowerCase();
    out[/^0x[0-9a-f]+$/.test(key) ? `0x${BigInt(key).toString(16)}` : key] = surface;
  }
  return out;
}

/** Resolves material references to packed material words, warning once per unmapped material. */
export class ForgeMaterials {
  private table = buildSurfaceTable();
  private words = new Map<string, number>();

  constructor(
    private names: ReadonlyMap<bigint, string>,
    private map: ForgeMaterialMap,
    private warn: (m: string) => void,
    private stage: string,
  ) {}

  word(id: bigint, where: string): number {
    const key = id.toString();
    const known = this.words.get(key);
    if (known !== undefined) return known;
    const name = this.names.get(id);
    const hexId = `0x${id.toString(16)}`;
    const surface = this.map[hexId] ?? this.map[key] ?? (name !== undefined ? this.map[name.toLowerCase()] ?? keyword(name) : undefined);
    let w = surface ? this.table.get(surface) : undefined;
    if (w === undefined) {
      const what = id === 0n
        ? 'no CollisionMaterial reference'
        : name === undefined ? `CollisionMaterial ${hexId} is not among the level's records` : `CollisionMaterial ${hexId} "${name}" matches no entry of --forge-materials or the keyword table`;
      this.warn(`${this.stage}: ${where}: ${what}; using the default surface 0x${DEFAULT_MATERIAL.toString(16)}`);
      w = DEFAULT_MATERIAL;
    }
    this.words.set(key, w);
    return w;
  }
}

function keyword(name: string): string | undefined {
  const n = name.toLowerCase();
  return FORGE_MATERIAL_KEYWORDS.find(([k]) => n.includes(k))?.[1];
}
