// The command reference's (docs/cli.md) option tables and exit-code paragraph are what --help says, exactly: every option of each command
// has one row (flags, default, description) and no row names an option the command lacks. A helper adding an
// option adds its docs/cli.md row with the same description as its yargs `describe`.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/compile-collision.js', import.meta.url));
const README = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
const help = (...cmd: string[]): string => {
  const r = spawnSync(process.execPath, [BIN, ...cmd, '--help'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, CI: '1' } });
  expect(r.status).toBe(0);
  return r.stdout;
};
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** yargs wraps lines at spaces, between words: rejoin without the break. */
const GLOBAL = new Set(['--help', '--version']);

export interface HelpOption {
  flags: string;
  description: string;
  default?: string;
}

/**
 * The options of a --help text, every group ("Output:", "Checks:", …, "Options:"; not "Commands:" or
 * "Positionals:"): flags, description (unwrapped) and default, in order.
 */
export function parseHelpOptions(text: string): HelpOption[] {
  const entries: string[] = [];
  let inOptions = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      // A group's heading ("Output:") opens one; anything else at column 0 (Commands:, Positionals:, the epilogue) closes.
      inOptions = /^[^\s].*:$/.test(line) && !/^(Commands|Positionals):$/.test(line);
      continue;
    }
    if (!inOptions) continue;
    if (/^ {2}(-\w, )?--[\w-]+/.test(line) || /^ {6}--[\w-]+/.test(line)) entries.push(line);
    else if (line.trim() && entries.length) entries[entries.length - 1] += ` ${line.trim()}`;
  }
  return entries.map((e) => {
    const m = /^\s*((?:-\w, )?--[\w-]+)\s+(.*)$/.exec(e)!;
    let rest = squash(m[2]);
    let def: string | undefined;
    // Trailing yargs annotations: [string] [number] [boolean] [choices: …] [default: …] [required].
    for (;;) {
      const a = /\s*\[(string|number|boolean|array|required|choices: [^\]]*|default: [^\]]*)\]$/.exec(rest);
      if (!a) break;
      if (a[1].startsWith('default: ')) def = a[1].slice(9).replace(/^"(.*)"$/, '$1');
      rest = rest.slice(0, a.index).trim();
    }
    return { flags: m[1], description: rest, default: def };
  });
}

/** The `| option | default | what it does |` table right after the line "Options of `compile-collision X`:". */
export function readmeTable(heading: string): HelpOption[] {
  const at = README.indexOf(`Options of \`${heading}\`:`);
  expect(at, `README has no line "Options of \`${heading}\`:" before its option table`).toBeGreaterThanOrEqual(0);
  const lines = README.slice(at).split('\n').slice(1);
  const rows: HelpOption[] = [];
  let started = false;
  for (const line of lines) {
    if (!line.startsWith('|')) {
      if (started) break;
      continue;
    }
    started = true;
    if (/^\| option \|/.test(line) || /^\| ---/.test(line)) continue;
    const cells = line.replace(/\\\|/g, '\u0000').split('|').slice(1, -1).map((c) => c.replace(/\u0000/g, '|').trim());
    const plain = (c: string): string => squash(c.replace(/`|\*\*/g, '')); // Markdown code and bold marks
    const tokens = plain(cells[0]).split(' ').filter((t) => t.startsWith('-')).map((t) => t.replace(/,$/, ''));
    // `--x`, `--no-x`: yargs lists a boolean's negation under --x alone.
    const flags = tokens.filter((t) => !(t.startsWith('--no-') && tokens.includes(`--${t.slice(5)}`))).join(', ');
    rows.push({ flags, default: plain(cells[1]), description: plain(cells[2]) });
  }
  return rows;
}

const readmeDefault = (helpDefault: string): string => (helpDefault === 'false' ? 'off' : helpDefault === 'true' ? 'on' : helpDefault);

function compare(cmd: string[], heading: string): void {
  const fromHelp = parseHelpOptions(help(...cmd)).filter((o) => !GLOBAL.has(o.flags));
  const rows = readmeTable(heading);
  const fix = 'make the README row (flags, default, description) and the yargs option (describe, default) say the same';
  expect(rows.map((r) => r.flags).sort(), `README rows under "Options of \`${heading}\`" vs --help options: ${fix}`).toEqual(fromHelp.map((o) => o.flags).sort());
  for (const o of fromHelp) {
    const row = rows.find((r) => r.flags === o.flags)!;
    expect(row.description, `${o.flags}: README "what it does" vs --help: ${fix}`).toBe(o.description);
    if (o.default !== undefined) expect(row.default, `${o.flags}: README default vs --help [default: ${o.default}]: ${fix}`).toBe(readmeDefault(o.default));
  }
}

describe('README vs --help', () => {
  it('the compile option table is the options of `compile-collision --help`', () => compare([], 'compile-collision LEVEL...'));
  it('the inspect option table is the options of `compile-collision inspect --help`', () => compare(['inspect'], 'compile-collision inspect'));
  it('the diff option table is the options of `compile-collision diff --help`', () => compare(['diff'], 'compile-collision diff'));
  it('the to-gltf option table is the options of `compile-collision to-gltf --help`', () => compare(['to-gltf'], 'compile-collision to-gltf'));
  it('the ride option table is the options of `compile-collision ride --help`', () => compare(['ride'], 'compile-collision ride'));
  it('the verify option table is the options of `compile-collision verify --help`', () => compare(['verify'], 'compile-collision verify'));
  it('the exit-code paragraph is the end of --help', () => {
    const m = /^Exit codes: [^]*?(?=\n\n)/m.exec(README.slice(README.indexOf('Options of `compile-collision LEVEL...`:')));
    expect(m, 'README: an "Exit codes:" paragraph after the compile option table').not.toBeNull();
    const text = help();
    const epilogue = text.slice(text.lastIndexOf('Exit codes:'));
    expect(squash(epilogue)).toBe(squash(m![0].replace(/`/g, '')));
  });
  it('parses what yargs prints: wrapped descriptions, aliases, defaults and choices', () => {
    const parsed = parseHelpOptions(help());
    expect(parsed.find((o) => o.flags === '-o, --out')).toBeDefined();
    expect(parsed.find((o) => o.flags === '--tiling')).toMatchObject({ default: 'auto' });
    expect(parsed.find((o) => o.flags === '--cell-size')).toMatchObject({ default: '100' });
  });
});
