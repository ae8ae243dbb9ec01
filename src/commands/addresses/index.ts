// coinop addresses list|create: declarations; the work is in run.ts.
import type { Command } from 'commander';
import { CONVERSION_TARGET_ASSETS, DEPOSIT_ADDRESS_ORDER_BY, LIST_ORDERS } from '../../contract/enums.js';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { choiceOption, collect, repeat, TIME_HELP } from '../../cli/options.js';
import { examples } from '../../cli/help.js';
import { tableOptions } from '../../cli/list-flags.js';

export function register(program: Command, ctx: Invocation): void {
  const addresses = examples(program.command('addresses').description('crypto deposit addresses'), [
    'coinop addresses list --network BITCOIN',
    'coinop addresses create --network ETHEREUM',
  ]);
  examples(
    tableOptions(addresses.command('list'))
      .description('deposit addresses, filtered; --all follows every page and streams them')
      .option('--profile-id <id>', 'service profile ids (repeatable or comma separated, at most 100)', collect)
      .option('--identity-id <id>', 'identity ids', collect)
      .option('--account-id <id>', 'account ids', collect)
      .option('--id <id>', 'deposit address ids', collect)
      .option('--ref-id <id>', 'client-specified ids', collect)
      .option('--network <network>', 'networks, such as BITCOIN', collect)
      .option('--created-before <time>', `created strictly before (created_at.lt): ${TIME_HELP}`)
      .option('--created-until <time>', 'created at or before (created_at.lte)')
      .option('--created-at <time>', 'created exactly at (created_at.eq)')
      .option('--created-from <time>', 'created at or after (created_at.gte)')
      .option('--created-after <time>', 'created strictly after (created_at.gt)')
      .option('--limit <n>', 'items per page (1 to 1000, default 100)')
      .addOption(choiceOption('--order <order>', 'sort direction', LIST_ORDERS))
      .addOption(choiceOption('--order-by <key>', 'sort key', DEPOSIT_ADDRESS_ORDER_BY))
      .option('--cursor <cursor>', 'start from this page cursor (next_page_cursor)')
      .option('--all', 'every page')
      .action(async (opts) => (await import('./run.js')).list(ports(ctx), opts)),
    [
      'coinop addresses list',
      'coinop addresses list --network BITCOIN --network ETHEREUM --limit 10',
      'coinop addresses list --created-after 7d --order ASC --all -o ndjson',
    ],
  );
  examples(
    addresses
      .command('create')
      .description('create a deposit address (idempotent with --ref-id)')
      .option('--network <network>', 'crypto network')
      .option('--profile-id <id>', "the service's profile (default: the coinop profile's)")
      .option('--identity-id <id>', 'identity')
      .option('--account-id <id>', 'account')
      .option('--ref-id <id>', 'client id for replay protection (default: generated and printed)')
      .addOption(choiceOption('--conversion <asset>', 'convert deposits to', CONVERSION_TARGET_ASSETS))
      .option('--meta <key=value>', 'metadata pair (repeatable, at most 6)', repeat)
      .action(async (opts) => (await import('./run.js')).create(ctx, opts)),
    [
      'coinop addresses create --network BITCOIN',
      'coinop addresses create --network ETHEREUM --ref-id customer-42 --meta customer=42',
    ],
  );
}
