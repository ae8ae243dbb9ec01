// coinop destinations list|put: the address book. Declarations; the flags are checked in options.ts, the work is in
// run.ts.
import type { Command } from 'commander';
import { CRYPTO_DESTINATION_ADDRESS_ORDER_BY } from '../../contract/enums.js';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';
import { collect, type RawFlags } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  const destinations = examples(
    program
      .command('destinations')
      .description('the address book: crypto destination addresses by nickname (use one with withdraw --to NICKNAME)'),
    ['coinop destinations list', 'coinop destinations put --network ETHEREUM --address 0xF0Aa... --nickname treasury'],
  );
  const list = destinations
    .command('list')
    .description('addresses of the book, filtered; --all follows every page and streams them')
    .option('--nickname <name>', 'nicknames (repeatable or comma separated, at most 100)', collect)
    .option('--network <network>', 'networks, such as ETHEREUM', collect)
    .option('--address <address>', 'addresses', collect)
    .option('--id <id>', 'ids', collect)
    .option('--identity-id <id>', 'identities the addresses belong to', collect)
    .option('--bookmarked', 'bookmarked addresses only')
    .option('--not-bookmarked', 'addresses not bookmarked only');
  examples(
    tableOptions(listOptions(list, { orderBy: CRYPTO_DESTINATION_ADDRESS_ORDER_BY })).action(async (raw: RawFlags) => {
      const { parseDestinationListOptions } = await import('./options.js');
      const o = parseDestinationListOptions(raw, ctx.now());
      await (await import('./run.js')).list(ctx, o);
    }),
    [
      'coinop destinations list',
      'coinop destinations list --bookmarked --network ETHEREUM,BASE',
      'coinop destinations list --nickname treasury -o json',
    ],
  );
  examples(
    destinations
      .command('put')
      .description(
        'add an address to the book, or change one (found by --network and --address, or by --id): nickname, bookmark, travel rule details',
      )
      .option('--network <network>', 'crypto network (crypto_network)')
      .option('--address <address>', 'the address')
      .option('--id <id>', 'the id of an address of the book to change (instead of --network and --address)')
      .option(
        '--nickname <name>',
        'nickname, unique in the book (default for a new address: made from its network and address)',
      )
      .option('--bookmark', 'bookmark it')
      .option('--no-bookmark', 'take its bookmark away')
      .option('--identity-id <id>', 'the identity the address belongs to (none: your own)')
      .option('--travel-rule <json>', 'travel rule details as a JSON object (travelrule_metadata)')
      .action(async (raw: RawFlags) => {
        const { parseDestinationPutOptions } = await import('./options.js');
        const o = parseDestinationPutOptions(raw);
        await (await import('./run.js')).put(ctx, o);
      }),
    [
      'coinop destinations put',
      'coinop destinations put --network ETHEREUM --address 0xF0Aa84466e353E5390be37FE2934301c07c19a55 --nickname treasury --bookmark',
      'coinop destinations put --id 31f20a34-... --nickname cold-storage --no-bookmark',
    ],
  );
}
