// compile-collision inspect FILE.physics [--json]: the resource's summary, or its complete JSON dump.
// Thin: one library call (src/format/inspect.ts); exit 1 on a file that cannot be read or decoded.
import { readPhysicsFile } from '../../src/files.ts';
import type { CommandModule } from 'yargs';
import { inspectPhysics } from '../../src/format/inspect.ts';

interface InspectArgs {
  file: string;
  json: boolean;
}

export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect <file>',
  describe: 'summarise a .physics PhysicsResource (header, parts, shapes, edge classes); --json dumps it whole',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'a .physics file' })
      .option('json', { type: 'boolean', default: false, describe: 'print the complete resource as JSON' }),
  handler: (args) => {
    try {
      process.stdout.write(`${inspectPhysics(readPhysicsFile(args.file), { json: args.json })}\n`);
    } catch (e) {
      process.stderr.write(`compile-collision inspect: ${args.file}: ${(e as Error).message}\n`);
      process.exitCode = 1;
    }
  },
};
