// `coinop withdraw batch FILE`: flags and help only; the work loads from ./run.js when the command runs.
import { Command, Option } from 'commander';
import type { CliContext } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';

export interface BatchFlags {
  format?: 'csv' | 'jsonl' | 'json';
  profileId?: string;
  concurrency: string;
  rate: string;
  dryRun?: boolean;
  yes?: boolean;
  resume?: boolean;
  retryFailed?: boolean;
  skipInvalid?: boolean;
  wait?: boolean;
  journal?: string;
  newBatch?: boolean;
  waitTimeout?: string;
}

export function register(program: Command, ctx: CliContext): void {
  // `batch` is a subcommand of `withdraw`; if the withdraw group is not registered (yet), it gets its own parent.
  let withdraw = program.commands.find((c) => c.name() === 'withdraw');
  if (!withdraw) withdraw = program.command('withdraw').description('crypto withdrawals');
  // withdraw has flags of the same names (--dry-run, --yes, --wait, --profile-id): after `batch` they are batch's.
  withdraw.enablePositionalOptions();
  const cmd = withdraw
    .command('batch')
    .argument('<file>', 'CSV with a header, JSON Lines or a JSON array of withdrawals; - reads standard input')
    .description('send many withdrawals from a file, each exactly once, resumable after a crash')
    // The single withdrawal's flags are not batch flags: only the program's own options are listed as global.
    .configureHelp({ showGlobalOptions: true, visibleGlobalOptions: (c: Command) => rootOf(c).options.filter((o) => !o.hidden) })
    .addOption(new Option('--format <format>', 'file format (default: from the file name or its first character)').choices(['csv', 'jsonl', 'json']))
    .option('--profile-id <id>', "profile for rows without a profile_id (default: the coinop profile's)")
    .option('--dry-run', 'validate, get a guaranteed fee for every row and print totals per asset and network; send nothing')
    .option('-y, --yes', 'do not ask for confirmation (needed in production without a terminal)')
    .option('--resume', 'continue an interrupted run of the same file from its journal')
    .option('--retry-failed', 'with --resume: send the rows the service refused again (same ref_ids)')
    .option('--skip-invalid', 'send the valid rows even when some rows are invalid (invalid rows are reported)')
    .option('--wait', 'follow every transfer until it is COMPLETED or FAILED')
    .option('--wait-timeout <seconds>', 'with --wait: give up waiting after this long (exit 5)', '600')
    .option('--concurrency <n>', 'requests in flight at once', '4')
    .option('--rate <n>', 'most withdrawals per second (the service allows 20; 0 = no client-side limit)', '18')
    .option('--journal <path>', 'journal file (default: in the coinop data directory, named by the file hash)')
    .option('--new-batch', 'run a file that changed since an earlier run sent rows from it (its rows without ref_id are sent again)')
    .addHelpText(
      'after',
      `
Columns (CSV header, or keys of each JSON object): profile_id, destination_address, asset, crypto_network,
amount or total (exactly one per row), ref_id, identity_id, account_id, balance_asset, fee_id, memo, and
meta.KEY for each metadata key (JSON may give a metadata object instead). Empty cells are absent fields.

Every row is checked before anything is sent; all problems are listed with row, field and rule.
A row without ref_id gets one derived from the file's SHA-256 and the row number, so running the same file
again sends nothing new. The journal records each row before and after its request; --resume continues.

Exit codes: 0 every row succeeded, 2 invalid file (nothing sent), 3 cancelled, 4 authentication,
5 --wait gave up before every transfer ended, 6 some rows failed (or were invalid and skipped), 7 no row was sent.

Examples:
  $ coinop withdraw batch payouts.csv --dry-run
  $ coinop withdraw batch payouts.csv --yes --wait -o csv > report.csv
  $ coinop withdraw batch payouts.csv --resume
  $ generate-payouts | coinop withdraw batch - --format jsonl --yes -o ndjson
`,
    )
    .action(async (file: string, _flags: BatchFlags, command: Command) => {
      // A single withdrawal's flag (--amount, --asset...) would be silently ignored: each row gives its own.
      const own = new Set(command.options.map((o) => o.attributeName()));
      for (const o of withdraw.options) {
        const name = o.attributeName();
        if (withdraw.getOptionValueSource(name) === 'cli' && !own.has(name)) {
          throw usageError(`${o.long ?? o.flags}: not a flag of withdraw batch (each row of the file gives its own values)`, 'coinop withdraw batch --help lists its flags');
        }
      }
      // Merged with the parents' values, so a flag a parent parsed first (--yes before `batch`) is not lost.
      const flags = command.optsWithGlobals<BatchFlags>();
      const { runBatch } = await import('./run.js');
      await runBatch(ctx, file, flags);
    });
  void cmd;
}

function rootOf(c: Command): Command {
  let r = c;
  while (r.parent) r = r.parent;
  return r;
}
