// How an error ends a command: its category's exit code, and one clear line on stderr (or a JSON object with
// -o json), never a stack trace. The errors themselves live below every layer (src/errors.ts).
import { type CoinopError, errorLine, errorReport, toCoinopError, type ErrorCategory } from '../errors.js';
import { palette } from '../render/style.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { IO } from './io.js';

export { cancelled, CoinopError, problemError, usageError, type ErrorCategory } from '../errors.js';

const CODES: Record<ErrorCategory, ExitCode> = {
  usage: EXIT.usage,
  auth: EXIT.auth,
  network: EXIT.network,
  api: EXIT.api,
  failed: EXIT.failed,
  'nothing-sent': EXIT.nothingSent,
  policy: EXIT.policy,
  cancelled: EXIT.cancelled,
  timeout: EXIT.timeout,
  file: EXIT.usage,
  internal: EXIT.api,
  integrity: EXIT.integrity,
  unreconciled: EXIT.unreconciled,
  'bundle-changed': EXIT.bundleChanged,
  'bundle-missing': EXIT.bundleMissing,
  'bundle-extra': EXIT.bundleExtra,
  'bundle-signature': EXIT.bundleSignature,
};

/** The one place where an error's category becomes an exit code. */
export function exitCodeOf(error: CoinopError): ExitCode {
  return CODES[error.category];
}

/** Anything thrown, as a CoinopError: src/errors.ts's toCoinopError, under the name the commands use. */
export function asCliError(error: unknown): CoinopError {
  return toCoinopError(error);
}

export function reportError(io: IO, error: unknown, json: boolean): ExitCode {
  const err = asCliError(error);
  const code = exitCodeOf(err);
  if (err.quiet) return code;
  if (json) {
    const { category, ...rest } = errorReport(err);
    io.err(`${JSON.stringify({ error: { category, exit_code: code, ...rest } })}\n`);
  } else io.err(`${errorLine(err, palette(io.colourErr))}\n`);
  return code;
}
