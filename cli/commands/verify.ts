// Placeholder until the verify command lands (see the issue that owns it).
import type { CommandModule } from 'yargs';

export const verifyCommand: CommandModule = {
  command: 'verify',
  describe: '(verify: not built yet)',
  handler: () => {
    process.stderr.write('compile-collision: verify is not built yet\n');
    process.exit(1);
  },
};
