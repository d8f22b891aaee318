// Placeholder until the compile command lands (see the issue that owns it).
import type { CommandModule } from 'yargs';

export const compileCommand: CommandModule = {
  command: '$0 [inputs..]',
  describe: '(compile: not built yet)',
  handler: () => {
    process.stderr.write('compile-collision: compile is not built yet\n');
    process.exit(1);
  },
};
