// `coinop withdraw batch`: the raw flags, checked once into the options the run works with.
import type { BatchFormat } from '../../../batch/reader.js';
import { usageError } from '../../../cli/errors.js';
import { choiceFlag, intFlag, type RawFlags, rateFlag, readFlags, waitTimeoutFlag } from '../../../cli/options.js';

export interface BatchOptions {
  /** The file's format; by default from its name or its first character. */
  format?: BatchFormat;
  /** profile_id of rows that give none (default: the coinop profile's). */
  profileId?: string;
  dryRun: boolean;
  yes: boolean;
  /** Continue an interrupted run: --resume, or --retry-failed (which implies it). */
  resume: boolean;
  retryFailed: boolean;
  skipInvalid: boolean;
  /** Seconds to follow the transfers for: --wait-timeout with --wait, 0 without --wait. */
  waitSeconds: number;
  concurrency: number;
  /** Withdrawals per second; Infinity is no client-side limit (--rate 0). */
  rate: number;
  journal?: string;
  allowRepeat: boolean;
  /** --allow-partial: send a batch the available balances cannot cover in full (its first rows, until one fails). */
  allowPartial: boolean;
  /** Approval files (coinop approve), besides those found next to the file. */
  approvals?: string[];
}

const FORMATS: readonly BatchFormat[] = ['csv', 'jsonl', 'json'];

export function parseBatchOptions(raw: RawFlags): BatchOptions {
  const f = readFlags(raw);
  const concurrency = intFlag('--concurrency', f.defaulted('concurrency'), 1, 64)!;
  const rate = rateFlag('--rate', f.defaulted('rate'), 'withdrawals', 10_000);
  // Checked whether or not --wait is given: a bad value is a usage error before anything is read.
  const waitTimeout = waitTimeoutFlag(f.defaulted('waitTimeout'), 7 * 86_400);
  const retryFailed = f.on('retryFailed');
  const resume = f.on('resume') || retryFailed;
  const dryRun = f.on('dryRun');
  if (dryRun && resume)
    throw usageError('--dry-run: cannot be combined with --resume (a dry run sends nothing to resume)');
  return {
    format: choiceFlag('--format', f.text('format'), FORMATS),
    profileId: f.text('profileId'),
    dryRun,
    yes: f.on('yes'),
    resume,
    retryFailed,
    skipInvalid: f.on('skipInvalid'),
    waitSeconds: f.on('wait') ? waitTimeout : 0,
    concurrency,
    rate,
    journal: f.text('journal'),
    allowRepeat: f.on('allowRepeat'),
    allowPartial: f.on('allowPartial'),
    approvals: f.list('approvals'),
  };
}
