// compile-collision verify FILE.physics...: read, write back and compare bytes, check the invariants
// (src/format/verify.ts). Prints every finding; exit 0 only when every file has none.
import { readPhysicsFile } from '../../src/files.ts';
import type { CommandModule } from 'yargs';
import { type Finding, verifyPhysics } from '../../src/format/verify.ts';

interface VerifyArgs {
  files: string[];
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify <files..>',
  describe: 'check .physics files: byte-exact round trip, counts, indices, face offsets, corner index, tree boxes, planes',
  builder: (y) => y.positional('files', { type: 'string', array: true, demandOption: true, describe: '.physics files' }),
  handler: (args) => {
    let failed = 0;
    for (const file of args.files) {
      let findings: Finding[];
      try {
        findings = verifyPhysics(readPhysicsFile(file), file);
      } catch (e) {
        findings = [{ file, check: 'open', message: (e as Error).message }];
      }
      for (const f of findings) process.stderr.write(`${f.file}: ${f.check}: ${f.message}\n`);
      if (findings.length) failed++;
      else process.stdout.write(`${file}: ok\n`);
    }
    if (failed) {
      process.stderr.write(`compile-collision verify: ${failed} of ${args.files.length} files failed\n`);
      process.exitCode = 1;
    }
  },
};
