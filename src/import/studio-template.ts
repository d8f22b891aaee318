// A PhysicsResource written by ReSkate Studio as the template of the header form (--studio-template): its word
// 0x08 and 0x4c-byte body are copied into every output (docs/format-decisions.md). Read as a regular file of at
// most MAX_RESOURCE_BYTES and decoded by the codec before anything is taken from it.
import { MAX_RESOURCE_BYTES, readRegularFile } from '../files.ts';
import { readPhysicsResource } from '../format/resource.ts';
import { STUDIO_BODY_SIZE } from '../format/types.ts';

/** A header form given directly (encode.header, as --recorded-options passes it) that is Studio's: word 0x08 or a body. */
export const isStudioForm = (h: { word08: number; body: Uint8Array } | undefined): boolean => h !== undefined && (h.word08 !== 0 || h.body.length > 0);

/** Header word 0x08 and body of a Studio-written resource (the only source of Studio's template bytes). */
export async function readStudioTemplate(path: string): Promise<{ word08: number; body: Uint8Array }> {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, MAX_RESOURCE_BYTES, 'error', 'any PhysicsResource (MAX_RESOURCE_BYTES, 1 GiB)');
  } catch (e) {
    throw new Error(`template: ${path}: ${(e as Error).message}`);
  }
  let res;
  try {
    res = readPhysicsResource(new Uint8Array(bytes));
  } catch (e) {
    throw new Error(`template: ${path}: not a readable PhysicsResource: ${(e as Error).message}`);
  }
  if (res.body.length !== STUDIO_BODY_SIZE) {
    throw new Error(`template: ${path}: body is ${res.body.length} bytes, Studio's is ${STUDIO_BODY_SIZE} (a game resource has none)`);
  }
  return { word08: res.word08, body: res.body };
}
