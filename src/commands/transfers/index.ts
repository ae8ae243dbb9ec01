// coinop transfers list|get|watch: declarations; the work is in run.ts.
import { ports } from '../../cli/ports.js';
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { declareTransfersList, declareTransfersWatch, TRANSFER_GET_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const transfers = examples(
    program.command('transfers').description('transfers: withdrawals, deposits and the rest'),
    ['coinop transfers list --status PENDING', 'coinop transfers get ID', 'coinop transfers watch ID'],
  );
  const list = declareTransfersList(
    transfers.command('list').description('transfers, filtered; --all follows every page and streams them'),
  ).action(async (opts) => (await import('./run.js')).list(ports(ctx), opts));
  examples(list, [
    'coinop transfers list',
    'coinop transfers list --status PENDING --type CRYPTO_WITHDRAWAL',
    'coinop transfers list --status PENDING --secondary-status TRAVEL_RULE_INFO_REQUESTED --identity-id ID',
    'coinop transfers list --created-after 24h --all -o csv > today.csv',
    'coinop transfers list --columns id,status,amount,fee,tx_hash',
  ]);
  examples(
    TRANSFER_GET_FLAG_TABLE.declare(
      transfers.command('get').description('one transfer').argument('[id]', 'transfer id'),
    ).action(async (id: string | undefined, opts) => (await import('./run.js')).get(ports(ctx), id, opts)),
    ['coinop transfers get 7a1c...', 'coinop transfers get --ref-id coinop-5e0f...'],
  );
  examples(
    declareTransfersWatch(
      transfers
        .command('watch')
        .description('follow transfers until they end (exit 6 when one ends FAILED)')
        .argument('<ids...>', 'transfer ids'),
    ).action(async (ids: string[], opts) => (await import('./run.js')).watch(ports(ctx), ids, opts)),
    ['coinop transfers watch 7a1c...', 'coinop transfers watch ID1 ID2 -o ndjson'],
  );
}
