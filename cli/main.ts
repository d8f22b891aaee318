// compile-collision: thin CLI. Each command is one library call; the library never prints or touches process.
// Exit codes: 0 success, 1 build/verification error, 2 usage error.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { compileCommand } from './commands/compile.ts';
import { diffCommand } from './commands/diff.ts';
import { inspectCommand } from './commands/inspect.ts';
import { verifyCommand } from './commands/verify.ts';
import { toGltfCommand } from './commands/to-gltf.ts';
import { rideCommand } from './commands/ride.ts';
import { TOOL_VERSION } from '../src/version.ts';
import { escapeTerminalOutput } from './terminal.ts';

// Names in a level are someone else's text: shown with control characters escaped (cli/terminal.ts).
escapeTerminalOutput();

// A closed stdout (`compile-collision inspect x.physics --json | head`) ends any command quietly: nobody is left
// to read the rest, which is not an error of the command's.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

/**
 * yargs renders a command's whole --help text (every option's description wrapped to the terminal, measured grapheme
 * by grapheme) right after starting the command's handler, and keeps it for a showHelp() the handler might call later:
 * ~25–30 ms of CPU at each `ride`, `verify` or `inspect` start. Our handlers never ask yargs for help (usage errors
 * print their own line and point to --help, which yargs renders as before), so the copy is not made. Through yargs'
 * internal methods where they exist as expected; otherwise left as it is.
 */
function skipHelpCache(y: object): void {
  type Usage = { cacheHelpMessage?: () => void };
  const usage = (y as { getInternalMethods?: () => { getUsageInstance?: () => Usage } }).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

const cli = yargs(hideBin(process.argv));
skipHelpCache(cli);

await cli
  .scriptName('compile-collision')
  .command(inspectCommand)
  .command(verifyCommand)
  .command(diffCommand)
  .command(toGltfCommand)
  .command(rideCommand)
  .command(compileCommand)
  .strict()
  .demandCommand(1, 'give a level (.glb/.gltf) to compile, or a command')
  .fail((msg, err) => {
    if (err) throw err;
    process.stderr.write(`compile-collision: ${msg}\nRun compile-collision --help for usage.\n`);
    process.exit(EXIT_USAGE);
  })
  // docs/cli.md's exit-code paragraph says the same (test/cli/readme.test.ts).
  .epilogue(
    'Exit codes: 0 every level built (or every file held, or the two inputs of diff are identical), 1 a level failed ' +
      '(bad input: the message names file, node, mesh, primitive and the numbers; an output directory it may not replace; ' +
      "a warning under --strict; geometries over ReSkate's pool), a file failed verify, or diff found differences, 2 usage " +
      'error (unknown option, a number option given something else, no such file, a glob that matches nothing, two ' +
      'levels that would share one output directory).',
  )
  .help()
  // Our own version: yargs' guess looks for package.json above its install dir and loses its way when a parent
  // directory's name has a dot ("/tmp/tmp.X/…" printed "unknown").
  .version(TOOL_VERSION)
  .parseAsync();
