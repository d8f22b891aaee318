// The library's public surface: `import { compileLevel, … } from 'skate-collision'` (package.json `exports`; the
// published package runs the compiled dist/src/index.js, typed by its .d.ts). docs/api.md documents every name
// here; what is not exported here is internal and may change without notice.
export {
  compileLevel,
  COMPILE_DEFAULTS,
  defaultOutDir,
  MANIFEST_FILE,
  STREAMING_PLAN_FILE,
  type CompileHooks,
  type CompileOptions,
  type CompileResult,
  type Manifest,
  type ManifestResource,
  type StreamingPlan,
  type Totals,
} from './build/compile.ts';
// The build's text summary is the CLI's (cli/summary.ts); re-exported so the library's surface stays as it was.
export { formatSummary } from '../cli/summary.ts';
export type { Logger } from './model.ts';
export { CompileSession } from './build/session.ts';
export { FormatError } from './format/cursor.ts';
export { readPhysicsResource, writePhysicsResource } from './format/resource.ts';
export { verifyPhysics, verifyResource, type Finding } from './format/verify.ts';
export { inspectPhysics } from './format/inspect.ts';
export { diffResources, type DiffOptions, type OutputDiff } from './format/diff.ts';
export { compileOutputToGltf, diffCompileOutputs, readCompileOutput, type CompileOutput } from './export/outputs.ts';
export { resourcesToGltf, TO_GLTF_DEFAULTS, type RecordedBuild, type ToGltfInput, type ToGltfOptions, type ToGltfResult } from './export/gltf.ts';
export { readRecordedBuild, recordedCompileOptions } from './export/recorded.ts';
// The `ybn.placement` compile option's inputs: an interior's placements from .ymap.xml files, matched to its files.
export { matchPlacements, readYmapXml, type Placement } from './import/ybn/ymap.ts';
export { readYmapBinary } from './import/ybn/ymap-binary.ts';
export {
  encodeMeshShapes,
  ENCODE_DEFAULTS,
  MAX_SHAPE_FACES,
  MAX_SHAPE_VERTICES,
  type EncodedPiece,
  type EncodeOptions,
  type EncodeStats,
} from './geometry/encode.ts';
export {
  RESOURCE_TYPE,
  KIND_MESH,
  type LayoutFill,
  type PartRecord,
  type PhysicsResource,
  type ResourceLayout,
  type ShapeRecord,
  type Vec3,
} from './format/types.ts';
export {
  buildWorld, CONTACT_MODEL, contactNormal, FINDING_KINDS, PROBES, readRideResource, RIDE_DEFAULTS, rideResources, rideWorld,
  type FindingKind, type Probe, type RideCoverage, type RideFinding, type RideOptions, type RideReport, type RideResource, type RideWorld,
} from './ride/index.ts';
export { TOOL_VERSION } from './version.ts';
