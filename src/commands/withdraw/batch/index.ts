// `coinop withdraw batch FILE`: flags and help (options.ts checks them); the work loads from ./run.js when it runs.
import type { Command } from 'commander';
import type { Invocation } from '../../../cli/invocation.js';
import { ports } from '../../../cli/ports.js';
import { usageError } from '../../../cli/errors.js';
import { BATCH_FLAG_TABLE } from './flags.js';

/** Declares `batch` under the `withdraw` command. */
export function register(withdraw: Command, ctx: Invocation): void {
  // withdraw has flags of the same names (--dry-run, --yes, --wait, --profile-id): after `batch` they are batch's.
  withdraw.enablePositionalOptions();
  BATCH_FLAG_TABLE.declare(
    withdraw
      .command('batch')
      .argument('<file>', 'CSV with a header, JSON Lines or a JSON array of withdrawals; - reads standard input')
      .description('send many withdrawals from a file, each exactly once, resumable after a crash')
      // The single withdrawal's flags are not batch flags: only the program's own options are listed as global.
      .configureHelp({
        showGlobalOptions: true,
        visibleGlobalOptions: (c: Command) => rootOf(c).options.filter((o) => !o.hidden),
      }),
  )
    .addHelpText(
      'after',
      `
Columns (CSV header, or keys of each JSON object): profile_id, destination_address, asset, crypto_network,
amount or total (exactly one per row), ref_id, identity_id, account_id, balance_asset, fee_id, memo, and
meta.KEY for each metadata key (JSON may give a metadata object instead). Empty cells are absent fields.
profile_id (and --profile-id) takes a service profile's id, a unique id prefix (8 hex or more) or its nickname:
names are looked up once (GET /v2/profiles), and each row is checked, confirmed, journaled and sent with the id
its name names (an unknown or ambiguous name is a problem of its row).

Every row is checked before anything is sent; all problems are listed with row, field and rule. The file is
read once: what is sent is what was checked and confirmed, whatever happens to the file afterwards.
A row without ref_id gets one derived from what it pays (profile, asset, network, destination, amount, metadata...)
and its occurrence among identical rows, so the same rows in any file, CSV or JSON, get the same ref_ids. Rows
another batch already paid (the service holds their ref_id, or this machine sent it) are refused unless
--allow-repeat. The journal records each row before and after its request, and the hash of each row as
confirmed: --resume continues, and refuses (exit 2, nothing sent) a journal whose rows changed, naming the row.

The context's policy (coinop policy show) checks every row before anything is sent, on --resume too: all
violations are listed, and nothing is sent if any row breaks a rule. --dry-run shows each rule's verdict. The
policy's hours are checked again for every row as it is sent, by the service's clock: a row due outside them
stops the batch there (exit 8; --resume within the hours sends the rest). Approvals cover the rows as sent: a
repeat run (--allow-repeat) needs approvals of its own (coinop approve FILE --allow-repeat), and a --resume checks
them against the journal's rows. Each row's attempt is in the audit log, on disk, before its request leaves: a
log that cannot be written stops the batch (exit 6, --resume once it is fixed).

Exit codes: 0 every row succeeded, 2 invalid file or rows already paid (nothing sent), 3 cancelled,
4 authentication, 5 --wait gave up before every transfer ended, 6 some rows failed, were invalid and skipped, or
were left unsent (--resume), 7 no row was sent, 8 refused by policy (nothing sent).

Examples:
  $ coinop withdraw batch payouts.csv --dry-run
  $ coinop withdraw batch payouts.csv --yes --wait -o csv > report.csv
  $ coinop withdraw batch payouts.csv --resume
  $ generate-payouts | coinop withdraw batch - --format jsonl --yes -o ndjson
`,
    )
    .action(async (file: string, _flags: unknown, command: Command) => {
      refuseWithdrawFlags(withdraw, command);
      const { parseBatchOptions } = await import('./options.js');
      // Merged with the parents' values, so a flag a parent parsed first (--yes before `batch`) is not lost.
      const raw = command.optsWithGlobals();
      // --rate not given: COINOP_BATCH_RATE or the configuration's batch-rate (coinop config set batch-rate N).
      if (command.getOptionValueSource('rate') !== 'cli') raw.rate = ctx.settings.batchRate;
      const o = parseBatchOptions(raw);
      await (await import('./run.js')).runBatch(ports(ctx), file, o, {
        timesFile: ctx.env.COINOP_BATCH_TIMES,
        baseUrl: ctx.settings.overrides.COINOP_BASE_URL,
        context: ctx.globals.context,
      });
    });
}

/** A single withdrawal's flag (--amount, --asset...) would be silently ignored: each row gives its own. */
function refuseWithdrawFlags(withdraw: Command, batch: Command): void {
  const own = new Set(batch.options.map((o) => o.attributeName()));
  for (const o of withdraw.options) {
    const name = o.attributeName();
    if (withdraw.getOptionValueSource(name) === 'cli' && !own.has(name)) {
      throw usageError(
        `${o.long ?? o.flags}: not a flag of withdraw batch (each row of the file gives its own values)`,
        'coinop withdraw batch --help lists its flags',
      );
    }
  }
}

function rootOf(command: Command): Command {
  let r = command;
  while (r.parent) r = r.parent;
  return r;
}
