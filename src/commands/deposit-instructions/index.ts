// coinop deposit-instructions create|list|get: declarations; the flags are checked in options.ts, the work is in
// run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { declareInstructionsList, INSTRUCTIONS_CREATE_FLAG_TABLE } from './flags.js';

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
    INSTRUCTIONS_CREATE_FLAG_TABLE.declare(
      group.command('create').description('new instructions with their own memo_id (idempotent with --ref-id)'),
    ).action(async (raw: RawFlags) => {
      const { parseInstructionsCreateOptions } = await import('./options.js');
      const o = parseInstructionsCreateOptions(raw);
      await (await import('./run.js')).create(ports(ctx), o);
    }),
    [
      'coinop deposit-instructions create --network WIRE',
      'coinop deposit-instructions create --network WIRE --routing-type SWIFT --ref-id customer-42 --meta customer=42',
    ],
  );
  const list = declareInstructionsList(
    group.command('list').description('instructions, filtered; --all follows every page and streams them'),
  );
  examples(
    list.action(async (raw: RawFlags) => {
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
