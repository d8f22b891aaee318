// draco3dgltf ships no types; only the two factory functions are used (decoder here, encoder in tests/samples).
declare module 'draco3dgltf' {
  export function createDecoderModule(options?: object): Promise<unknown>;
  export function createEncoderModule(options?: object): Promise<unknown>;
}
