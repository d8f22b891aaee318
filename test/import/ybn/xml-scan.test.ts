// The .ybn.xml reader's XML layer (src/import/ybn/xml-scan.ts): the tree it reads, and every well-formedness
// rule it checks, each refused with line and column.
import { describe, expect, it } from 'vitest';
import { XMLValidator } from 'fast-xml-parser';
import { scanXml } from '../../../src/import/ybn/xml-scan.ts';
import { compositeLevel, everyPolygon, writeYbnXml } from '../../fixtures/ybn.ts';

const bad = (text: string): string => {
  try {
    scanXml(text, 'ybn-xml: t.ybn.xml');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('scanXml', () => {
  it('reads elements, attributes (both quotes), trimmed text, CDATA; skips the declaration and comments', () => {
    const el = scanXml('\ufeff<?xml version="1.0"?>\n<!-- c -->\n<A x="1" y=\'2\'>\n  hello <!-- in -->\n <B/><C k = "v">t<![CDATA[ <raw> ]]></C>\n</A>\n<!-- after -->\n', 's');
    expect(el).toEqual({
      name: 'A', attrs: { x: '1', y: '2' }, text: 'hello',
      children: [{ name: 'B', attrs: {}, children: [], text: '' }, { name: 'C', attrs: { k: 'v' }, children: [], text: 't<raw>' }],
    });
  });

  it('takes every fixture fast-xml-parser\'s validator takes', () => {
    for (const text of [writeYbnXml(compositeLevel()), writeYbnXml(everyPolygon())]) {
      expect(XMLValidator.validate(text)).toBe(true);
      expect(scanXml(text, 's').name).toBe('BoundsFile');
    }
  });

  it('refuses what is not well-formed, with line and column', () => {
    const at = /^ybn-xml: t\.ybn\.xml: not well-formed XML at line \d+, column \d+: /;
    const cases: [string, RegExp][] = [
      ['<A><B></A>', /line 1, column 7: end tag <\/A> does not match <B>/],
      ['<A>\n  <B x=1/></A>', /line 2, column 8: attribute x: value not in quotes/],
      ['<A x="1" x="2"/>', /attribute x given twice/],
      ['<A/><B/>', /a second root element <B>/],
      ['<A/>tail', /text after the root element/],
      ['text<A/>', /text before the root element/],
      ['<!DOCTYPE A [<!ENTITY e "x">]><A/>', /a DOCTYPE or other declaration/],
      ['<A><!-- open </A>', /unclosed comment/],
      ['<A>', /unclosed element <A>/],
      ['<A x="1"', /unclosed start tag <A>/],
      ['<A x="a<b"/>', /"<" in its value/],
      ['<A x="1"y="2"/>', /expected a space before an attribute/],
      ['<A __proto__="x"/>', /attribute name __proto__/],
      ['</A>', /end tag <\/A> without a start tag/],
      ['<1A/>', /expected a name/],
      ['', /no root element/],
      ['<?xml version="1.0"', /unclosed processing instruction/],
    ];
    for (const [text, want] of cases) {
      const m = bad(text);
      expect(m, text).toMatch(at);
      expect(m, text).toMatch(want);
    }
  });

  it('a truncated fixture at every 97th character is refused or read, never anything else', () => {
    const text = writeYbnXml(compositeLevel());
    for (let k = 0; k < text.length; k += 97) {
      try {
        scanXml(text.slice(0, k), 'ybn-xml: t');
      } catch (e) {
        expect((e as Error).message).toMatch(/^ybn-xml: t: not well-formed XML at line \d+, column \d+: /);
      }
    }
  });
});
