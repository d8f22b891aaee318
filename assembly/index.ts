// The encoder's WebAssembly module (scripts/build-wasm.mjs compiles this entry): the tree builder and the corner
// edge data. See each file's header.
export { heapBase, build } from './tree';
export { edges } from './edges';
