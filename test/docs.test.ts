// The documentation ships in the package: it may cite only what ships with it. No ../shared (the project's
// reference folder, outside the repository and the package), no internal issue numbers (say what the thing is).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url);
const DOCS = ['README.md', ...readdirSync(new URL('docs/', ROOT)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('docs', () => {
  for (const f of DOCS) {
    it(`${f}: cites nothing outside the repository, names no issue numbers`, () => {
      const text = readFileSync(new URL(f, ROOT), 'utf8');
      expect(text.match(/\.\.\/shared\/[^\s)`]*/g) ?? []).toEqual([]);
      expect(text.match(/\b[Ii]ssues? #?\d+|(?<![&\w])#\d{1,3}\b/g) ?? []).toEqual([]);
    });
  }
  it('the format reference is linked from the README', () => {
    expect(readFileSync(new URL('README.md', ROOT), 'utf8')).toContain('(docs/format.md)');
  });
});
