// Object properties from glTF extras (Blender custom properties; "Include → Custom Properties" on export).
// Spec: ../shared/spec/authoring-notes.md "Objects and their properties", "Materials", "Grind curves".
import type { WalkMaterial as Material, WalkMesh as Mesh, WalkNode as Node, WalkPrimitive as Primitive } from './gltf-lite.ts';
import { SHAPE_MODES, type ShapeMode } from '../shapes/build.ts';
import { parseShapeSpec } from '../shapes/spec.ts';
import { parseStoredSpec, storedSpecType } from '../shapes/stored.ts';
import { clampGrindRadius, GRIND_RADIUS_MAX, GRIND_RADIUS_MIN } from './grind.ts';
import { buildSurfaceTable, DEFAULT_MATERIAL, finalMaterialWord, normaliseSurfaceName, parsePackedMaterial, placeText, type Place } from './materials.ts';

export type Extras = Record<string, unknown>;

/** What an object compiles as: a triangle mesh, nothing, water, or one of the shape layer's modes (src/shapes/). */
export type CollisionMode = 'triangle_mesh' | 'none' | 'water' | ShapeMode;
/** Every sk8_collision_mode the compiler reads by its own name (the Blender add-on's enum is generated from it). */
export const COLLISION_MODES: readonly CollisionMode[] = ['triangle_mesh', 'none', 'water', ...SHAPE_MODES];

/** sk8_collision_mode values: the add-on's enum (stored order 0..4) and reskate_cli's extra spellings. */
const ENUM_ORDER = ['triangle_mesh', 'convex_parts', 'hull', 'none', 'water'];
/** Spellings: reskate_cli's `mesh`, `convex_hull`, `aggregate`; the primitive names are modes of their own. */
export const MODE_SPELLINGS: Record<string, CollisionMode> = { mesh: 'triangle_mesh', convex_hull: 'hull', aggregate: 'convex_parts' };

export interface GrindConfig {
  material: number;
  radius?: number;
}

/** One glTF material's way to a packed word (ImportResult.materials). */
export interface MaterialUse {
  /** The glTF material's name, '(unnamed material)' or '(no material)'. */
  material: string;
  /** The rule that chose the word (src/import/objects.ts MaterialResolver.resolve's order). */
  how: string;
  word: number;
  primitives: number;
}

export class MaterialResolver {
  private table = buildSurfaceTable();
  private warned = new Set<string>();

  constructor(private allowCustomSlots: boolean, private warn: (m: string) => void) {}

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(message);
  }

  /**
   * sk8_collision_mode from the node, else the mesh; default triangle_mesh, or the primitive sk8_shape names when
   * only sk8_shape is set. sk8_shape with a mode that is not that primitive is an error.
   */
  mode(node: Extras, mesh: Extras, place: Place): CollisionMode {
    const raw = node.sk8_collision_mode ?? mesh.sk8_collision_mode;
    const spec = node.sk8_shape ?? mesh.sk8_shape;
    if (raw === undefined && spec === undefined) return 'triangle_mesh';
    const where = placeText(place);
    // A hull or convex_parts record (to-gltf's, src/shapes/stored.ts) names its mode as a primitive spec does.
    const family = spec === undefined ? undefined : storedSpecType(spec) ? parseStoredSpec(spec, where).type : parseShapeSpec(spec, where).family;
    if (raw === undefined) return family ?? 'triangle_mesh';
    const name = typeof raw === 'number' ? ENUM_ORDER[raw] : typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
    let mode: CollisionMode = 'triangle_mesh';
    if (name && (COLLISION_MODES as readonly string[]).includes(name)) mode = name as CollisionMode;
    else if (name && MODE_SPELLINGS[name]) mode = MODE_SPELLINGS[name];
    else this.warnOnce(`mode:${where}`, `objects: ${where}: unknown sk8_collision_mode ${JSON.stringify(raw)}; compiled as triangle_mesh`);
    if (family !== undefined && mode !== family && mode !== 'none') {
      throw new Error(`objects: ${where}: sk8_shape is a ${family} but sk8_collision_mode is ${JSON.stringify(raw)}; set the mode to "${family}" or remove sk8_shape`);
    }
    return mode;
  }

  /** The material word of a node without a mesh (an sk8_shape empty): sk8_collision_material_packed, sk8_surface, 0x20. */
  resolveExtras(extras: Extras, where: string): number {
    const raw = extras.sk8_collision_material_packed;
    if (raw !== undefined) {
      const packed = parsePackedMaterial(raw);
      if (packed === undefined) throw new Error(`materials: ${where}: sk8_collision_material_packed ${JSON.stringify(raw)} is not a u32`);
      return finalMaterialWord(packed, this.allowCustomSlots, where);
    }
    if (typeof extras.sk8_surface === 'string') return this.surface(extras.sk8_surface, where);
    return DEFAULT_MATERIAL;
  }

  /**
   * Surface name → packed word; a name not in the table gets `fallback` with a warning that says what is written
   * (`fallbackName`: the default 0x20 for triangles, the grind default for grind curves).
   */
  surface(name: string, where: Place, fallback = DEFAULT_MATERIAL, fallbackName = 'the default'): number {
    const key = this.normalised(name);
    const v = this.table.get(key);
    if (v !== undefined) return v;
    this.warnOnce(`surface:${key}:${fallback}`, `materials: ${placeText(where)}: surface "${name}" is not in the material grid; using ${fallbackName} 0x${fallback.toString(16).padStart(8, '0')}`);
    return fallback;
  }

  /**
   * A primitive's material word. Order: sk8_collision_material_packed on node, mesh, glTF material; water mode →
   * water; sk8_surface on node, mesh, material; the glTF material's name; default 0x20.
   */
  resolve(node: Node, mesh: Mesh, prim: Primitive, water: boolean, where: Place): number {
    const mat: Material | null = prim.getMaterial();
    const layers: Extras[] = [node.getExtras() as Extras, mesh.getExtras() as Extras, (mat?.getExtras() ?? {}) as Extras];
    const layerNames = ['node', 'mesh', 'material'];
    const label = mat ? mat.getName() || '(unnamed material)' : '(no material)';
    for (let i = 0; i < layers.length; i++) {
      const raw = layers[i]?.sk8_collision_material_packed;
      if (raw === undefined) continue;
      const packed = parsePackedMaterial(raw);
      if (packed === undefined) throw new Error(`materials: ${placeText(where)}: sk8_collision_material_packed ${JSON.stringify(raw)} is not a u32`);
      return this.note(label, `sk8_collision_material_packed on the ${layerNames[i]}`, finalMaterialWord(packed, this.allowCustomSlots, where));
    }
    if (water) return this.note(label, 'water mode', finalMaterialWord(this.table.get('water')!, this.allowCustomSlots, where));
    for (let i = 0; i < layers.length; i++) {
      const s = layers[i]?.sk8_surface;
      if (typeof s === 'string') return this.note(label, `sk8_surface "${s}" on the ${layerNames[i]}`, this.surface(s, where));
    }
    const name = mat?.getName();
    if (name) {
      const known = this.table.get(this.normalised(name));
      return this.note(label, known === undefined ? 'material name names no surface: default' : 'material name', known ?? this.unknownMaterialName(name, where));
    }
    return this.note(label, 'nothing set: default', DEFAULT_MATERIAL);
  }

  /** How each glTF material became a word, once per (material, rule, word), with its primitives (report.html). */
  readonly uses = new Map<string, MaterialUse>();
  private note(material: string, how: string, word: number): number {
    const key = `${material}\u0000${how}\u0000${word}`;
    const u = this.uses.get(key);
    if (u) u.primitives++;
    else this.uses.set(key, { material, how, word, primitives: 1 });
    return word;
  }

  /** normaliseSurfaceName, once per name (every primitive of a level asks for its material's). */
  private normalisedNames = new Map<string, string>();
  private normalised(name: string): string {
    let n = this.normalisedNames.get(name);
    if (n === undefined) this.normalisedNames.set(name, (n = normaliseSurfaceName(name)));
    return n;
  }

  private unknownMaterialName(name: string, where: Place): number {
    this.warnOnce(`matname:${name}`, `materials: ${placeText(where)}: material "${name}" names no surface (and no sk8_surface/sk8_collision_material_packed is set); using default 0x20`);
    return DEFAULT_MATERIAL;
  }

  /**
   * sk8_grind_curve: true / 1 / "true", or { enabled, radius, surface } (also as a JSON string, how some exporters
   * write dict properties). surface is a name or a packed word; default round rail. Undefined when disabled.
   */
  grindSettings(raw: unknown, where: string): GrindConfig | undefined {
    let v = raw;
    if (typeof v === 'string') {
      const s = v.trim();
      if (s.startsWith('{')) {
        try {
          v = JSON.parse(s);
        } catch {
          throw new Error(`grind: ${where}: sk8_grind_curve ${JSON.stringify(raw)} is not valid JSON`);
        }
      } else v = !['', '0', 'false', 'no', 'off'].includes(s.toLowerCase());
    }
    if (v === false || v === 0 || v === null) return undefined;
    if (v === true || typeof v === 'number') return { material: this.table.get('round_rail')! };
    if (typeof v !== 'object') throw new Error(`grind: ${where}: sk8_grind_curve ${JSON.stringify(raw)} is neither a flag nor settings`);
    const o = v as Extras;
    if (o.enabled === false || o.enabled === 0) return undefined;
    let radius = o.radius === undefined ? undefined : Number(o.radius);
    if (radius !== undefined && !Number.isFinite(radius)) throw new Error(`grind: ${where}: radius ${JSON.stringify(o.radius)} is not a number`);
    if (radius !== undefined && radius !== clampGrindRadius(radius)) {
      const used = clampGrindRadius(radius);
      this.warn(`grind: ${where}: radius ${radius} m is outside ${GRIND_RADIUS_MIN}–${GRIND_RADIUS_MAX} m; using ${used} m`);
      radius = used;
    }
    let material = this.table.get('round_rail')!;
    if (o.surface !== undefined) {
      const packed = parsePackedMaterial(o.surface);
      if (packed !== undefined) material = finalMaterialWord(packed, this.allowCustomSlots, where);
      else if (typeof o.surface === 'string') material = this.surface(o.surface, where, material, 'the grind default (round rail)');
    }
    return { material, radius };
  }
}
