// coinop sandbox deposit's flags, declared once: its own, then one for each field of the wire instructions
// (WIRE_FIELDS). index.ts declares them, options.ts reads their typed values.
import type { Command } from 'commander';
import { defineFlags, type TextSpec } from '../../cli/flags.js';
import { WIRE_FIELDS } from './wire.js';

export const SANDBOX_DEPOSIT_FLAG_TABLE = defineFlags({
  amount: {
    kind: 'text',
    flag: '--amount <amount>',
    help: 'amount, at most 2 decimals, such as 1000.00',
    field: 'amount',
  },
  asset: {
    kind: 'default',
    flag: '--asset <asset>',
    help: 'fiat asset (only USD)',
    default: 'USD',
    field: 'asset',
    values: ['USD'],
  },
  memoId: {
    kind: 'text',
    flag: '--memo-id <id>',
    help: "memo id of the deposit (default: the local demo profile's; picked on a terminal)",
    field: 'memo_id',
  },
  instructions: {
    kind: 'text',
    flag: '--instructions <id>',
    help: 'take the memo id from these fiat deposit instructions (coinop deposit-instructions)',
  },
  file: {
    kind: 'text',
    flag: '--file <path>',
    help: 'wire instructions as JSON: the wire object, {"wire": ...} or a whole request body (intermediary_routing_details only here)',
  },
});

/** A flag for each field of the wire instructions, by its key ("accountNumber"). */
export const WIRE_FLAG_TABLE = defineFlags(
  Object.fromEntries(
    WIRE_FIELDS.map((f): [string, TextSpec] => [
      f.key,
      { kind: 'text', flag: `${f.flag} <value>`, help: f.help, field: f.path },
    ]),
  ),
);

/** sandbox deposit's flags on `cmd`: its own, then the wire instructions'. */
export function declareSandboxDeposit(cmd: Command): Command {
  return WIRE_FLAG_TABLE.declare(SANDBOX_DEPOSIT_FLAG_TABLE.declare(cmd));
}
