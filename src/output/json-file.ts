// JSON written into a file as it is made: byte for byte the text `${JSON.stringify(value, null, indent)}\n` (or,
// without an indent, the compact form), never held whole (the 64M bench level's manifest is ~32 MB of
// text and its build record ~40 MB; JSON.stringify, the "\n" concatenation and the UTF-8 conversion held about
// three copies of each at the build's peak). The top value, every container of more than WHOLE_MAX entries and
// every container holding one are walked; anything else is JSON.stringify's own text (re-indented: a JSON text has
// no raw line break inside a string).
import { writeAll } from './file-write.ts';

/** Containers below the top with at most this many entries, holding none with more, are stringified whole (native, fast). */
const WHOLE_MAX = 64;
/** Characters of text buffered before a write. */
const CHUNK = 1 << 20;

/** A value JSON.stringify leaves out of an object (and writes as null in an array). */
const skipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** A plain array or object without toJSON: what this walk may go into (anything else is JSON.stringify's). */
function walkable(v: unknown): v is unknown[] | Record<string, unknown> {
  if (v === null || typeof v !== 'object' || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A container this walk goes into even below the top: more than WHOLE_MAX entries. */
const big = (v: unknown): boolean => walkable(v) && (Array.isArray(v) ? v.length : Object.keys(v).length) > WHOLE_MAX;

/**
 * Writes `value` as JSON into the open file `fd`, followed by a line break: the bytes of
 * `${JSON.stringify(value, null, indent)}\n` (indent 0: the compact form). Returns the bytes written.
 */
export function writeJson(fd: number, value: unknown, indent = 0): number {
  const step = ' '.repeat(indent);
  let text = '';
  let bytes = 0;
  const flush = (): void => {
    const b = Buffer.from(text, 'utf8');
    writeAll(fd, b);
    bytes += b.length;
    text = '';
  };
  const out = (s: string): void => {
    text += s;
    if (text.length >= CHUNK) flush();
  };
  const whole = (v: unknown, pad: string): void => {
    const s = JSON.stringify(v, null, indent);
    // Only a toJSON giving undefined gets here without text (JSON.stringify would drop its key): refused, not guessed.
    if (s === undefined) throw new Error('json: a value whose toJSON gives nothing');
    out(step && pad ? s.replaceAll('\n', `\n${pad}`) : s);
  };
  const emit = (v: unknown, pad: string, top: boolean): void => {
    if (!walkable(v) || !(top || big(v) || (Array.isArray(v) ? v : Object.values(v)).some(big))) return whole(v, pad);
    const array = Array.isArray(v);
    const keys = array ? null : Object.keys(v).filter((k) => !skipped((v as Record<string, unknown>)[k]));
    const n = array ? v.length : keys!.length;
    if (n === 0) return out(array ? '[]' : '{}');
    const inner = pad + step;
    const open = step ? '\n' : '';
    out(array ? `[${open}` : `{${open}`);
    for (let i = 0; i < n; i++) {
      out(inner);
      if (array) {
        const x = (v as unknown[])[i];
        if (skipped(x)) out('null');
        else emit(x, inner, false);
      } else {
        const k = keys![i];
        out(`${JSON.stringify(k)}:${step ? ' ' : ''}`);
        emit((v as Record<string, unknown>)[k], inner, false);
      }
      out(i < n - 1 ? `,${open}` : open);
    }
    out(`${step ? pad : ''}${array ? ']' : '}'}`);
  };
  if (skipped(value)) throw new Error('json: no JSON text for undefined, a function or a symbol');
  emit(value, '', true);
  out('\n');
  flush();
  return bytes;
}
