// A bump allocator over the encoder module's free linear memory, for one call at a time: the JavaScript caller lays
// out its own arrays from the heap base (src/geometry/wasm.ts) and passes where they end; a call's tables and
// results follow from there, growing the memory as needed. Nothing is freed: the next call starts over.

let TOP: usize = 0;

/** Starts a call's allocations at `arena` (the end of the caller's arrays). */
export function resetArena(arena: usize): void {
  TOP = (arena + 7) & ~(<usize>7);
}

function ensure(end: usize): void {
  const have = <usize>memory.size() << 16;
  if (end > have && memory.grow(<i32>((end - have + 0xffff) >> 16)) < 0) unreachable();
}

/** `bytes` of memory, 8-byte aligned, contents undefined. */
export function alloc(bytes: usize): usize {
  const p = TOP;
  TOP = (TOP + bytes + 7) & ~(<usize>7);
  ensure(TOP);
  return p;
}

/** `bytes` of zeroed memory, 8-byte aligned. */
export function allocZeroed(bytes: usize): usize {
  const p = alloc(bytes);
  memory.fill(p, 0, bytes);
  return p;
}
