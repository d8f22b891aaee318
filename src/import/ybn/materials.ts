// GTA V collision material types → skate. surfaces. A bound's material byte (a primitive's header byte 0x4C, a
// geometry material record's low byte) indexes the ordered entries of the game's materials.dat; this is the one
// table that maps them (docs/ybn-ports.md lists it). Names are the game's; the surface is a
// name of src/import/materials.ts buildSurfaceTable, or null: no counterpart, compiled with the default surface
// and one warning per type. Spec: ../shared/spec/ybn-bounds.md ("Geometry materials ...").
import { buildSurfaceTable, DEFAULT_MATERIAL } from '../materials.ts';
import { MATERIAL_STAIRS } from './model.ts';

/** materials.dat order: [GTA V name, skate. surface or null]. */
export const GTA_MATERIALS: readonly (readonly [string, string | null])[] = [
  ['DEFAULT', 'default'],
  ['CONCRETE', 'concrete'],
  ['CONCRETE_POTHOLE', 'concrete'],
  ['CONCRETE_DUSTY', 'concrete'],
  ['TARMAC', 'asphalt'],
  ['TARMAC_PAINTED', 'asphalt'],
  ['TARMAC_POTHOLE', 'asphalt'],
  ['RUMBLE_STRIP', 'asphalt'],
  ['BREEZE_BLOCK', 'concrete_rough'],
  ['ROCK', 'bedrock'],
  ['ROCK_MOSSY', 'bedrock'],
  ['STONE', 'concrete_rough'],
  ['COBBLESTONE', 'brick'],
  ['BRICK', 'brick'],
  ['MARBLE', 'marble'],
  ['PAVING_SLAB', 'concrete'],
  ['SANDSTONE_SOLID', 'concrete_rough'],
  ['SANDSTONE_BRITTLE', 'concrete_rough'],
  ['SAND_LOOSE', 'sand'],
  ['SAND_COMPACT', 'sand'],
  ['SAND_WET', 'sand'],
  ['SAND_TRACK', 'sand'],
  ['SAND_UNDERWATER', 'sand'],
  ['SAND_DRY_DEEP', 'sand'],
  ['SAND_WET_DEEP', 'sand'],
  ['ICE', null],
  ['ICE_TARMAC', 'asphalt'],
  ['SNOW_LOOSE', null],
  ['SNOW_COMPACT', null],
  ['SNOW_DEEP', null],
  ['SNOW_TARMAC', 'asphalt'],
  ['GRAVEL_SMALL', 'gravel'],
  ['GRAVEL_LARGE', 'gravel'],
  ['GRAVEL_DEEP', 'gravel'],
  ['GRAVEL_TRAIN_TRACK', 'gravel'],
  ['DIRT_TRACK', 'earth'],
  ['MUD_HARD', 'earth'],
  ['MUD_POTHOLE', 'earth'],
  ['MUD_SOFT', 'earth'],
  ['MUD_UNDERWATER', 'earth'],
  ['MUD_DEEP', 'earth'],
  ['MARSH', 'earth'],
  ['MARSH_DEEP', 'earth'],
  ['SOIL', 'earth'],
  ['CLAY_HARD', 'earth'],
  ['CLAY_SOFT', 'earth'],
  ['GRASS_LONG', 'grass'],
  ['GRASS', 'grass'],
  ['GRASS_SHORT', 'grass'],
  ['HAY', 'grass'],
  ['BUSHES', 'grass'],
  ['TWIGS', 'grass'],
  ['LEAVES', 'grass'],
  ['WOODCHIPS', 'earth'],
  ['TREE_BARK', 'bark'],
  ['METAL_SOLID_SMALL', 'metal'],
  ['METAL_SOLID_MEDIUM', 'metal'],
  ['METAL_SOLID_LARGE', 'metal'],
  ['METAL_HOLLOW_SMALL', 'metal_thin'],
  ['METAL_HOLLOW_MEDIUM', 'metal_thin'],
  ['METAL_HOLLOW_LARGE', 'metal_thin'],
  ['METAL_CHAINLINK_SMALL', 'chainlink_fence'],
  ['METAL_CHAINLINK_LARGE', 'chainlink_fence'],
  ['METAL_CORRUGATED_IRON', 'metal_thin'],
  ['METAL_GRILLE', 'metal_grate'],
  ['METAL_RAILING', 'metal_rail'],
  ['METAL_DUCT', 'metal_thin'],
  ['METAL_GARAGE_DOOR', 'metal_thin'],
  ['METAL_MANHOLE', 'metal'],
  ['WOOD_SOLID_SMALL', 'wood_thick_rough'],
  ['WOOD_SOLID_MEDIUM', 'wood_thick_rough'],
  ['WOOD_SOLID_LARGE', 'wood_thick_rough'],
  ['WOOD_SOLID_POLISHED', 'wood_thick_smooth'],
  ['WOOD_FLOOR_DUSTY', 'wood_thin_rough'],
  ['WOOD_HOLLOW_SMALL', 'wood_thin_rough'],
  ['WOOD_HOLLOW_MEDIUM', 'wood_thin_rough'],
  ['WOOD_HOLLOW_LARGE', 'wood_thin_rough'],
  ['WOOD_CHIPBOARD', 'wood_thin_rough'],
  ['WOOD_OLD_CREAKY', 'wood_thin_rough'],
  ['WOOD_HIGH_DENSITY', 'wood_thick_smooth'],
  ['WOOD_LATTICE', 'wood_thin_rough'],
  ['CERAMIC', 'marble'],
  ['ROOF_TILE', 'roofing'],
  ['ROOF_FELT', 'roofing'],
  ['FIBREGLASS', 'plastic'],
  ['TARPAULIN', 'cloth'],
  ['PLASTIC', 'plastic'],
  ['PLASTIC_HOLLOW', 'plastic'],
  ['PLASTIC_HIGH_DENSITY', 'plastic'],
  ['PLASTIC_CLEAR', 'plastic'],
  ['PLASTIC_HOLLOW_CLEAR', 'plastic'],
  ['PLASTIC_HIGH_DENSITY_CLEAR', 'plastic'],
  ['FIBREGLASS_HOLLOW', 'plastic'],
  ['RUBBER', 'rubber'],
  ['RUBBER_HOLLOW', 'rubber'],
  ['LINOLEUM', 'plastic'],
  ['LAMINATE', 'wood_thin_smooth'],
  ['CARPET_SOLID', 'cloth'],
  ['CARPET_SOLID_DUSTY', 'cloth'],
  ['CARPET_FLOORBOARD', 'cloth'],
  ['CLOTH', 'cloth'],
  ['PLASTER_SOLID', 'concrete'],
  ['PLASTER_BRITTLE', 'concrete'],
  ['CARDBOARD_SHEET', 'cardboard'],
  ['CARDBOARD_BOX', 'cardboard'],
  ['PAPER', 'cardboard'],
  ['FOAM', null],
  ['FEATHER_PILLOW', null],
  ['POLYSTYRENE', 'plastic'],
  ['LEATHER', 'cloth'],
  ['TVSCREEN', 'glass'],
  ['SLATTED_BLINDS', 'plastic'],
  ['GLASS_SHOOT_THROUGH', 'glass'],
  ['GLASS_BULLETPROOF', 'glass'],
  ['GLASS_OPAQUE', 'glass'],
  ['PERSPEX', 'glass'],
  ['CAR_METAL', 'metal'],
  ['CAR_PLASTIC', 'plastic'],
  ['CAR_SOFTTOP', 'cloth'],
  ['CAR_SOFTTOP_CLEAR', 'cloth'],
  ['CAR_GLASS_WEAK', 'glass'],
  ['CAR_GLASS_MEDIUM', 'glass'],
  ['CAR_GLASS_STRONG', 'glass'],
  ['CAR_GLASS_BULLETPROOF', 'glass'],
  ['CAR_GLASS_OPAQUE', 'glass'],
  ['WATER', 'water'],
  ['BLOOD', null],
  ['OIL', null],
  ['PETROL', null],
  ['FRESH_MEAT', null],
  ['DRIED_MEAT', null],
  ['EMISSIVE_GLASS', 'glass'],
  ['EMISSIVE_PLASTIC', 'plastic'],
  ['VFX_METAL_ELECTRIFIED', 'metal'],
  ['VFX_METAL_WATER_TOWER', 'metal'],
  ['VFX_METAL_STEAM', 'metal'],
  ['VFX_METAL_FLAME', 'metal'],
  ['PHYS_NO_FRICTION', null],
  ['PHYS_GOLF_BALL', null],
  ['PHYS_TENNIS_BALL', null],
  ['PHYS_CASTER', null],
  ['PHYS_CASTER_RUSTY', null],
  ['PHYS_CAR_VOID', null],
  ['PHYS_PED_CAPSULE', null],
  ['PHYS_ELECTRIC_FENCE', null],
  ['PHYS_ELECTRIC_METAL', 'metal'],
  ['PHYS_BARBED_WIRE', null],
  ['PHYS_POOLTABLE_SURFACE', 'cloth'],
  ['PHYS_POOLTABLE_CUSHION', 'cloth'],
  ['PHYS_POOLTABLE_BALL', 'plastic'],
  ['BUTTOCKS', null],
  ['THIGH_LEFT', null],
  ['SHIN_LEFT', null],
  ['FOOT_LEFT', null],
  ['THIGH_RIGHT', null],
  ['SHIN_RIGHT', null],
  ['FOOT_RIGHT', null],
  ['SPINE0', null],
  ['SPINE1', null],
  ['SPINE2', null],
  ['SPINE3', null],
  ['CLAVICLE_LEFT', null],
  ['UPPER_ARM_LEFT', null],
  ['LOWER_ARM_LEFT', null],
  ['HAND_LEFT', null],
  ['CLAVICLE_RIGHT', null],
  ['UPPER_ARM_RIGHT', null],
  ['LOWER_ARM_RIGHT', null],
  ['HAND_RIGHT', null],
  ['NECK', null],
  ['HEAD', null],
  ['ANIMAL_DEFAULT', null],
  ['CAR_ENGINE', 'metal'],
  ['PUDDLE', null],
  ['CONCRETE_PAVEMENT', 'concrete'],
  ['BRICK_PAVEMENT', 'brick'],
  ['PHYS_DYNAMIC_COVER_BOUND', null],
  ['VFX_WOOD_BEER_BARREL', 'wood_thick_rough'],
  ['WOOD_HIGH_FRICTION', 'wood_thick_rough'],
  ['ROCK_NOINST', 'bedrock'],
  ['BUSHES_NOINST', 'grass'],
  ['METAL_SOLID_ROAD_SURFACE', 'metal'],
  ['STUNT_RAMP_SURFACE', 'metal'],
  ['TEMP_01', null],
  ['TEMP_02', null],
];

export const gtaMaterialName = (type: number): string => GTA_MATERIALS[type]?.[0] ?? `type ${type}`;

/**
 * Material key (model.ts materialKey) → packed material word: a record with FLAG_STAIRS gets the stairs surface
 * (the grid's value whose property slot is "Stair"), any other the table's surface for its type; one warning per
 * unmapped type.
 */
export class GtaMaterials {
  private table = buildSurfaceTable();
  private words = new Map<number, number>();

  constructor(private warn: (m: string) => void, private stage: string) {}

  word(key: number, where: string): number {
    let w = this.words.get(key);
    if (w !== undefined) return w;
    if (key & MATERIAL_STAIRS) {
      w = this.table.get('stairs') ?? DEFAULT_MATERIAL;
      this.words.set(key, w);
      return w;
    }
    const type = key;
    const entry = GTA_MATERIALS[type];
    const surface = entry?.[1];
    w = surface ? this.table.get(surface) : undefined;
    if (w === undefined) {
      const what = entry ? `GTA V material ${type} (${entry[0]}) has no skate. surface` : `material type ${type} is not in GTA V's materials.dat (${GTA_MATERIALS.length} entries)`;
      this.warn(`${this.stage}: ${where}: ${what}; using the default surface 0x${DEFAULT_MATERIAL.toString(16)}`);
      w = DEFAULT_MATERIAL;
    }
    this.words.set(key, w);
    return w;
  }
}
