// Element i of an array at byte address p in linear memory: the accessors the encoder's modules share.

@inline export function i32At(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2));
}

@inline export function u32At(p: usize, i: i32): u32 {
  return load<u32>(p + (<usize>i << 2));
}

@inline export function f64At(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}

/** An f32 element, as f64 (exact). */
@inline export function f32At(p: usize, i: i32): f64 {
  return <f64>load<f32>(p + (<usize>i << 2));
}
