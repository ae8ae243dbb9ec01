// The one IO object commands write through: streams, terminal facts, colour and whether prompting is allowed.
import type { Readable, Writable } from 'node:stream';

export interface IO {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  /** stdout is a terminal: tables for people, relative times. */
  stdoutTTY: boolean;
  stdinTTY: boolean;
  stderrTTY: boolean;
  /** Colour escapes are allowed on stdout (NO_COLOR / FORCE_COLOR / terminal). */
  colour: boolean;
  /** Colour escapes are allowed on stderr. */
  colourErr: boolean;
  /** Terminal width for tables and charts (80 when unknown). */
  width: number;
  /** Terminal height: a longer table goes through the pager (24 when unknown). */
  rows: number;
  /** Nobody reads stdout any more (the pager quit early): lists stop fetching and writing. */
  closed?: boolean;
  /** While a pager reads slower than the output comes: when it takes more (src/render/writer.ts). */
  ready?: () => Promise<void> | undefined;
  /** A person can be asked: stdin and stderr are terminals and --no-input / COINOP_NO_INPUT are not set. */
  canPrompt: boolean;
  out(text: string): void;
  err(text: string): void;
}

export interface IOOptions {
  /** The terminal's conventions: NO_COLOR, FORCE_COLOR, TERM, COLUMNS, LINES (coinop's own settings are not read here). */
  env?: Record<string, string | undefined>;
  /** --no-input or COINOP_NO_INPUT (Settings.noInput). */
  noInput?: boolean;
  noColour?: boolean;
}

function colourAllowed(env: Record<string, string | undefined>, tty: boolean, noColour: boolean): boolean {
  if (noColour) return false;
  // https://no-color.org: any non-empty NO_COLOR turns colour off; FORCE_COLOR=0 does too.
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return tty;
}

/**
 * The streams an IO object writes through. `stdin` is read only when a command reads it (it may be a getter: see
 * processStreams), so `stdinTTY`, when given, answers whether it is a terminal without making it.
 */
export interface IOStreams {
  stdin: IO['stdin'];
  stdout: IO['stdout'];
  stderr: IO['stderr'];
  stdinTTY?: boolean;
}

/**
 * The process's own streams, stdin made on first use: process.stdin opens descriptor 0 as a stream (on a file or a
 * pipe that loads fs's stream and promise modules), which a command that never reads it need not pay for. Whether it
 * is a terminal is asked of the descriptor.
 */
export function processStreams(isatty: (fd: number) => boolean): IOStreams {
  return {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stdinTTY: isatty(0),
  };
}

export function makeIO(streams: IOStreams, opts: IOOptions = {}): IO {
  const env = opts.env ?? {};
  const stdoutTTY = !!streams.stdout.isTTY;
  const stderrTTY = !!streams.stderr.isTTY;
  const stdinTTY = streams.stdinTTY ?? !!streams.stdin.isTTY;
  const envWidth = Number(env.COLUMNS);
  const envRows = Number(env.LINES);
  const io: IO = {
    // Asked of `streams` when read, so a lazy stdin stays unmade until a command reads it.
    get stdin() {
      return streams.stdin;
    },
    stdout: streams.stdout,
    stderr: streams.stderr,
    stdoutTTY,
    stdinTTY,
    stderrTTY,
    colour: colourAllowed(env, stdoutTTY, !!opts.noColour),
    colourErr: colourAllowed(env, stderrTTY, !!opts.noColour),
    width: streams.stdout.columns || streams.stderr.columns || (envWidth > 0 ? envWidth : 80),
    rows: streams.stdout.rows || streams.stderr.rows || (envRows > 0 ? envRows : 24),
    canPrompt: stdinTTY && stderrTTY && !opts.noInput,
    out: (t) => void streams.stdout.write(t),
    err: (t) => void streams.stderr.write(t),
  };
  return io;
}

/**
 * A status line (a spinner, a line redrawn in place) may be drawn on stderr: only when stderr and stdout are both a
 * terminal. With stdout piped (`coinop events watch | jq`) the piped output reaches the same terminal and a redrawn
 * line would run into it: only plain one-off lines go to stderr then.
 */
export const statusLineAllowed = (io: Pick<IO, 'stdoutTTY' | 'stderrTTY'>) => io.stdoutTTY && io.stderrTTY;

/** Updates the decisions that depend on global flags once they are parsed. */
export function applyFlags(
  io: IO,
  env: Record<string, string | undefined>,
  flags: { noInput?: boolean; noColour?: boolean },
): void {
  const fresh = makeIO(io, { env, ...flags });
  io.colour = fresh.colour;
  io.colourErr = fresh.colourErr;
  io.canPrompt = fresh.canPrompt;
}
