// compile-collision: thin CLI. Each command is one library call; the library never prints or touches process.
// Exit codes: 0 success, 1 build/verification error, 2 usage error.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { compileCommand } from './commands/compile.ts';
import { inspectCommand } from './commands/inspect.ts';
import { verifyCommand } from './commands/verify.ts';
import { TOOL_VERSION } from '../src/version.ts';

export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

await yargs(hideBin(process.argv))
  .scriptName('compile-collision')
  .command(inspectCommand)
  .command(verifyCommand)
  .command(compileCommand)
  .strict()
  .demandCommand(1, 'give a level (.glb/.gltf) to compile, or a command')
  .fail((msg, err) => {
    if (err) throw err;
    process.stderr.write(`compile-collision: ${msg}\nRun compile-collision --help for usage.\n`);
    process.exit(EXIT_USAGE);
  })
  .help()
  // Our own version: yargs' guess looks for package.json above its install dir and loses its way when a parent
  // directory's name has a dot ("/tmp/tmp.X/…" printed "unknown").
  .version(TOOL_VERSION)
  .parseAsync();
