// The shape layer: primitive families with canonical frames, fitting and explicit parameters, placing
// under a node's transform, tessellation into closed kind-5 meshes, convex hulls and the enforced convex contract.
// Every importer feeds it (glTF extras here, YBN bounds and forge shapes next); see docs/format-decisions.md "Shapes".
export * from './types.ts';
export { normalizeQuat, placePrimitive, primitiveBounds, quatFromYTo, quatToMat3, rigidScale, SHEAR_TOLERANCE, UNIFORM_SCALE_TOLERANCE } from './frame.ts';
export { fitPrimitive, type RigidFrame } from './fit.ts';
export { parseShapeSpec } from './spec.ts';
export { fewestTriangles, tessellate, TESSELLATE_DEFAULTS, CHORD_ERROR_RANGE, MAX_TRIANGLES_RANGE, type TessellateOptions, type Tessellation } from './tessellate.ts';
export { primitiveMesh, type PrimitiveMesh } from './mesh.ts';
