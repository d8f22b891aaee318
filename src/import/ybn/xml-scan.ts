// A small, strict XML reader for .ybn.xml: elements, attributes, text, comments, CDATA and the declaration, checked
// for well-formedness as it goes (one root, matching end tags, quoted attributes, no duplicate attribute, names
// of XML name characters) and refused with line and column otherwise. It replaces fast-xml-parser's validate-then-
// parse here because that took two thirds of a .ybn.xml import (1.2–2.2 s for a 3 MB, 30,000-triangle file), most
// of it building attribute maps twice. Entities are not expanded (as before: `&amp;` stays as written), and a
// DOCTYPE is refused (no entity definitions, no external anything).

export interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  /** The element's own text, each run trimmed, runs joined (fast-xml-parser's trimValues). */
  text: string;
}

/** The children of every self-closing element (one frozen array: most elements of a .ybn.xml are <Triangle />). */
const NO_CHILDREN: El[] = Object.freeze([]) as unknown as El[];

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 13;
/** XML name characters (ASCII subset plus anything non-ASCII, as the validator accepted). */
const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58 || c > 127;
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;

/** Parses `text`; returns the root element. Throws `<stage>: not well-formed XML at line L, column C: …`. */
export function scanXml(text: string, stage: string): El {
  const n = text.length;
  let i = 0;
  function fail(at: number, what: string): never {
    let line = 1;
    let start = 0;
    for (let k = text.indexOf('\n'); k >= 0 && k < at; k = text.indexOf('\n', k + 1)) (line++, (start = k + 1));
    throw new Error(`${stage}: not well-formed XML at line ${line}, column ${at - start + 1}: ${what}`);
  }
  const name = (): string => {
    const s = i;
    if (i >= n || !isNameStart(text.charCodeAt(i))) fail(i, 'expected a name');
    while (i < n && isNameChar(text.charCodeAt(i))) i++;
    return text.slice(s, i);
  };
  const skipSpace = (): void => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };
  const stack: El[] = [];
  let root: El | undefined;
  const addText = (s: string, at: number): void => {
    const t = s.trim();
    if (t === '') return;
    const top = stack[stack.length - 1];
    if (!top) fail(at, root ? 'text after the root element' : 'text before the root element');
    top.text += t;
  };
  if (text.charCodeAt(0) === 0xfeff) i = 1; // a byte-order mark
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) {
      addText(text.slice(i), i);
      break;
    }
    if (lt > i) addText(text.slice(i, lt), i);
    i = lt;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) fail(i, 'unclosed processing instruction');
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) fail(i, 'unclosed comment');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) fail(i, 'unclosed CDATA section');
      if (!stack.length) fail(i, 'CDATA outside the root element');
      stack[stack.length - 1].text += text.slice(i + 9, end).trim();
      i = end + 3;
    } else if (text.startsWith('<!', i)) {
      fail(i, 'a DOCTYPE or other declaration (not allowed here)');
    } else if (text.charCodeAt(i + 1) === 47) {
      // </name>
      const at = i;
      i += 2;
      const closing = name();
      skipSpace();
      if (text.charCodeAt(i) !== 62) fail(i, `expected ">" to end </${closing.slice(0, 80)}>`);
      i++;
      const open = stack.pop();
      if (!open) fail(at, `end tag </${closing.slice(0, 80)}> without a start tag`);
      if (open.name !== closing) fail(at, `end tag </${closing.slice(0, 80)}> does not match <${open.name.slice(0, 80)}>`);
    } else {
      const at = i;
      i++;
      const elName = name();
      // A plain object (Object.create(null) is a slow dictionary); "__proto__" would not be a property there.
      const attrs: Record<string, string> = {};
      if (!stack.length && root) fail(at, `a second root element <${elName.slice(0, 80)}>`);
      let selfClosing = false;
      for (;;) {
        const before = i;
        skipSpace();
        const c = text.charCodeAt(i);
        if (i >= n) fail(at, `unclosed start tag <${elName.slice(0, 80)}>`);
        if (c === 62) {
          i++;
          break;
        }
        if (c === 47) {
          if (text.charCodeAt(i + 1) !== 62) fail(i, 'expected "/>"');
          i += 2;
          selfClosing = true;
          break;
        }
        if (i === before) fail(i, 'expected a space before an attribute');
        const an = name();
        skipSpace();
        if (text.charCodeAt(i) !== 61) fail(i, `attribute ${an.slice(0, 80)} has no "=" and value`);
        i++;
        skipSpace();
        const q = text.charCodeAt(i);
        if (q !== 34 && q !== 39) fail(i, `attribute ${an.slice(0, 80)}: value not in quotes`);
        const end = text.indexOf(q === 34 ? '"' : "'", i + 1);
        if (end < 0) fail(i, `attribute ${an.slice(0, 80)}: unclosed value`);
        const v = text.slice(i + 1, end);
        if (v.includes('<')) fail(i, `attribute ${an.slice(0, 80)}: "<" in its value`);
        if (an === '__proto__') fail(before, 'attribute name __proto__ (not allowed here)');
        if (Object.hasOwn(attrs, an)) fail(before, `attribute ${an.slice(0, 80)} given twice`);
        attrs[an] = v;
        i = end + 1;
      }
      const el: El = { name: elName, attrs, children: selfClosing ? NO_CHILDREN : [], text: '' };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else root = el;
      if (!selfClosing) stack.push(el);
    }
  }
  if (stack.length) fail(n, `unclosed element <${stack[stack.length - 1].name.slice(0, 80)}>`);
  if (!root) fail(n, 'no root element');
  return root;
}
