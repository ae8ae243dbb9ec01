// coinop sandbox deposit: declarations; the work is in run.ts.
import type { Command } from 'commander';
import type { CliContext } from '../../cli/context.js';
import { examples } from '../../cli/program.js';

export function register(program: Command, ctx: CliContext): void {
  const sandbox = examples(program.command('sandbox').description('sandbox-only simulations (refused against production)'), ['coinop sandbox deposit --amount 1000.00']);
  examples(
    sandbox
      .command('deposit')
      .description('simulate an incoming fiat wire deposit that credits the profile with this memo id')
      .option('--amount <amount>', 'amount, at most 2 decimals, such as 1000.00')
      .option('--asset <asset>', 'fiat asset (only USD)', 'USD')
      .option('--memo-id <id>', "memo id of the deposit (default: the local demo profile's)")
      .option('--file <path>', 'wire instructions as JSON (the wire object, or {"wire": ...}, or a whole request body)')
      .option('--account-number <n>', 'wire: account number')
      .option('--routing-number <n>', 'wire: routing number')
      .option('--routing-type <type>', 'wire: routing number type', 'ABA')
      .option('--bank-name <name>', 'wire: bank name')
      .option('--bank-country <code>', 'wire: bank address country')
      .option('--owner-country <code>', 'wire: account owner address country')
      .option('--owner-city <city>', 'wire: account owner address city')
      .option('--owner-address <line>', 'wire: account owner address line 1')
      .option('--institution <name>', 'name of the sending institution (fiat_account_owner)')
      .action(async (opts) => (await import('./run.js')).deposit(ctx, opts)),
    [
      'coinop sandbox deposit --amount 1000.00',
      'coinop sandbox deposit --amount 250.50 --memo-id DEMO-MEMO-0001 --file wire.json',
      'coinop sandbox deposit --amount 10 --account-number 12345678 --routing-number 021000021 --bank-name "Test Bank"',
    ],
  );
}
