// The encoder's WebAssembly module (scripts/build-wasm.mjs compiles this entry): one shape from a welded mesh's
// triangles (piece.ts, which calls edges.ts), and the tree builder alone (tree.ts, for tree-wasm.ts); the weld
// and split; the validation report's topology counts (topology.ts) and crack pass (cracks.ts). See each file's header.
export { heapBase, build, orderScratchBytes } from './tree';
export { piece } from './piece';
export { weld, weldResult } from './weld';
export { split } from './split';
export { matchBegin, matchInsert, matchPair, matchResult } from './seams';
export { extentResult, groupExtent, topology, topologyOut, topologyResult } from './topology';
export { cracksBegin, cracksEdges, cracksFaces } from './cracks';
export { rideCover, rideGridCount, rideGridCountAfter, rideGridFill, rideGridPlace, rideGridStarts, rideGridStartsSplit, rideMarkCells } from './ride-grid';
export { rideBegin, rideBound, ridePartCount, ridePartOrigin, rideSetBound, rideResult, rideTransform, rideWalkable, rideWritePart } from './ride-world';
export { rideFold, rideFoldCorner, rideFoldDot, rideFoldWorld, rideSurface, rideSurfaceIO } from './ride-fold';
export { rideSim, rideSimHits, rideSimIO, rideSimWorld } from './ride-sim';
export { rideCrestFold, rideIsLoud, rideQuietBegin, rideQuietBox, rideQuietConvex, rideQuietTableSlots, rideQuietWorld, rideStart, rideStartBound, rideStartIO } from './ride-quiet';
export { rideLaneCells, rideLaneSpans, rideMeasure, ridePlanWorld, ridePositive, rideSampled, rideSeamBegin, rideSeamCorners, rideSeamEdges, rideSeamKeys, rideSeamTotal } from './ride-plan';
export { verifyClean } from './verify-clean';
