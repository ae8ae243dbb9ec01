// `coinop withdraw batch`: the raw flags, checked once into the options the run works with.
import type { BatchFormat } from '../../../batch/reader.js';
import { usageError } from '../../../cli/errors.js';
import { intFlag, type RawFlags, rateFlag, waitTimeoutFlag } from '../../../cli/options.js';
import { BATCH_FLAG_TABLE } from './flags.js';

export interface BatchOptions {
  /** The file's format; by default from its name or its first character. */
  format?: BatchFormat;
  /** profile_id of rows that give none (default: the coinop context's). */
  profileId?: string;
  dryRun: boolean;
  yes: boolean;
  /** Continue an interrupted run: --resume, or --retry-failed (which implies it). */
  resume: boolean;
  retryFailed: boolean;
  skipInvalid: boolean;
  /** Seconds to follow the transfers for: --wait-timeout with --wait, 0 without --wait. */
  waitSeconds: number;
  /** Seconds to wait for a gateway's approvals of the batch: --wait-timeout with --wait-approval, 0 without. */
  waitApprovalSeconds: number;
  concurrency: number;
  /** Withdrawals per second; Infinity is no client-side limit (--rate 0). */
  rate: number;
  journal?: string;
  allowRepeat: boolean;
  /** --allow-partial: send the rows the balances and limits cover, in order; the rest skipped (src/batch/partial.ts). */
  allowPartial: boolean;
  /** Approval files (coinop approve), besides those found next to the file. */
  approvals?: string[];
}

export function parseBatchOptions(raw: RawFlags): BatchOptions {
  const f = BATCH_FLAG_TABLE.read(raw);
  const concurrency = intFlag('--concurrency', f.concurrency, 1, 64)!;
  const rate = rateFlag('--rate', f.rate, 'withdrawals', 10_000);
  // Checked whether or not --wait is given: a bad value is a usage error before anything is read.
  const waitTimeout = waitTimeoutFlag(f.waitTimeout, 7 * 86_400);
  const retryFailed = f.retryFailed;
  const resume = f.resume || retryFailed;
  const dryRun = f.dryRun;
  if (dryRun && resume)
    throw usageError('--dry-run: cannot be combined with --resume (a dry run sends nothing to resume)');
  return {
    format: f.format,
    profileId: f.profileId,
    dryRun,
    yes: f.yes,
    resume,
    retryFailed,
    skipInvalid: f.skipInvalid,
    waitSeconds: f.wait ? waitTimeout : 0,
    waitApprovalSeconds: f.waitApproval ? waitTimeout : 0,
    concurrency,
    rate,
    journal: f.journal,
    allowRepeat: f.allowRepeat,
    allowPartial: f.allowPartial,
    approvals: f.approvals,
  };
}
