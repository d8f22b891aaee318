// The PhysicsResource codec's public surface (../shared/spec/physics-resource.md): read and write byte for byte,
// verify invariants, inspect, and the decoders of the derived data (tree nodes, face planes, packed materials).
export { FormatError, Reader, Writer } from './cursor.ts';
export { readPhysicsResource, writePhysicsResource } from './resource.ts';
export { defaultLayout, hintsFit, planLayout } from './layout.ts';
export { type Finding, firstDifference, verifyPhysics, verifyResource } from './verify.ts';
export { type ResourceSummary, edgeClasses, formatSummary, inspectPhysics, resourceToJson, summarize } from './inspect.ts';
export { type Box6, decodeNode, nodeBoxes, nodeHex, treeDepth } from './tree.ts';
export { type Plane, decodeNormal, encodeNormal, encodePlane, facePlane } from './plane.ts';
export { BASE_MATERIAL_SLOTS, type DecodedMaterial, decodeMaterial, describeMaterial } from './material.ts';
export * from './types.ts';
