// coinop deposit-instructions create|list|get: declarations; the flags are checked in options.ts, the work is in
// run.ts.
import type { Command } from 'commander';
import { FIAT_NETWORKS, FIAT_ROUTING_NUMBER_TYPES } from '../../contract/enums.js';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';
import { choiceOption, collect, type RawFlags, repeat } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  const group = examples(
    program
      .command('deposit-instructions')
      .description('fiat deposit instructions: where a customer sends fiat, with the memo_id that credits a profile'),
    [
      'coinop deposit-instructions create --network WIRE',
      'coinop deposit-instructions list',
      'coinop deposit-instructions get ID',
    ],
  );
  examples(
    group
      .command('create')
      .description('new instructions with their own memo_id (idempotent with --ref-id)')
      .addOption(choiceOption('--network <network>', 'fiat network (asked for on a terminal)', FIAT_NETWORKS))
      .addOption(choiceOption('--routing-type <type>', 'WIRE: routing number type', FIAT_ROUTING_NUMBER_TYPES))
      .option('--profile-id <id>', "the service's profile deposits credit (default: the coinop profile's)")
      .option('--identity-id <id>', 'the identity making the deposits')
      .option('--account-id <id>', 'the account of that identity')
      .option('--ref-id <id>', 'client id for replay protection (default: generated and printed)')
      .option('--meta <key=value>', 'metadata pair (repeatable, at most 6)', repeat)
      .action(async (raw: RawFlags) => {
        const { parseInstructionsCreateOptions } = await import('./options.js');
        const o = parseInstructionsCreateOptions(raw);
        await (await import('./run.js')).create(ports(ctx), o);
      }),
    [
      'coinop deposit-instructions create --network WIRE',
      'coinop deposit-instructions create --network WIRE --routing-type SWIFT --ref-id customer-42 --meta customer=42',
    ],
  );
  const list = group
    .command('list')
    .description('instructions, filtered; --all follows every page and streams them')
    .option('--id <id>', 'ids (repeatable or comma separated, at most 100)', collect)
    .option('--ref-id <id>', 'client-specified ids', collect);
  examples(
    tableOptions(listOptions(list)).action(async (raw: RawFlags) => {
      const { parseInstructionsListOptions } = await import('./options.js');
      const o = parseInstructionsListOptions(raw, ctx.now());
      await (await import('./run.js')).list(ports(ctx), o);
    }),
    ['coinop deposit-instructions list', 'coinop deposit-instructions list --created-after 7d -o csv'],
  );
  examples(
    group
      .command('get')
      .description('one set of instructions (picked from a list on a terminal when no ID is given)')
      .argument('[id]', 'instructions id')
      .action(async (id: string | undefined) => (await import('./run.js')).get(ports(ctx), id)),
    ['coinop deposit-instructions get f190b163-208f-4d73-8deb-4fb8b24add00'],
  );
}
