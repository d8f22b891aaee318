// src/build/cache-key.ts walkPlain: the token stream a cache key hashes (and a session's job signature). Its key lists are
// planned once per list (sorted, quoted); the stream must stay what the plain recipe gives — the recipe written out
// here — for any value: keys in any order, skipped keys, undefined values, nested arrays and objects, typed arrays,
// numbers JSON writes as null, strings with escapes.
import { describe, expect, it } from 'vitest';
import { walkPlain } from '../../src/build/cache-key.ts';

/** The recipe as first written: filter, sort and quote the keys of every object anew. */
function reference(v: unknown, skip: readonly string[], out: string[]): void {
  if (ArrayBuffer.isView(v)) {
    out.push(`<${v.constructor.name}:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}>`);
    return;
  }
  if (Array.isArray(v)) {
    out.push(`[${v.length}:`);
    for (const x of v) reference(x, [], out);
    out.push(']');
    return;
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).filter((k) => !skip.includes(k) && (v as Record<string, unknown>)[k] !== undefined).sort();
    out.push(`{${keys.length}:`);
    for (const k of keys) {
      out.push(`${JSON.stringify(k)}=`);
      reference((v as Record<string, unknown>)[k], [], out);
    }
    out.push('}');
    return;
  }
  out.push(`${typeof v}:${JSON.stringify(v)};`);
}

const walked = (v: unknown, skip: readonly string[] = []): string => {
  const out: string[] = [];
  walkPlain(v, skip, (t) => out.push(t), (a) => (out.push(`<${a.constructor.name}:${Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex')}>`), true));
  return out.join('');
};
const expected = (v: unknown, skip: readonly string[] = []): string => {
  const out: string[] = [];
  reference(v, skip, out);
  return out.join('');
};

function randomValue(seed: number): unknown {
  let s = seed >>> 0;
  const rnd = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const names = ['positions', 'indices', 'material', 'runs', 'triangles', 'sources', 'name', 'cell', 'b', 'a', 'Z', 'é', 'k"q'];
  let budget = 400;
  const make = (d: number): unknown => {
    const k = Math.floor(rnd() * 12);
    if (budget-- <= 0 || d === 0 || k < 5) {
      return [0, -0, 3.25, NaN, -Infinity, 'text "q" \n', true, null, undefined, new Float32Array([1, -0, 2]), new Uint32Array([7, 8]), 1e21][Math.floor(rnd() * 12)];
    }
    if (k < 8) return Array.from({ length: Math.floor(rnd() * 4) }, () => make(d - 1));
    const o: Record<string, unknown> = {};
    // Keys in a random insertion order: equal key sets in other orders must give one stream.
    for (const name of names.filter(() => rnd() < 0.4).sort(() => rnd() - 0.5)) o[name] = make(d - 1);
    return o;
  };
  return make(5);
}

describe('walkPlain', () => {
  it('gives the plain recipe\'s tokens for random values, with and without skipped keys', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const v = randomValue(seed);
      expect(walked(v)).toBe(expected(v));
      expect(walked(v, ['name', 'cell', 'sources'])).toBe(expected(v, ['name', 'cell', 'sources']));
    }
  });

  it('gives one stream for one key set in any insertion order, and tells key sets apart', () => {
    const a = { positions: new Float32Array([1, 2]), indices: new Uint32Array([0]), material: 3 };
    const b = { material: 3, indices: new Uint32Array([0]), positions: new Float32Array([1, 2]) };
    expect(walked(a)).toBe(walked(b));
    expect(walked({ ...a, extra: 1 })).not.toBe(walked(a));
    expect(walked({ ...a, extra: undefined })).toBe(walked(a));
    expect(walked(a, ['material'])).not.toBe(walked(a));
  });

  it('stops where the array callback says so', () => {
    const out: string[] = [];
    expect(walkPlain({ a: 1, b: new Uint8Array(1), c: 2 }, [], (t) => out.push(t), () => false)).toBe(false);
    expect(out.join('')).toBe('{3:"a"=number:1;"b"=');
  });
});
