// The progress display: one line on stderr for the stage running (import, validate, plan, encode, publish), a bar
// where the stage counts steps (encode: resources), its elapsed seconds otherwise. Only on a terminal; the library
// only reports (CompileHooks.onProgress), the CLI draws. --progress-json: the same events as JSON lines on stderr.
import type { ProgressStage } from '../src/build/compile.ts';
import { rawStderr } from './terminal.ts';

export interface ProgressDisplay {
  update: (stage: ProgressStage, done: number, total: number) => void;
  stop: () => void;
}

/** --progress-json: every event as one line of JSON on stderr, written whole (a reader splits at newlines). */
export function progressJsonLines(write: (line: string) => void = (l) => void process.stderr.write(l)): ProgressDisplay {
  return { update: (stage, done, total) => write(`${JSON.stringify({ stage, done, total })}\n`), stop: () => {} };
}

const NONE: ProgressDisplay = { update: () => {}, stop: () => {} };

export async function progressDisplay(wanted: boolean): Promise<ProgressDisplay> {
  if (!wanted || !process.stderr.isTTY) return NONE;
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    { stream: rawStderr(), format: '  {stage} [{bar}] {value}/{total} {duration}s', hideCursor: true, clearOnComplete: true, fps: 10 },
    Presets.shades_classic,
  );
  let current: string | undefined;
  return {
    update: (stage, done, total) => {
      if (current !== stage) {
        if (current !== undefined) bar.stop();
        bar.start(total, done, { stage });
        current = stage;
      } else {
        bar.setTotal(total);
        bar.update(done, { stage });
      }
      if (done >= total) {
        bar.stop();
        current = undefined;
      }
    },
    stop: () => {
      if (current !== undefined) bar.stop();
      current = undefined;
    },
  };
}
