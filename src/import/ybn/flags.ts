// Composite child flags: which children of a map composite a skater collides with.
// Each child carries two words (binary: the 8-byte record at the composite's 0x90; XML: <CompositeFlags1> and
// <CompositeFlags2> as bit names): the child's type (what it is) and include (what it collides with). The bit
// names are GTA V's collision flag enum as CodeWalker (EBoundCompositeFlags) and Sollumz (CollisionFlags) name it,
// one enum for both words; ybn-bounds.md leaves their meaning open, so the rule below is ours, documented in
// docs/ybn-ports.md ("Composite child flags").

/** Bit → name, bit 0 first (CodeWalker's names; Sollumz: STAIR_SLOPE_TYPE for MAP_STAIRS, RIVER_TYPE, …). */
export const COLLISION_FLAG_NAMES = [
  'UNKNOWN', 'MAP_WEAPON', 'MAP_DYNAMIC', 'MAP_ANIMAL', 'MAP_COVER', 'MAP_VEHICLE', 'VEHICLE_NOT_BVH', 'VEHICLE_BVH',
  'VEHICLE_BOX', 'PED', 'RAGDOLL', 'ANIMAL', 'ANIMAL_RAGDOLL', 'OBJECT', 'OBJECT_ENV_CLOTH', 'PLANT', 'PROJECTILE',
  'EXPLOSION', 'PICKUP', 'FOLIAGE', 'FORKLIFT_FORKS', 'TEST_WEAPON', 'TEST_CAMERA', 'TEST_AI', 'TEST_SCRIPT',
  'TEST_VEHICLE_WHEEL', 'GLASS', 'MAP_RIVER', 'SMOKE', 'UNSMASHED', 'MAP_STAIRS', 'MAP_DEEP_SURFACE',
] as const;

export type CollisionFlagName = (typeof COLLISION_FLAG_NAMES)[number];

/** One bit of the enum by name. */
export const FLAG = Object.fromEntries(COLLISION_FLAG_NAMES.map((n, i) => [n, 2 ** i])) as Record<CollisionFlagName, number>;

/** The type bits of map geometry proper (Sollumz's "General" presets: MAP_WEAPON … MAP_VEHICLE). */
export const MAP_KINDS = FLAG.MAP_WEAPON | FLAG.MAP_DYNAMIC | FLAG.MAP_ANIMAL | FLAG.MAP_COVER | FLAG.MAP_VEHICLE;
/** Include bits of a vehicle's body (three kinds). */
export const VEHICLE_BODIES = FLAG.VEHICLE_NOT_BVH | FLAG.VEHICLE_BVH | FLAG.VEHICLE_BOX;
/** Include bits of what a vehicle meets: its body or its wheels' probe. */
export const VEHICLES = VEHICLE_BODIES | FLAG.TEST_VEHICLE_WHEEL;

/**
 * Why a child is not compiled, the first that applies, in this order:
 * - stairs: type MAP_STAIRS without the map bits, met by no vehicle body: the smooth ped-only slope laid over a
 *   flight of steps (Sollumz's "Stair plane": type MAP_STAIRS, include PED and the tests); a board would ride the
 *   invisible ramp instead of the steps. The steps themselves ("Stair mesh": the map bits plus MAP_STAIRS, include
 *   everything) are geometry and compiled.
 * - river: type MAP_RIVER, a river's water volume.
 * - foliage: type FOLIAGE, bushes and hedges a ped walks through.
 * Then a child a ped's feet meet (include PED) is solid. The rest are met by no ped, so not by a skater:
 * - cover: type MAP_COVER alone of the map bits: walls that exist for the AI's cover search.
 * - vehicles: include has a vehicle body or the wheels' probe: curbs and barriers only vehicles meet.
 * - probes: only weapon, camera, AI or script tests (or nothing) meet it.
 */
export const SKIP_REASONS = ['stairs', 'river', 'foliage', 'cover', 'vehicles', 'probes'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export const isSkipReason = (s: string): s is SkipReason => (SKIP_REASONS as readonly string[]).includes(s);

/** The reason a child with these flags is not solid for a skater, or null: solid (also when it has no flags). */
export function childSkipReason(flags: readonly [number, number] | null): SkipReason | null {
  if (flags === null) return null;
  const [type, include] = flags;
  if (type & FLAG.MAP_STAIRS && !(type & MAP_KINDS) && !(include & VEHICLE_BODIES)) return 'stairs';
  if (type & FLAG.MAP_RIVER) return 'river';
  if (type & FLAG.FOLIAGE) return 'foliage';
  if (include & FLAG.PED) return null;
  if ((type & MAP_KINDS) === FLAG.MAP_COVER) return 'cover';
  if (include & VEHICLES) return 'vehicles';
  return 'probes';
}

/**
 * The reasons --ybn-detail keeps in a hi@/ma@ detail copy: its children are there for what is not a ped (vehicles,
 * weapons, cameras), so by the map rule every one of them would be dropped; the option compiles them.
 */
export const DETAIL_KEEPS: readonly SkipReason[] = ['cover', 'vehicles', 'probes'];

/** "MAP_WEAPON, MAP_DEEP_SURFACE" (CodeWalker's XML text), or "NONE". */
export function flagNames(word: number): string {
  const names = COLLISION_FLAG_NAMES.filter((_, i) => (word >>> i) & 1);
  return names.length ? names.join(', ') : 'NONE';
}

/**
 * CodeWalker's / Sollumz's flag text ("MAP_WEAPON, MAP_COVER", "NONE", empty) → the word. A name outside the
 * enum (or a number) throws: its bit cannot be known, and a guessed filter bit would change what is solid.
 */
export function parseFlagNames(text: string, where: string): number {
  let word = 0;
  for (const raw of text.split(/[\s,|]+/)) {
    if (raw === '' || raw === 'NONE') continue;
    const bit = (COLLISION_FLAG_NAMES as readonly string[]).indexOf(raw);
    if (bit < 0) throw new Error(`${where}: unknown collision flag ${JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw)} (CodeWalker names bits UNKNOWN … MAP_DEEP_SURFACE)`);
    word |= 2 ** bit;
  }
  return word >>> 0;
}

/** Counts per reason, every reason present (0 when none). */
export const emptySkipCounts = (): Record<SkipReason, number> => ({ stairs: 0, river: 0, foliage: 0, cover: 0, vehicles: 0, probes: 0 });

/** What the YBN importer reports besides objects: skipped children per reason and by name, and notes. */
export interface YbnReport {
  /** Composite children not compiled, per reason (kept ones with --ybn-keep are not counted). */
  skipped: Record<SkipReason, number>;
  /** Each of them: file, child path ("3", "2_0"), reason, the two words as hex. */
  skippedChildren: { file: string; bound: string; reason: SkipReason; type: string; include: string }[];
  /** Children a reason would drop that were compiled: by --ybn-keep, or by --ybn-detail in a hi@/ma@ file. */
  keptChildren: { file: string; bound: string; reason: SkipReason; type: string; include: string; by: '--ybn-keep' | '--ybn-detail' }[];
  /** Facts worth a line that are not warnings (an interior file without placement). */
  notes: string[];
  /** The .ymap.xml placements this file's collision was placed by (one copy each), as text. */
  placedBy: string[];
}

export const emptyYbnReport = (): YbnReport => ({ skipped: emptySkipCounts(), skippedChildren: [], keptChildren: [], notes: [], placedBy: [] });

/** ", 2 of them composite children not solid for a skater (stairs 1, probes 1; --ybn-keep compiles them)". */
export function skippedChildrenText(r: YbnReport | undefined): string {
  const n = r?.skippedChildren.length ?? 0;
  if (!r || n === 0) return '';
  const per = Object.entries(r.skipped).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(', ');
  return `, ${n} of them composite children not solid for a skater (${per}; --ybn-keep compiles them)`;
}
