// `coinop withdraw batch`'s flags, declared once: index.ts declares them, options.ts reads their typed values.
import type { BatchFormat } from '../../../batch/reader.js';
import { defineFlags } from '../../../cli/flags.js';
import { waitTimeoutSpec } from '../../../cli/options.js';

export const BATCH_FLAG_TABLE = defineFlags({
  format: {
    kind: 'choice',
    flag: '--format <format>',
    help: 'file format (default: from the file name or its first character)',
    choices: ['csv', 'jsonl', 'json'] satisfies BatchFormat[],
  },
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "service profile for rows without a profile_id: its id, id prefix or nickname (default: the coinop context's)",
  },
  dryRun: {
    kind: 'switch',
    flag: '--dry-run',
    help: 'validate, get a guaranteed fee for every row and print totals per asset and network; send nothing',
  },
  yes: {
    kind: 'switch',
    flag: '-y, --yes',
    help: 'do not ask for confirmation (needed in production without a terminal)',
  },
  resume: {
    kind: 'switch',
    flag: '--resume',
    help: 'continue an interrupted run of the same file from its journal (or, its journal lost, send the rest)',
  },
  retryFailed: {
    kind: 'switch',
    flag: '--retry-failed',
    help: 'with --resume: send the rows the service refused again (same ref_ids)',
  },
  skipInvalid: {
    kind: 'switch',
    flag: '--skip-invalid',
    help: 'send the valid rows even when some rows are invalid (invalid rows are reported)',
  },
  wait: { kind: 'switch', flag: '--wait', help: 'follow every transfer until it is COMPLETED or FAILED' },
  waitApproval: {
    kind: 'switch',
    flag: '--wait-approval',
    help: 'at a coinop gateway that holds the batch for approvals: wait until it is approved and sent (or rejected, exit 8)',
  },
  waitTimeout: waitTimeoutSpec('with --wait or --wait-approval: give up waiting after this long (exit 10)'),
  concurrency: { kind: 'default', flag: '--concurrency <n>', help: 'requests in flight at once', default: '4' },
  rate: {
    kind: 'default',
    flag: '--rate <n>',
    help: 'most withdrawals per second (the service allows 20; 0 = no client-side limit; also COINOP_BATCH_RATE, coinop config set batch-rate)',
    default: '18',
  },
  journal: {
    kind: 'text',
    flag: '--journal <path>',
    help: 'journal file (default: in the coinop data directory, named by the file hash)',
  },
  allowRepeat: {
    kind: 'switch',
    flag: '--allow-repeat',
    help: "a repeat run: pay rows again that another batch already paid (under ref_ids salted by the run's content; approvals signed with approve --allow-repeat); without it such rows are refused",
  },
  allowPartial: {
    kind: 'switch',
    flag: '--allow-partial',
    help: "send the rows the balances and transfer limits cover, in order: from the first row of an asset they cannot cover (amount plus fee), that asset's rows are skipped, not sent (without it such a batch is refused before its first row)",
  },
  approvals: {
    kind: 'list',
    flag: '--approvals <file>',
    help: "an approval file (coinop approve FILE) for the context's policy, besides FILE.approval-*.txt next to the file (repeatable)",
  },
} as const);
