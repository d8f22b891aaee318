// Placeholder until the inspect command lands (see the issue that owns it).
import type { CommandModule } from 'yargs';

export const inspectCommand: CommandModule = {
  command: 'inspect',
  describe: '(inspect: not built yet)',
  handler: () => {
    process.stderr.write('compile-collision: inspect is not built yet\n');
    process.exit(1);
  },
};
