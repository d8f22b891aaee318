// Golden regression (issue 5): the reference encoder's bytes (test/golden/, made by scripts/golden-update.ts from
// the cases in test/golden/cases.ts) against our codec and our encoder. A mismatch prints a per-record diff
// (test/helpers/hexdiff.ts) so the failure says which header word, part word, shape array element or tree node.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPhysicsResource, writePhysicsResource } from '../src/format/resource.ts';
import { GOLDEN_CASES, objectMesh } from './golden/cases.ts';
import { meshDigest } from './golden/digest.ts';
import { diffResources } from './helpers/hexdiff.ts';

const goldenBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./golden/${name}.physics`, import.meta.url)));
const goldenSummary = (name: string): any => JSON.parse(readFileSync(new URL(`./golden/${name}.json`, import.meta.url), 'utf8'));

/** Fails with the record-by-record diff when the bytes differ. */
function expectSameBytes(expected: Uint8Array, actual: Uint8Array, label: string): void {
  const diff = diffResources(expected, actual);
  if (diff.length) expect.fail(`${label}: bytes differ from the golden\n${diff.join('\n')}`);
}

describe('golden files', () => {
  it('hold at least 20 cases, one of them multi-object, one split at the u16 limits', () => {
    expect(GOLDEN_CASES.length).toBeGreaterThanOrEqual(20);
    expect(GOLDEN_CASES.some((c) => c.objects.length > 1)).toBe(true);
    expect(GOLDEN_CASES.some((c) => c.referenceSplit)).toBe(true);
  });

  it.each(GOLDEN_CASES.map((c) => [c.name]))('%s: fixture meshes unchanged since the golden was made', (name) => {
    const c = GOLDEN_CASES.find((x) => x.name === name)!;
    const recorded = goldenSummary(name).input.objects.map((o: any) => o.digest);
    const now = c.objects.map((o) => meshDigest(objectMesh(o)));
    expect(now, 'a fixture generator changed: run npm run golden:update (needs cargo)').toEqual(recorded);
  });
});

describe('codec on the reference output', () => {
  it.each(GOLDEN_CASES.map((c) => [c.name]))('%s: read then write is byte-identical', (name) => {
    const bytes = goldenBytes(name);
    expectSameBytes(bytes, writePhysicsResource(readPhysicsResource(bytes)), `${name} round trip`);
  });

  it.each(GOLDEN_CASES.map((c) => [c.name]))('%s: the default layout (no hints) is the reference layout', (name) => {
    const bytes = goldenBytes(name);
    const res = readPhysicsResource(bytes);
    expectSameBytes(bytes, writePhysicsResource({ ...res, layout: undefined }), `${name} default layout`);
  });

  it('decodes the counts and part words the reference reported', () => {
    for (const c of GOLDEN_CASES) {
      const res = readPhysicsResource(goldenBytes(c.name));
      const sum = goldenSummary(c.name);
      expect(res.word08, c.name).toBe(sum.header.word08);
      expect(res.shapes.map((s) => [s.vertices.length / 3, s.cornerVertices.length, s.faceOffsets.length - 1]), c.name).toEqual(
        sum.shapes.map((s: any) => [s.vertices, s.corners, s.faces]),
      );
      expect(res.parts.map((p) => [p.material, p.ids, p.flags, p.kind]), c.name).toEqual(
        sum.parts.map((p: any) => [p.material, p.ids, p.flags, p.kind]),
      );
    }
  });
});
