// Shared CLI plumbing: usage errors (exit 2) and numeric options that name what they expect. yargs turns a
// non-number into NaN (and a choice check into "Given: null"), losing what the user typed, so the raw text is
// looked up in argv for the message.
import { hideBin } from 'yargs/helpers';

export const EXIT_USAGE = 2;

export const usage = (msg: string): never => {
  process.stderr.write(`compile-collision: ${msg}\nRun compile-collision --help for usage.\n`);
  process.exit(EXIT_USAGE);
};

/** What the user typed for --name (the last occurrence), for messages. */
export function rawOption(name: string, argv: readonly string[] = hideBin(process.argv)): string | undefined {
  let raw: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) raw = argv[i + 1];
    else if (argv[i].startsWith(`--${name}=`)) raw = argv[i].slice(name.length + 3);
  }
  return raw;
}

export interface NumberRule {
  /** Inclusive bounds. */
  min: number;
  max?: number;
  integer: boolean;
  /** What the number counts or measures ("geometries", "metres"). */
  unit: string;
  /** The only values accepted, if any. */
  choices?: readonly number[];
}

/** What a numeric option expects, in words: "a whole number of geometries, 1 or more". */
export function expects(rule: NumberRule): string {
  if (rule.choices) return `one of ${rule.choices.join(', ')} (${rule.unit})`;
  const kind = rule.integer ? `a whole number of ${rule.unit}` : `a number of ${rule.unit}`;
  return rule.max === undefined ? `${kind}, ${rule.min} or more` : `${kind} from ${rule.min} to ${rule.max}`;
}

/** The option's value, or a usage error naming the option, what it expects and what it got. */
export function checkNumber(name: string, value: unknown, rule: NumberRule): number {
  const v = typeof value === 'number' ? value : Number.NaN;
  const ok =
    Number.isFinite(v) && (!rule.integer || Number.isInteger(v)) && v >= rule.min && (rule.max === undefined || v <= rule.max) &&
    (!rule.choices || rule.choices.includes(v));
  if (ok) return v;
  const got = rawOption(name) ?? String(value);
  return usage(`--${name} expects ${expects(rule)}; got "${got}"`);
}
