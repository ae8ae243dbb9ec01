// Entry point: builds the IO object and context from the process, runs the program, maps errors to exit codes.
import { createRequire } from 'node:module';
import { isatty } from 'node:tty';
import type { CommanderError } from 'commander';
import { createContext, interruptedNote } from '../cli/invocation.js';
import { recordPolicyEvents } from '../cli/policy-audit.js';
import { CoinopError, asCliError, reportError, usageError } from '../cli/errors.js';
import { commandSuggestions, UnknownCommandError } from '../cli/command-suggest.js';
import type { Invocation } from '../cli/invocation.js';
import { meaning } from '../contract/suggest.js';
import { EXIT } from '../cli/exit-codes.js';
import { makeIO, processStreams, type IOStreams } from '../cli/io.js';
// The command tree with only the groups the command line names loaded (each group's modules on demand).
import { programFor } from './program-base.js';

// Injected by scripts/build.mjs; tests running the TypeScript directly read package.json instead.
declare const __COINOP_VERSION__: string | undefined;

function version(): string {
  if (typeof __COINOP_VERSION__ === 'string') return __COINOP_VERSION__;
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** -o json / --json is honoured for errors even when parsing failed before the options were read. */
function wantsJson(argv: string[]): boolean {
  // The format in any case, as -o takes it.
  const json = (v: string | undefined) => v?.toLowerCase() === 'json';
  return argv.some((arg, index) => {
    if (arg === '--json') return true;
    if (arg === '-o' || arg === '--output') return json(argv[index + 1]);
    if (arg.startsWith('--output=')) return json(arg.slice('--output='.length));
    return /^-o./.test(arg) && json(arg.slice(2));
  });
}

export async function main(argv: string[]): Promise<number> {
  // The commonest cheap question answers without building anything.
  if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const env = process.env as Record<string, string | undefined>;
  // A closed pipe (coinop ... | head) is a normal end, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  // Object.assign keeps processStreams' stdin a getter: made only if the command reads it.
  const code = await runCli(argv, Object.assign(processStreams(isatty), { env, signals: true }));
  await new Promise<void>((r) => process.stdout.write('', () => r()));
  process.exitCode = code;
  // Whatever still holds the event loop (a keep-alive socket, a stray timer) must not hold the operator.
  setTimeout(() => process.exit(code), 200).unref();
  return code;
}

/** An unknown command with the closest commands of the whole tree (every group loaded to find them). */
async function withSuggestion(ctx: Invocation, unknown: UnknownCommandError): Promise<CoinopError> {
  const hint = meaning(commandSuggestions(await programFor(ctx, []), unknown.typed));
  return hint ? usageError(`${unknown.message}${hint}`) : unknown;
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

export interface RunOptions extends IOStreams {
  env: Record<string, string | undefined>;
  /** Install SIGINT/SIGTERM handlers (the real process); tests running in process leave them alone. */
  signals?: boolean;
  /** A server in the foreground (local start, gateway start) stops when this aborts, as at Ctrl-C (in process). */
  stop?: AbortSignal;
}

/** Runs one coinop command line over the given streams and environment; returns the exit code, never throws. */
export async function runCli(argv: string[], options: RunOptions): Promise<number> {
  const io = makeIO(options, { env: options.env });
  const ctx = createContext(io, options.env, version());
  recordPolicyEvents(ctx.onPolicyEvent, () => ctx.audit, ctx.onCleanup);
  ctx.globals.json = wantsJson(argv.slice(2));
  ctx.argv = argv.slice(2);
  ctx.stop = options.stop;
  let code: number = EXIT.ok;
  let interrupted = false;
  // A prompt being drawn when the signal came may have hidden the cursor: it is shown again before coinop ends.
  const showCursor = () => io.err(io.stderrTTY ? '\u001b[?25h' : '');
  const onSignal = () => {
    if (ctx.ownSignals) return;
    // A second Ctrl-C while the first one's cleanup runs ends coinop at once (still handled here, not by a prompt's
    // own exit handler, which would end the process by the signal with the cursor hidden).
    if (interrupted) {
      showCursor();
      process.exit(EXIT.cancelled);
    }
    interrupted = true;
    // Each command says what is true for it (a withdrawal in flight names its ref_id, a batch its journal); a command
    // without a note of its own is told from the requests it sent (a read only stopped).
    // The terminal is given back: a prompt that was opening may have hidden the cursor when the signal came.
    showCursor();
    io.err(`\n${oneLine(interruptedNote(ctx))}\n`);
    void ctx.cleanup().finally(() => process.exit(EXIT.cancelled));
  };
  if (options.signals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  try {
    await (await programFor(ctx, argv)).parseAsync(argv);
    await ctx.finishOutput();
  } catch (e) {
    // What the command wrote comes before its error (the pager quits first).
    await ctx.finishOutput();
    const ce = e as CommanderError;
    if (ce?.name === 'CommanderError' || (typeof ce?.code === 'string' && ce.code.startsWith('commander.'))) {
      // commander has printed its one-line message already.
      code =
        ce.code === 'commander.helpDisplayed' || ce.code === 'commander.version' || ce.code === 'commander.help'
          ? EXIT.ok
          : EXIT.usage;
      if (code === EXIT.usage && wantsJson(argv.slice(2))) {
        io.err(
          `${JSON.stringify({
            error: { category: 'usage', exit_code: EXIT.usage, message: ce.message.replace(/^error: /, '') },
          })}\n`,
        );
      }
    } else {
      const error = e instanceof UnknownCommandError ? await withSuggestion(ctx, e) : e;
      // A stack only for an unexpected error, and only when --debug asked for details.
      if (ctx.globals.debug && !(error instanceof CoinopError) && error instanceof Error && error.stack)
        io.err(`[debug] ${error.stack}\n`);
      // Errors are JSON only when JSON was asked for by name, not merely because stdout is a pipe.
      code = reportError(
        io,
        asCliError(error),
        !!ctx.globals.json || ctx.globals.output === 'json' || wantsJson(argv.slice(2)),
      );
    }
  } finally {
    if (options.signals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await ctx.cleanup();
  }
  return code;
}
