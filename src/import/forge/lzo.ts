// LZO1X decompression, written clean-room from the public description of the bitstream (the Linux kernel's
// Documentation/staging/lzo.rst: instruction classes by the top bits of the opcode, the state carried from one
// instruction to the next = the literals the last one copied, the end marker 0x11 0x00 0x00). No LZO code was read.
// Every read of the input and every copy into the output is bounds-checked; the output is allocated once at the
// size the container declares (the caller checks it against its cap first) and must be filled exactly.
import { FormatError } from '../../format/cursor.ts';

/** Largest decompressed block or stream this decoder will make, bytes (a forge data file is at most a few MB). */
export const MAX_LZO_OUTPUT_BYTES = 256 << 20;

/**
 * Decompresses one LZO1X stream into exactly `outSize` bytes. Throws a FormatError (stage `stage`) at the input
 * offset of the first instruction that would read past the input, copy past the output, reach back before the
 * output's start, or that leaves input after the end marker or output unfilled.
 */
export function lzo1xDecompress(src: Uint8Array, outSize: number, stage = 'lzo1x', cap = MAX_LZO_OUTPUT_BYTES): Uint8Array {
  if (!Number.isInteger(outSize) || outSize < 0 || outSize > cap) {
    throw new FormatError(stage, 0, `declared output size ${outSize} is outside 0 … ${cap} bytes`);
  }
  const out = new Uint8Array(outSize);
  let ip = 0;
  let op = 0;
  let at = 0; // the current instruction's offset, for messages
  const fail = (detail: string): never => {
    throw new FormatError(stage, at, detail);
  };
  const byte = (): number => {
    if (ip >= src.length) fail(`instruction needs a byte at input offset ${ip}, input is ${src.length} bytes`);
    return src[ip++];
  };
  /** Length extension: each zero byte adds 255, the first non-zero byte ends it. */
  const extend = (base: number): number => {
    let n = base;
    for (;;) {
      const b = byte();
      if (b !== 0) return n + b;
      n += 255;
      if (n > outSize + 255) fail(`length extension runs past the output size ${outSize}`);
    }
  };
  const literals = (n: number): void => {
    if (ip + n > src.length) fail(`literal run of ${n} bytes at input offset ${ip}: input has ${src.length - ip} left`);
    if (op + n > outSize) fail(`literal run of ${n} bytes at output offset ${op}: output is ${outSize} bytes`);
    out.set(src.subarray(ip, ip + n), op);
    ip += n;
    op += n;
  };
  const match = (distance: number, length: number): void => {
    if (distance > op) fail(`match reaches back ${distance} bytes from output offset ${op}`);
    if (op + length > outSize) fail(`match of ${length} bytes at output offset ${op}: output is ${outSize} bytes`);
    // Byte by byte: a match may overlap the bytes it writes (distance < length repeats them).
    for (let k = 0; k < length; k++, op++) out[op] = out[op - distance];
  };

  // state: 0 = the last instruction copied no literals, 1..3 = that many, 4 = a literal run (≥ 4) just ended.
  let state = 0;
  if (src.length > 0 && src[0] > 17) {
    const t = byte() - 17;
    literals(t);
    state = t < 4 ? t : 4;
  }
  for (;;) {
    at = ip;
    const op0 = byte();
    if (op0 < 16) {
      if (state === 0) {
        const n = 3 + (op0 === 0 ? extend(15) : op0);
        literals(n);
        state = 4;
        continue;
      }
      const h = byte();
      const s = op0 & 3;
      if (state === 4) match((h << 2) + (op0 >> 2) + 2049, 3);
      else match((h << 2) + (op0 >> 2) + 1, 2);
      literals(s);
      state = s;
      continue;
    }
    let length: number;
    let distance: number;
    let s: number;
    if (op0 < 32) {
      const l = op0 & 7;
      length = 2 + (l === 0 ? extend(7) : l);
      const lo = byte();
      const d = lo | (byte() << 8);
      distance = 16384 + ((op0 & 8) << 11) + (d >> 2);
      s = d & 3;
      if (distance === 16384) {
        if (length !== 3) fail(`end marker with length ${length} (expected 3)`);
        break;
      }
    } else if (op0 < 64) {
      const l = op0 & 31;
      length = 2 + (l === 0 ? extend(31) : l);
      const lo = byte();
      const d = lo | (byte() << 8);
      distance = (d >> 2) + 1;
      s = d & 3;
    } else {
      length = op0 < 128 ? 3 + ((op0 >> 5) & 1) : 5 + ((op0 >> 5) & 3);
      distance = (byte() << 3) + ((op0 >> 2) & 7) + 1;
      s = op0 & 3;
    }
    match(distance, length);
    literals(s);
    state = s;
  }
  if (ip !== src.length) fail(`${src.length - ip} bytes of input after the end marker (input is ${src.length} bytes)`);
  if (op !== outSize) fail(`stream ends after ${op} bytes of output, ${outSize} declared`);
  return out;
}
