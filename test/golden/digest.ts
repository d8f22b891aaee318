// A digest of a mesh's exact bytes, recorded in each golden's .json so a changed fixture generator is caught as
// "fixture changed, run npm run golden:update" rather than as a confusing byte mismatch.
import { createHash } from 'node:crypto';
import type { Mesh } from '../fixtures/meshes.ts';

export function meshDigest(m: Mesh): string {
  const h = createHash('sha256');
  h.update(new Uint8Array(m.positions.buffer, m.positions.byteOffset, m.positions.byteLength));
  h.update(new Uint8Array(m.indices.buffer, m.indices.byteOffset, m.indices.byteLength));
  return h.digest('hex').slice(0, 16);
}
