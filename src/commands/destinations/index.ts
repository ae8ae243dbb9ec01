// coinop destinations list|put: the address book. Declarations; the flags are checked in options.ts, the work is in
// run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { DESTINATION_PUT_FLAG_TABLE, declareDestinationList } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const destinations = examples(
    program
      .command('destinations')
      .description('the address book: crypto destination addresses by nickname (use one with withdraw --to NICKNAME)'),
    ['coinop destinations list', 'coinop destinations put --network ETHEREUM --address 0xF0Aa... --nickname treasury'],
  );
  const list = declareDestinationList(
    destinations
      .command('list')
      .description('addresses of the book, filtered; --all follows every page and streams them'),
  );
  examples(
    list.action(async (raw: RawFlags) => {
      const { parseDestinationListOptions } = await import('./options.js');
      const o = parseDestinationListOptions(raw, ctx.now());
      await (await import('./run.js')).list(ports(ctx), o);
    }),
    [
      'coinop destinations list',
      'coinop destinations list --bookmarked --network ETHEREUM,BASE',
      'coinop destinations list --nickname treasury -o json',
    ],
  );
  examples(
    DESTINATION_PUT_FLAG_TABLE.declare(
      destinations
        .command('put')
        .description(
          'add an address to the book, or change one (found by --network and --address, or by --id): nickname, bookmark, travel rule details',
        ),
    ).action(async (raw: RawFlags) => {
      const { parseDestinationPutOptions } = await import('./options.js');
      const o = parseDestinationPutOptions(raw);
      await (await import('./run.js')).put(ports(ctx), o);
    }),
    [
      'coinop destinations put',
      'coinop destinations put --network ETHEREUM --address 0xF0Aa84466e353E5390be37FE2934301c07c19a55 --nickname treasury --bookmark',
      'coinop destinations put --id 31f20a34-... --nickname cold-storage --no-bookmark',
      'coinop destinations put --network BITCOIN --address bc1q... --custodian-type VASP --vasp-id 8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94 --beneficiary-first-name Ada --beneficiary-last-name Lovelace',
      'coinop destinations put --id 31f20a34-... --custodian-type VASP   # picks the VASP from the directory on a terminal',
      'coinop destinations put --id 31f20a34-... --custodian-type PRIVATE --beneficiary-self --transfer-purpose "treasury rebalancing"',
    ],
  );
}
