// Entry point: builds the IO object and context from the process, runs the program, maps errors to exit codes.
import { createRequire } from 'node:module';
import type { CommanderError } from 'commander';
import { createContext } from './context.js';
import { asCliError, reportError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { makeIO } from './io.js';

function version(): string {
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** -o json / --json is honoured for errors even when parsing failed before the options were read. */
function wantsJson(argv: string[]): boolean {
  return argv.some((a, i) => a === '--json' || a === '--output=json' || a === '-ojson' || ((a === '-o' || a === '--output') && argv[i + 1] === 'json'));
}

export async function main(argv: string[]): Promise<number> {
  const env = process.env as Record<string, string | undefined>;
  const io = makeIO({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, { env });
  const ctx = createContext(io, env, version());
  // A closed pipe (coinop ... | head) is a normal end, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  ctx.globals.json = wantsJson(argv.slice(2));
  let code: number = EXIT.ok;
  const onSignal = () => {
    if (ctx.ownSignals) return;
    void ctx.cleanup().finally(() => process.exit(EXIT.cancelled));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const { makeProgram } = await import('./program.js');
    await makeProgram(ctx).parseAsync(argv);
  } catch (e) {
    const ce = e as CommanderError;
    if (ce?.name === 'CommanderError' || typeof ce?.code === 'string' && ce.code.startsWith('commander.')) {
      // commander has printed its one-line message already.
      code = ce.code === 'commander.helpDisplayed' || ce.code === 'commander.version' || ce.code === 'commander.help' ? EXIT.ok : EXIT.usage;
      if (code === EXIT.usage && wantsJson(argv.slice(2))) {
        io.err(JSON.stringify({ error: { category: 'usage', exit_code: EXIT.usage, message: ce.message.replace(/^error: /, '') } }) + '\n');
      }
    } else {
      // Errors are JSON only when JSON was asked for by name, not merely because stdout is a pipe.
      code = reportError(io, asCliError(e), !!ctx.globals.json || ctx.globals.output === 'json' || wantsJson(argv.slice(2)));
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await ctx.cleanup();
  }
  await new Promise<void>((r) => process.stdout.write('', () => r()));
  process.exitCode = code;
  // Whatever still holds the event loop (a keep-alive socket, a stray timer) must not hold the operator.
  setTimeout(() => process.exit(code), 200).unref();
  return code;
}
