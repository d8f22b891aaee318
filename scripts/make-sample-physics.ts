// Writes samples/kinds.physics: a small PhysicsResource with one part of each shape kind the codec reads (a kind-5
// triangle-mesh quad, a kind-3 convex pyramid, a kind-2 box with face planes) and a 0x4c-byte placeholder body,
// hand-laid field by field (test/format/fixtures.ts). Deterministic; `compile-collision inspect samples/kinds.physics`
// shows it. Run: npx tsx scripts/make-sample-physics.ts
import { writeFileSync } from 'node:fs';
import { HAND_RESOURCES, layResource } from '../test/format/fixtures.ts';

const out = new URL('../samples/kinds.physics', import.meta.url);
const bytes = layResource(HAND_RESOURCES['mesh + convex + box, Studio body']());
writeFileSync(out, bytes);
process.stdout.write(`wrote ${out.pathname} (${bytes.length} bytes)\n`);
