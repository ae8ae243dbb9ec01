// coinop transfers list|get|watch: declarations; the work is in run.ts.
import { type Command, Option } from 'commander';
import { LIST_ORDERS, TRANSFER_ORDER_BY } from '../../contract/enums.js';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { choiceOption, collect, TIME_HELP, waitTimeoutOption } from '../../cli/options.js';
import { examples } from '../../cli/help.js';
import { tableOptions } from '../../cli/list-flags.js';

export function register(program: Command, ctx: Invocation): void {
  const transfers = examples(
    program.command('transfers').description('transfers: withdrawals, deposits and the rest'),
    ['coinop transfers list --status PENDING', 'coinop transfers get ID', 'coinop transfers watch ID'],
  );
  const list = transfers
    .command('list')
    .description('transfers, filtered; --all follows every page and streams them')
    .option('--id <id>', 'transfer ids (repeatable or comma separated)', collect)
    .option('--ref-id <id>', 'client-specified ids', collect)
    .option('--profile-id <id>', 'service profile ids', collect)
    .option('--identity-id <id>', 'identity ids', collect)
    .option('--account-id <id>', 'account ids', collect)
    .option('--type <type>', 'transfer types, such as CRYPTO_WITHDRAWAL', collect)
    .option('--status <status>', 'PENDING, COMPLETED or FAILED', collect)
    .option('--secondary-status <name>', 'secondary statuses, such as TRAVEL_RULE_INFO_REQUESTED', collect)
    .option('--tx-hash <hash>', 'on-chain transaction hashes', collect)
    .option('--group-id <id>', 'group ids', collect);
  for (const [field, label] of [
    ['created', 'created_at'],
    ['updated', 'updated_at'],
  ] as const) {
    list
      .option(`--${field}-before <time>`, `${label}.lt: ${TIME_HELP}`)
      .option(`--${field}-until <time>`, `${label}.lte`)
      .option(`--${field}-at <time>`, `${label}.eq`)
      .option(`--${field}-from <time>`, `${label}.gte`)
      .option(`--${field}-after <time>`, `${label}.gt`);
  }
  list
    .option('--limit <n>', 'items per page (1 to 1000, default 100)')
    .addOption(choiceOption('--order <order>', 'sort direction', LIST_ORDERS))
    .addOption(choiceOption('--order-by <key>', 'sort key', TRANSFER_ORDER_BY))
    .option('--cursor <cursor>', 'start from this page cursor (the footer of a page shows the next one)')
    .option('--all', 'every page');
  tableOptions(list).action(async (opts) => (await import('./run.js')).list(ports(ctx), opts));
  examples(list, [
    'coinop transfers list',
    'coinop transfers list --status PENDING --type CRYPTO_WITHDRAWAL',
    'coinop transfers list --status PENDING --secondary-status TRAVEL_RULE_INFO_REQUESTED --identity-id ID',
    'coinop transfers list --created-after 24h --all -o csv > today.csv',
    'coinop transfers list --columns id,status,amount,fee,tx_hash',
  ]);
  examples(
    transfers
      .command('get')
      .description('one transfer')
      .argument('[id]', 'transfer id')
      .option('--ref-id <id>', 'find it by its ref_id instead')
      .action(async (id: string | undefined, opts) => (await import('./run.js')).get(ports(ctx), id, opts)),
    ['coinop transfers get 7a1c...', 'coinop transfers get --ref-id coinop-5e0f...'],
  );
  const watch = examples(
    transfers
      .command('watch')
      .description('follow transfers until they end (exit 6 when one ends FAILED)')
      .argument('<ids...>', 'transfer ids')
      .addOption(waitTimeoutOption())
      // Its name before it became withdraw's: still taken, with a note.
      .addOption(new Option('--timeout <seconds>').hideHelp())
      .action(async (ids: string[], opts) => (await import('./run.js')).watch(ctx, ids, opts)),
    ['coinop transfers watch 7a1c...', 'coinop transfers watch ID1 ID2 -o ndjson'],
  );
  // Declared after its action: commander takes options until the command line is parsed.
  tableOptions(watch);
}
