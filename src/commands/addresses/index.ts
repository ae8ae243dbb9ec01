// coinop addresses list|create: declarations; the work is in run.ts.
import { ports } from '../../cli/ports.js';
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ADDRESS_CREATE_FLAG_TABLE, declareAddressesList } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const addresses = examples(program.command('addresses').description('crypto deposit addresses'), [
    'coinop addresses list --network BITCOIN',
    'coinop addresses create --network ETHEREUM',
  ]);
  examples(
    declareAddressesList(
      addresses.command('list').description('deposit addresses, filtered; --all follows every page and streams them'),
    ).action(async (opts) => (await import('./run.js')).list(ports(ctx), opts)),
    [
      'coinop addresses list',
      'coinop addresses list --network BITCOIN --network ETHEREUM --limit 10',
      'coinop addresses list --created-after 7d --order ASC --all -o ndjson',
    ],
  );
  examples(
    ADDRESS_CREATE_FLAG_TABLE.declare(
      addresses.command('create').description('create a deposit address (idempotent with --ref-id)'),
    ).action(async (opts) => (await import('./run.js')).create(ports(ctx), opts)),
    [
      'coinop addresses create --network BITCOIN',
      'coinop addresses create --network ETHEREUM --ref-id customer-42 --meta customer=42',
    ],
  );
}
