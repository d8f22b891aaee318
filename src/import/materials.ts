// Packed collision materials for imported objects.
// Spec: ../shared/spec/authoring-notes.md "Materials" and ../shared/data/collision_surface_catalog.json.
// Packing: bits 0–5 flags, bits 6–18 material slot, bits 19–31 property slot. The value written carries the
// physics-literal flag 0x20. A material slot outside the level's grid crashes the game on contact, so slots from
// BASE_GRID_SLOTS on are refused unless the caller allows custom slots.
import { SURFACE_CATALOG, type SurfaceCatalog } from '../format/material.ts';

// The base game's material grid: src/format/material-catalog.json, the source tree's one copy of the catalog.
export { SURFACE_CATALOG, type SurfaceCatalog };

/** The physics-literal flag every written material word carries. */
export const PHYSICS_LITERAL_FLAG = 0x20;
/** Material word of an object with no material. */
export const DEFAULT_MATERIAL = PHYSICS_LITERAL_FLAG;
/** Slots 0..115 exist in every level's MaterialIndexMap; maps that add surfaces append from 116. */
export const BASE_GRID_SLOTS = 116;
export const MATERIAL_SLOT_SHIFT = 6;
export const MATERIAL_SLOT_MASK = 0x1fff;
export const PROPERTY_SLOT_SHIFT = 19;

export const materialSlot = (packed: number): number => (packed >>> MATERIAL_SLOT_SHIFT) & MATERIAL_SLOT_MASK;
export const propertySlot = (packed: number): number => packed >>> PROPERTY_SLOT_SHIFT;

/**
 * ReSkate Studio's native surface presets: name → the packed word Studio writes for it (MaterialDecl.Packed, flag
 * 0x20 included). Source: ../shared/spec/public-facts.md "ReSkate Studio's native surface presets", where two
 * independent public ports that drive Studio list the same words (the GTA V port los-santos-reskate,
 * tools/gta-skate/Collision.cs; the GTA IV port ReSkateLibertyCity, contrib/liberty-city/liberty/studio.py). A map
 * author who types one of these names gets Studio's word, wherever names are read (glTF material names,
 * sk8_surface, the Blender add-on, the forge and YBN tables); every other name is derived from the catalog.
 * Three differ from the catalog derivation: earth (slot 54, not slot 3 property 3: 0x1800E0), plastic (slot 51, not
 * slot 8 property 8: 0x400220) and roofing (slot 35, a name the catalog spells roofing_asphalt).
 */
export const STUDIO_SURFACE_PRESETS: readonly (readonly [string, number])[] = [
  ['default', 0x20],
  ['concrete', 0x60],
  ['asphalt', 0xa0],
  ['metal', 0x160],
  ['wood', 0x1a0],
  ['marble', 0x1e0],
  ['grass', 0x260],
  ['brick', 0x7e0],
  ['glass', 0x860],
  ['earth', 0xda0],
  ['sand', 0x1320],
  ['gravel', 0x1360],
  ['plastic', 0xce0],
  ['rubber', 0x1020],
  ['metal_grate', 0x660],
  ['metal_thin', 0x6a0],
  ['roofing', 0x8e0],
  ['metal_rail', 0xba0],
  ['stairs', 0x2d00320],
];

/** The name a reader should see for a word: Studio's preset name, else the first surface-table name giving it. */
export function surfaceNameOfWord(word: number, table: ReadonlyMap<string, number> = buildSurfaceTable()): string | undefined {
  const w = word >>> 0;
  const studio = STUDIO_SURFACE_PRESETS.find(([, v]) => v === w);
  if (studio) return studio[0];
  for (const [name, v] of table) if (v === w) return name;
  return undefined;
}

/**
 * Surface names users write (glTF material names or extras sk8_surface) → packed word with the 0x20 flag.
 * Studio's presets (STUDIO_SURFACE_PRESETS) first decide; every other name is derived from the catalog: each
 * slot's sound id, lower-cased, names the first network value whose material slot is that slot (so water, whose
 * only grid entry carries property slot 30, gets 0x00F007A0). Extra names: stairs (the first value whose property
 * slot has the intrinsic "Stair"), round_rail (metal rail with the property slot that has
 * "IncludeInSurfaceAnalysis"), and short aliases (rail, stair, dirt, steel). The table keeps the catalog's order;
 * a Studio name the catalog does not derive (roofing) comes after the catalog's names.
 */
export function buildSurfaceTable(catalog: SurfaceCatalog = SURFACE_CATALOG): Map<string, number> {
  const values = catalog.networkIdToPackedMaterial;
  const firstWithSlot = (slot: number, prop?: number): number | undefined =>
    values.find((v) => materialSlot(v) === slot && (prop === undefined || propertySlot(v) === prop));
  const table = new Map<string, number>();
  catalog.materialSoundIds.forEach((sound, slot) => {
    if (!sound) return;
    const key = normaliseSurfaceName(sound);
    const value = firstWithSlot(slot);
    if (value !== undefined && !table.has(key)) table.set(key, (value | PHYSICS_LITERAL_FLAG) >>> 0);
  });
  const propWith = (name: string): number | undefined => {
    const hit = Object.entries(catalog.intrinsicProperties).find(([, names]) => names.includes(name));
    return hit ? Number(hit[0]) : undefined;
  };
  const stairProp = propWith('Stair');
  const stairs = stairProp === undefined ? undefined : values.find((v) => propertySlot(v) === stairProp);
  if (stairs !== undefined) table.set('stairs', (stairs | PHYSICS_LITERAL_FLAG) >>> 0);
  const railSlot = materialSlot(table.get('metal_rail') ?? 0);
  const roundProp = propWith('IncludeInSurfaceAnalysis');
  const round = roundProp === undefined ? undefined : firstWithSlot(railSlot, roundProp);
  table.set('round_rail', ((round ?? railSlot << MATERIAL_SLOT_SHIFT) | PHYSICS_LITERAL_FLAG) >>> 0);
  for (const [name, word] of STUDIO_SURFACE_PRESETS) table.set(name, word);
  for (const [alias, target] of SURFACE_ALIASES) {
    const v = table.get(target);
    if (v !== undefined && !table.has(alias)) table.set(alias, v);
  }
  return table;
}

/** Short names users expect, mapped onto surface names (dirt follows Studio's earth). */
const SURFACE_ALIASES: [string, string][] = [
  ['rail', 'metal_rail'],
  ['stair', 'stairs'],
  ['dirt', 'earth'],
  ['steel', 'metal'],
];

/**
 * "Concrete.001", "Metal Rail", "metal-rail" → "concrete", "metal_rail": lower case, Blender's ".NNN" duplicate
 * suffix dropped, spaces and hyphens as underscores.
 */
export function normaliseSurfaceName(name: string): string {
  return name.trim().replace(/\.\d{3,}$/, '').toLowerCase().replace(/[\s-]+/g, '_');
}

/** Parses an extras value given as a number, a decimal string or a 0x-hex string; undefined when not a u32. */
export function parsePackedMaterial(value: unknown): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*(0x[0-9a-f]+|\d+)\s*$/i.test(value)) n = Number(value.trim());
  else return undefined;
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) return undefined;
  return n;
}

/** Adds the physics-literal flag and refuses slots outside the base grid unless custom slots are allowed. */
/**
 * Where something is, for a message: a string, or an object whose toString() makes it (only when a message is
 * made: `${where}` in a template calls it).
 */
export type Place = string | { toString(): string };
export const placeText = (where: Place): string => String(where);

export function finalMaterialWord(packed: number, allowCustomSlots: boolean, where: Place): number {
  const word = (packed | PHYSICS_LITERAL_FLAG) >>> 0;
  const slot = materialSlot(word);
  if (slot >= BASE_GRID_SLOTS && !allowCustomSlots) {
    throw new Error(
      `materials: ${placeText(where)}: material 0x${word.toString(16)} uses material slot ${slot} ≥ ${BASE_GRID_SLOTS} ` +
        `(outside the base grid; crashes the game on contact unless the level adds it) — pass --allow-custom-slots ` +
        `if your level's MaterialIndexMap has it`,
    );
  }
  return word;
}
