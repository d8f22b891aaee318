// The pipeline's central data: what every importer (glTF, YBN, forge) writes and every later stage (shapes, tiling,
// validation, compile) reads: the collision object with its material groups, the import's result and counts, the
// logger, the scene limits every importer applies, and the one naming rule. Depends only on the shape layer's data
// leaves (shapes/types.ts, shapes/native.ts), never on an importer or a stage.
import type { NativePart } from './shapes/native.ts';
import type { PrimitiveFamily } from './shapes/types.ts';

/** The modes this layer builds (sk8_collision_mode; spellings resolved in src/import/objects.ts). */
export type ShapeMode = PrimitiveFamily | 'hull' | 'convex_parts';
export const SHAPE_MODES: readonly ShapeMode[] = ['sphere', 'capsule', 'box', 'cylinder', 'cone', 'hull', 'convex_parts'];
export const isShapeMode = (m: string): m is ShapeMode => (SHAPE_MODES as readonly string[]).includes(m);

/** What the importer attaches to an object whose mode is a shape mode. */
export interface ShapeRequest {
  mode: ShapeMode;
  /** The node's (and instance's) world matrix, 4×4 column-major. */
  world: number[];
  /** extras.sk8_shape, as found (object or JSON string), if any. */
  spec?: unknown;
}

export interface Logger {
  warn(message: string): void;
}

/** One material's triangles within an object (indices into the object's positions). */
export interface ObjectGroup {
  material: number;
  indices: Uint32Array;
}

/** A collision object: a node with a mesh (one per GPU instance), or one grind-curve prism. */
export interface ImportedObject {
  /** Unique, deterministic, file-name safe. */
  name: string;
  /** Where it came from, for messages: node index and name. */
  source: string;
  /** The input's name for it (a glTF node's) when `name` differs: cleaned, made unique, or a grind prism's or instance's. */
  sourceName?: string;
  /** 'shape': made by src/shapes/ from a shape mode (not validated: closed or convex by construction or by contract). */
  kind: 'mesh' | 'grind' | 'shape';
  /** World-space (game-space) positions, xyz, rounded to f32. */
  positions: Float32Array;
  groups: ObjectGroup[];
  /** A shape mode (sphere, box, hull, convex_parts, …): what src/shapes/build.ts makes of it. */
  shape?: ShapeRequest;
  /** Native kind-2/3 shapes (--native-shapes), built by src/shapes/build.ts; positions and groups may be empty. */
  native?: NativePart[];
}

export interface ImportStats {
  nodes: number;
  meshNodes: number;
  primitives: number;
  skippedNodes: number;
  instances: number;
  grindCurves: number;
  grindPrisms: number;
}

/** Records read / refused / skipped by class name, and the objects each entity made (forge levels). */
export interface ForgeImportReport {
  records: { read: Record<string, number>; refused: Record<string, number>; skipped: Record<string, number> };
  /** Shapes no exactly-read entity reaches, directly or through a compound. */
  unplacedShapes: number;
  /** Collision object names by entity name. */
  objectsByEntity: Record<string, string[]>;
}

export interface ImportResult {
  objects: ImportedObject[];
  stats: ImportStats;
  /** Forge inputs: what was read, refused and skipped (the summary and the manifest say it). */
  forge?: ForgeImportReport;
  /** sha256 input of the file and its external resources, for the manifest. */
  inputBytes: Uint8Array[];
  /** How each glTF material became a packed word (glTF import only; report.html's materials table). */
  materials?: { material: string; how: string; word: number; primitives: number }[];
}

/**
 * Most triangles a scene may expand to (node reuse and instancing included). Far above what the geometry pools
 * hold at once (40,000 shapes: a level this big streams by cell); it bounds memory, which grows by ~30 bytes a
 * triangle through the pipeline (world-space positions per object, index lists per mesh, each resource's open
 * corners; the files' bytes are not held: docs/performance.md "Memory"): the 64M-triangle bench level peaks at 2.0 GiB.
 */
export const MAX_SCENE_TRIANGLES = 100_000_000;

/**
 * Collision farther from the world origin than this on any axis (metres) is refused: a skate. level spans a few
 * km, so a position out there is a unit or scale mistake (a node scale of 1e30 made 5e29 m collision).
 */
export const WORLD_EXTENT_M = 100_000;

/**
 * Smallest scale an object's world transform may apply along an axis (a micrometre per unit): below it the
 * triangles lose their area in f32 (a node scale of 1e-30 compiled to zero-area collision without a word).
 */
export const MIN_WORLD_SCALE = 1e-6;

/** Most mesh objects (nodes with meshes, GPU instances counted one by one); 12× the ReSkate pool (the 64M bench level has 262,464). */
export const MAX_SCENE_OBJECTS = 500_000;


/**
 * Object name → file-name safe and unique ignoring case (Windows and macOS file systems) among `taken` (lower-cased
 * names so far, updated): repeats get _2, _3… One rule for every importer.
 */
export function uniqueName(taken: Set<string>, raw: string): string {
  const clean = sanitizeName(raw);
  let name = clean;
  for (let k = 2; taken.has(name.toLowerCase()); k++) name = `${clean}_${k}`;
  taken.add(name.toLowerCase());
  return name;
}

/**
 * Names a Windows folder cannot hold as a file's stem, with any extension (`CON`, `aux.txt`, `COM1.physics`): a
 * mod folder is often on Windows. Microsoft's "Naming Files, Paths, and Namespaces" list (COM¹²³ and LPT¹²³ are
 * non-ASCII, so already mapped).
 */
export const WINDOWS_RESERVED_STEM = /^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(?=\.|$)/i;

/**
 * Characters outside [A-Za-z0-9_.-] become "_"; at most 96 characters; never empty or dot-leading; trailing dots
 * become "_" and a Windows-reserved stem gets a "_" (`CON` → `CON_`, `aux.txt` → `aux_.txt`), like other unsafe names.
 */
const underscores = (m: string): string => '_'.repeat(m.length);

/** A name sanitizeName leaves as it is (one test instead of its four replacements: most names are plain). */
const SAFE_NAME = /^[A-Za-z0-9_-](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_-])?$/;

export function sanitizeName(raw: string): string {
  if (SAFE_NAME.test(raw) && !WINDOWS_RESERVED_STEM.test(raw)) return raw;
  const s = raw.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_').slice(0, 96).replace(/\.+$/, underscores);
  return s.replace(WINDOWS_RESERVED_STEM, '$1_') || '_';
}
