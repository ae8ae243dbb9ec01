// Errors of every layer, in categories (usage, auth, network, API, outcome, refused by policy, cancelled, file,
// internal, integrity). This module sits below everything that throws them (client, config, render, batch, local,
// policy, audit); the CLI alone turns a category into an exit code and a line on stderr (src/cli/errors.ts).
import { ProblemError, problemName } from './contract/problems.js';
import type { Problem } from './contract/schemas.js';

export type ErrorCategory =
  | 'usage'
  | 'auth'
  | 'network'
  | 'api'
  | 'failed'
  | 'nothing-sent'
  | 'policy'
  | 'cancelled'
  | 'timeout'
  | 'file'
  | 'internal'
  | 'integrity'
  | 'unreconciled'
  | 'bundle-changed'
  | 'bundle-missing'
  | 'bundle-extra'
  | 'bundle-signature';

export class CoinopError extends Error {
  readonly category: ErrorCategory;
  readonly hint?: string;
  readonly problem?: Problem;
  /** Printed already (for example a FAILED transfer shown as data); only the exit code remains. */
  readonly quiet: boolean;
  /** The service's Retry-After on the answer this error came from (a 429, a 503), as it sent it. */
  readonly retryAfter?: string;
  constructor(
    category: ErrorCategory,
    message: string,
    opts: { hint?: string; problem?: Problem; quiet?: boolean; retryAfter?: string } = {},
  ) {
    super(message);
    this.name = 'CoinopError';
    this.category = category;
    this.hint = opts.hint;
    this.problem = opts.problem;
    this.quiet = !!opts.quiet;
    this.retryAfter = opts.retryAfter;
  }
}

/** What an error says: the CLI's JSON error (less the exit code, the CLI's own) and the MCP server's tool error. */
export interface ErrorReport {
  category: ErrorCategory;
  message: string;
  hint?: string;
  problem?: Problem;
}

export function errorReport(error: CoinopError): ErrorReport {
  return {
    category: error.category,
    message: error.message,
    ...(error.hint ? { hint: error.hint } : {}),
    ...(error.problem ? { problem: error.problem } : {}),
  };
}

const same = (s: string) => s;

/** The one line an error is said in, `error: message (hint: ...)`; `style` colours its parts (none by default). */
export function errorLine(
  error: CoinopError,
  style: { red(s: string): string; dim(s: string): string } = { red: same, dim: same },
): string {
  const message = error.message.replace(/\s*\n\s*/g, ' ').trim();
  return `${style.red('error:')} ${message}${error.hint ? style.dim(` (hint: ${error.hint})`) : ''}`;
}

export const usageError = (message: string, hint?: string) => new CoinopError('usage', message, { hint });
export const cancelled = (message = 'cancelled') => new CoinopError('cancelled', message);

/** Statuses of a service that cannot serve now: bad gateway, unavailable, gateway timeout. */
export const UNAVAILABLE = new Set([502, 503, 504]);

/** A problem answer from the service as an error in the right category. */
export function problemError(problem: Problem, retryAfter?: string): CoinopError {
  const error = problemErrorOf(problem);
  return retryAfter === undefined
    ? error
    : new CoinopError(error.category, error.message, { hint: error.hint, problem, retryAfter });
}

function problemErrorOf(problem: Problem): CoinopError {
  const name = problemName(problem);
  const text = [problem.title, problem.detail].filter(Boolean).join(': ') + (name ? ` (${name})` : '');
  if (problem.status === 401)
    return new CoinopError('auth', text, { problem: problem, hint: 'run: coinop login (or check COINOP_TOKEN)' });
  // A gateway's own refusal by its policy (coinop gateway): a refusal by policy, as a machine's policy refuses.
  if (name === 'policy-refused')
    return new CoinopError('policy', text, {
      problem: problem,
      hint: "the gateway's policy: ask its admin (coinop gateway policy show)",
    });
  if (problem.status === 403 && /scope/i.test(problem.detail ?? '')) {
    return new CoinopError('auth', text, {
      problem: problem,
      hint: 'the credentials lack this scope: run coinop login and grant it',
    });
  }
  // The service is there but cannot serve (a gateway, an overload, maintenance), still so after the transport's retries:
  // the service unavailable, as when it cannot be reached (exit 5), not a refusal of the request.
  if (UNAVAILABLE.has(problem.status))
    return new CoinopError('network', text, {
      problem: problem,
      hint: 'the service is unavailable right now (it answered each retry so); try again in a while',
    });
  const hint =
    name === 'insufficient-funds'
      ? 'check the balance (coinop balances), or send less'
      : name === 'expired'
        ? 'get a fresh quote: add --quote'
        : problem.status === 429
          ? 'the service is rate limiting; wait a minute and try again'
          : undefined;
  return new CoinopError('api', text, { problem: problem, hint });
}

/** The operating system's codes for a path that cannot be written: the operator's to fix, not an internal error. */
const UNWRITABLE = new Set(['ENOTDIR', 'EEXIST', 'EROFS', 'ENOSPC', 'EDQUOT', 'EPERM']);
const UNREADABLE = new Set(['ENOENT', 'EACCES', 'EISDIR']);

/** Anything thrown, as a CoinopError; unknown errors keep their message but never print a stack. */
export function toCoinopError(error: unknown): CoinopError {
  if (error instanceof CoinopError) return error;
  if (error instanceof ProblemError) return problemError(error.problem);
  const err = error as { code?: unknown; message?: string } | undefined;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = err?.message ?? String(error);
  if (UNREADABLE.has(code)) return new CoinopError('file', message);
  if (UNWRITABLE.has(code)) {
    return new CoinopError('file', message, {
      hint: 'check that path and its disk (COINOP_CONFIG_DIR and COINOP_DATA_DIR choose where coinop writes)',
    });
  }
  return new CoinopError('internal', message, { hint: 'run again with --debug for details' });
}
