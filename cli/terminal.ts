// What the CLI prints reaches a terminal: a name from someone else's level ("rail\x1b]8;;http://…\x07") must not
// move the cursor, retitle the window, ring the bell or plant a hyperlink. Every write to stdout and stderr goes
// through escapeControl (installed once by main.ts); the progress bar, the one writer of our own escape codes,
// writes through rawStderr. JSON output is already escaped by JSON.stringify and passes unchanged.

/**
 * C0 controls but tab and newline, DEL, C1 controls, and the Unicode bidirectional overrides/isolates (which
 * reorder what the terminal shows: "Trojan Source"), written as visible escapes: \x1b, \x07, \u202e.
 */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

type Write = typeof process.stdout.write;
const rawWrites = new Map<NodeJS.WriteStream, Write>();

function install(stream: NodeJS.WriteStream): void {
  if (rawWrites.has(stream)) return;
  const raw = stream.write.bind(stream) as Write;
  rawWrites.set(stream, raw);
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    return (raw as (c: string, ...r: unknown[]) => boolean)(escapeControl(text), ...rest);
  }) as Write;
}

/** Makes every later write to stdout and stderr escape control characters (main.ts, once, before any output). */
export function escapeTerminalOutput(): void {
  install(process.stdout);
  install(process.stderr);
}

/** stderr for a writer of its own terminal codes (cli-progress): the same stream, its writes not escaped. */
export function rawStderr(): NodeJS.WriteStream {
  const raw = rawWrites.get(process.stderr);
  if (!raw) return process.stderr;
  const proxy = Object.create(process.stderr) as NodeJS.WriteStream;
  proxy.write = raw;
  return proxy;
}
