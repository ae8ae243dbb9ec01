// Errors in categories (usage, auth, network, API, outcome, cancelled, file, internal), each with its exit code,
// reported as one clear line (or a JSON object on stderr with -o json), never a stack trace.
import type { Problem } from '../api/schemas.js';
import { problemName } from '../api/problems.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { IO } from './io.js';

export type ErrorCategory = 'usage' | 'auth' | 'network' | 'api' | 'failed' | 'nothing-sent' | 'cancelled' | 'file' | 'internal';

const CODES: Record<ErrorCategory, ExitCode> = {
  usage: EXIT.usage,
  auth: EXIT.auth,
  network: EXIT.network,
  api: EXIT.api,
  failed: EXIT.failed,
  'nothing-sent': EXIT.nothingSent,
  cancelled: EXIT.cancelled,
  file: EXIT.usage,
  internal: EXIT.api,
};

export class CliError extends Error {
  readonly category: ErrorCategory;
  readonly hint?: string;
  readonly problem?: Problem;
  /** Printed already (for example a FAILED transfer shown as data); only the exit code remains. */
  readonly quiet: boolean;
  constructor(category: ErrorCategory, message: string, opts: { hint?: string; problem?: Problem; quiet?: boolean } = {}) {
    super(message);
    this.name = 'CliError';
    this.category = category;
    this.hint = opts.hint;
    this.problem = opts.problem;
    this.quiet = !!opts.quiet;
  }
  get exitCode(): ExitCode {
    return CODES[this.category];
  }
}

export const usageError = (message: string, hint?: string) => new CliError('usage', message, { hint });
export const cancelled = (message = 'cancelled') => new CliError('cancelled', message);

/** A problem answer from the service as an error in the right category. */
export function problemError(p: Problem): CliError {
  const name = problemName(p);
  const text = [p.title, p.detail].filter(Boolean).join(': ') + (name ? ` (${name})` : '');
  if (p.status === 401) return new CliError('auth', text, { problem: p, hint: 'run: coinop login (or check COINOP_TOKEN)' });
  if (p.status === 403 && /scope/i.test(p.detail ?? '')) {
    return new CliError('auth', text, { problem: p, hint: 'the credentials lack this scope: run coinop login and grant it' });
  }
  const hint =
    name === 'insufficient-funds' ? 'check the balance, or withdraw less'
    : name === 'expired' ? 'get a fresh quote: add --quote'
    : p.status === 429 ? 'the service is rate limiting; wait a minute and try again'
    : undefined;
  return new CliError('api', text, { problem: p, hint });
}

/** Anything thrown, as a CliError; unknown errors keep their message but never print a stack. */
export function asCliError(e: unknown): CliError {
  if (e instanceof CliError) return e;
  const err = e as { name?: string; code?: string; message?: string; problem?: Problem };
  if (err?.name === 'ExitPromptError' || err?.name === 'AbortPromptError') return cancelled();
  if (err?.name === 'ProblemError' && err.problem) return problemError(err.problem);
  if (err?.code === 'ENOENT' || err?.code === 'EACCES' || err?.code === 'EISDIR') return new CliError('file', err.message ?? String(e));
  // A path that cannot be written (a file where a directory should be, a read-only or full disk): the operator's
  // to fix, so a file error naming the path, not an internal one.
  if (err?.code && ['ENOTDIR', 'EEXIST', 'EROFS', 'ENOSPC', 'EDQUOT', 'EPERM'].includes(err.code)) {
    return new CliError('file', err.message ?? String(e), { hint: 'check that path and its disk (COINOP_CONFIG_DIR and COINOP_DATA_DIR choose where coinop writes)' });
  }
  return new CliError('internal', err?.message ?? String(e), { hint: 'run again with --debug for details' });
}

export function reportError(io: IO, e: unknown, json: boolean): ExitCode {
  const err = asCliError(e);
  if (err.quiet) return err.exitCode;
  if (json) {
    const body: Record<string, unknown> = { error: { category: err.category, exit_code: err.exitCode, message: err.message } };
    const inner = body.error as Record<string, unknown>;
    if (err.hint) inner.hint = err.hint;
    if (err.problem) inner.problem = err.problem;
    io.err(JSON.stringify(body) + '\n');
  } else {
    io.err(`${paint(io.colourErr, '31', 'error:')} ${oneLine(err.message)}${err.hint ? paint(io.colourErr, '2', ` (hint: ${err.hint})`) : ''}\n`);
  }
  return err.exitCode;
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
const paint = (on: boolean, code: string, s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
