// coinop addresses list|create (and verify, verifications: verify/): declarations; the work is in run.ts (list),
// create/run.ts and verify/run.ts.
import { ports } from '../../cli/ports.js';
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ADDRESS_CREATE_FLAG_TABLE, declareAddressesList } from './flags.js';
import { register as registerVerify } from './verify/index.js';

export function register(program: Command, ctx: Invocation): void {
  const addresses = examples(program.command('addresses').description('crypto deposit addresses'), [
    'coinop addresses list --network BITCOIN',
    'coinop addresses create --network ETHEREUM',
    'coinop addresses verify --network ETHEREUM --address 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
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
    ).action(async (opts) => (await import('./create/run.js')).create(ports(ctx), opts)),
    [
      'coinop addresses create --network BITCOIN',
      'coinop addresses create --network ETHEREUM --ref-id customer-42 --meta customer=42',
    ],
  );
  registerVerify(addresses, ctx);
}
