// A spinner on stderr while the service keeps a person waiting (a slow answer, retries after a 503 or a timeout): on
// a terminal only (stderr and stdout both: src/cli/io.ts statusLineAllowed), never when either is piped. The transport says what it waits for (src/client/transport.ts
// Activity); several requests at once show the latest.
import type { Activity } from '../client/transport.js';
import { palette } from '../render/style.js';
import { type IO, statusLineAllowed } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 100;
const CLEAR = '\r\u001b[2K';

export interface Spinner extends Activity {
  /** A line of its own on stderr (above the spinner, which is drawn again after it). */
  note(line: string): void;
}

/** The spinner for `io`, or undefined where none is shown (stderr or stdout is not a terminal, or TERM=dumb). */
export function terminalSpinner(
  io: IO,
  env: Record<string, string | undefined>,
  now: () => number,
): Spinner | undefined {
  if (!statusLineAllowed(io) || env.TERM === 'dumb') return undefined;
  const p = palette(io.colourErr);
  const active: { text: string; since: number }[] = [];
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    const top = active[active.length - 1];
    if (!top) return;
    const secs = Math.floor((now() - top.since) / 1000);
    io.err(`${CLEAR}${p.cyan(FRAMES[frame++ % FRAMES.length])} ${p.dim(`${top.text}… ${secs} s`)}`);
  };
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
    io.err(CLEAR);
  };
  return {
    begin(text) {
      const entry = { text, since: now() };
      active.push(entry);
      if (!timer) timer = setInterval(draw, FRAME_MS).unref();
      draw();
      return {
        update(text) {
          entry.text = text;
          draw();
        },
        end() {
          const i = active.indexOf(entry);
          if (i >= 0) active.splice(i, 1);
          if (!active.length && timer) stop();
        },
      };
    },
    note(line) {
      if (timer) io.err(CLEAR);
      io.err(`${line}\n`);
      draw();
    },
  };
}
