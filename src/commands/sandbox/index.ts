// coinop sandbox deposit: declarations; the flags are typed in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { WIRE_FIELDS } from './wire.js';

export function register(program: Command, ctx: Invocation): void {
  const sandbox = examples(
    program.command('sandbox').description('sandbox-only simulations (refused against production)'),
    ['coinop sandbox deposit --amount 1000.00'],
  );
  const deposit = sandbox
    .command('deposit')
    .description(
      'simulate an incoming fiat wire deposit that credits the profile with this memo id; the wire instructions come from the flags, else --file, else (on a terminal) your answers, else the sandbox values shown',
    )
    .option('--amount <amount>', 'amount, at most 2 decimals, such as 1000.00')
    .option('--asset <asset>', 'fiat asset (only USD)', 'USD')
    .option('--memo-id <id>', "memo id of the deposit (default: the local demo profile's; picked on a terminal)")
    .option(
      '--instructions <id>',
      'take the memo id from these fiat deposit instructions (coinop deposit-instructions)',
    )
    .option(
      '--file <path>',
      'wire instructions as JSON: the wire object, {"wire": ...} or a whole request body (intermediary_routing_details only here)',
    );
  for (const f of WIRE_FIELDS) deposit.option(`${f.flag} <value>`, f.help);
  examples(
    deposit.action(async (raw: RawFlags) => {
      const { parseSandboxDepositOptions } = await import('./options.js');
      const o = parseSandboxDepositOptions(raw);
      await (await import('./run.js')).deposit(ports(ctx), o);
    }),
    [
      'coinop sandbox deposit --amount 1000.00',
      'coinop sandbox deposit --amount 250.50 --memo-id DEMO-MEMO-0001 --file wire.json',
      'coinop sandbox deposit --amount 1000.00 --instructions f190b163-208f-4d73-8deb-4fb8b24add00',
      'coinop sandbox deposit --amount 10 --account-number 12345678 --routing-number 021000021 --bank-name "Test Bank"',
      'coinop sandbox deposit --amount 10 --routing-type SWIFT --routing-number CHASUS33 --bank-country USA --institution "ACME Inc"',
    ],
  );
}
