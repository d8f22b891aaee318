// Packed physics material (part + 0x40): ../shared/spec/authoring-notes.md, "Materials". Bits 0-5 flags (0x20 the
// physics-literal flag), bits 6-18 material slot, bits 19-31 property slot. Names come from material-catalog.json,
// the source tree's one copy of ../shared/data/collision_surface_catalog.json (the base game's material grid,
// verbatim), copied so the package never reads outside itself at run time; src/import/materials.ts reads it here.
import catalogJson from './material-catalog.json' with { type: 'json' };

/** Shape of the catalog fields the compiler reads. */
export interface SurfaceCatalog {
  packing: { flagMask: number; physicsLiteralFlags: number; materialSlotShift: number; materialSlotMask: number; propertySlotShift: number };
  /** Sound id per material slot (null where the grid has none). */
  materialSoundIds: (string | null)[];
  /** Property slot (decimal string) → its intrinsic properties. */
  intrinsicProperties: Record<string, string[]>;
  /** Property row of each material slot. */
  materialPropertyRows: number[];
  /** The grid's network values (packed words without the physics-literal flag), in the grid's order. */
  networkIdToPackedMaterial: number[];
}

/** The base game's material grid (material-catalog.json). */
export const SURFACE_CATALOG: SurfaceCatalog = catalogJson as SurfaceCatalog;
const catalog = SURFACE_CATALOG;

export const MATERIAL_PACKING = catalog.packing;
/** Slots of the base material grid; maps that add surfaces append from here (an unknown slot crashes the game). */
export const BASE_MATERIAL_SLOTS = catalog.materialSoundIds.length;

export interface DecodedMaterial {
  packed: number;
  /** Bits 0-5. */
  flags: number;
  /** The physics-literal flag (0x20) is set. */
  literal: boolean;
  slot: number;
  /** Sound id of the slot in the base grid; null where the grid has none or the slot is past it. */
  slotName: string | null;
  /** The slot lies inside the base grid. */
  baseSlot: boolean;
  propertySlot: number;
  /** Intrinsic properties of the property slot's row (empty where it has none). */
  properties: string[];
}

const properties = catalog.intrinsicProperties as Record<string, string[]>;

export function decodeMaterial(packed: number): DecodedMaterial {
  const p = MATERIAL_PACKING;
  const v = packed >>> 0;
  const flags = v & p.flagMask;
  const slot = (v >>> p.materialSlotShift) & p.materialSlotMask;
  const propertySlot = v >>> p.propertySlotShift;
  const baseSlot = slot < BASE_MATERIAL_SLOTS;
  return {
    packed: v,
    flags,
    literal: (flags & p.physicsLiteralFlags) !== 0,
    slot,
    slotName: baseSlot ? (catalog.materialSoundIds[slot] ?? null) : null,
    baseSlot,
    propertySlot,
    properties: properties[String(propertySlot)] ?? [],
  };
}

/** One line: `0x00000ba0 slot 46 Metal_… property 0 (literal)`. */
export function describeMaterial(m: DecodedMaterial): string {
  const name = m.slotName ?? (m.baseSlot ? 'unnamed' : 'outside the base grid');
  const props = m.properties.length ? ` [${m.properties.join(', ')}]` : '';
  const flags = m.literal ? 'literal' : `not literal (material flags 0x${m.flags.toString(16)})`;
  return `0x${m.packed.toString(16).padStart(8, '0')} slot ${m.slot} ${name}, property ${m.propertySlot}${props}, ${flags}`;
}

/**
 * Intrinsic properties that apply to a packed word's surface: its material slot's property row
 * (materialPropertyRows[slot], e.g. grass, slot 9 → row 9 `ExcludeFromEdgeGeneration`) together with the row its
 * property slot names (e.g. stairs, property 90 `Stair`; round rail, 71). The catalog gives both; which one the game
 * reads for edge generation is not published, so a surface takes the union (docs/format-decisions.md, "Grind map").
 */
export function surfaceProperties(packed: number): string[] {
  const m = decodeMaterial(packed);
  const rows = catalog.materialPropertyRows;
  const row = m.baseSlot ? rows[m.slot] : undefined;
  const own = row !== undefined && row !== 0 ? (properties[String(row)] ?? []) : [];
  return [...new Set([...own, ...m.properties])];
}
