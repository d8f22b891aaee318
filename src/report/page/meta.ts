// What report.html carries for its page script (src/report/index.ts writes it; main.ts reads it): the manifest as
// written, the objects' decisions, the findings, the geometry's layout and the tables' data.
import type { ShapeMeta } from './view.ts';
import type { GrindData } from './grind.ts';

export interface Loc { triangle: number; points: number[][]; with?: string }
export interface Resource { name: string; file: string; cell: [number, number] | null; bounds: { min: number[]; max: number[] }; parts: number; shapes: number; vertices?: number; faces: number; sourceObjects: string[]; materials?: number[] }
export interface Meta {
  manifest: {
    tool: { name: string; version: string };
    input: { file: string; sha256: string };
    options: Record<string, unknown>;
    layout: string;
    geometries: number;
    totals: Record<string, number>;
    resources: Resource[];
    validation: Record<string, Record<string, unknown> & { locations?: Record<string, Loc[]> }>;
    warnings: string[];
    files?: string[];
    seams: { mode: string; authoredOpenEdges: number | null; joinedAcrossCuts: number | null; openEdgesWritten: number | null };
    /** compile --ride: the ride layer (src/ride/ RideFinding, as the manifest stores it). */
    ride?: { counts: Record<string, number>; findings: { kind: string; position: number[]; resource: string; part: number; face: number; size: number; unit: string; probe?: string; speed?: number; direction?: number[]; edge?: string }[] };
    ybn?: { skippedChildren: { file: string; bound: string; reason: string }[] };
  };
  objects: { name: string; source?: string; mode: string; triangles: number; geometries?: number; materials: number[]; resource: string | null }[];
  /** The validation with every location the build kept (the manifest lists the first 100 of each kind per object). */
  findings: Record<string, unknown>;
  layers: { kind: string; label: string; severity: 'warn' | 'info'; meaning: string; count: number; items: { object: string; points: number[][]; note?: string }[] }[];
  core: { min: number[]; max: number[] } | null;
  timings: Record<string, number>;
  workers: number;
  generated: string;
  geometry: { faces: number; drawnFaces: number; stride: number; classCounts: number[]; resourceClassCounts: number[][]; openEdges: { resource: number; cls: number; points: number[][] }[]; shapes: ShapeMeta[] };
  edgeClasses: string[];
  surfaces: Record<string, string>;
  surfaceColours: Record<string, string>;
  surfaceShifted: number[];
  materials: { material: string; how: string; word: number; primitives: number }[];
  fileBytes: number[];
  blobBytes: number;
  grind?: GrindData;
}
