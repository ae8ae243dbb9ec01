// coinop fee quote: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  const fee = examples(program.command('fee').description('withdrawal fees'), [
    'coinop fee quote --asset BTC --network BITCOIN --address 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 --amount 0.5',
  ]);
  examples(
    fee
      .command('quote')
      .description(
        'a guaranteed withdrawal fee: fee, amount, total and time to expiry (use its id with withdraw --fee-id)',
      )
      .option('--asset <asset>', 'asset to withdraw')
      .option('--network <network>', 'crypto network')
      .option('--address <address>', 'destination address')
      .option('--amount <amount>', 'amount to send')
      .option('--total <total>', 'total including the fee (instead of --amount)')
      .action(async (raw: RawFlags) => {
        const { parseFeeQuoteOptions } = await import('./options.js');
        const o = parseFeeQuoteOptions(raw);
        await (await import('./run.js')).quote(ports(ctx), o);
      }),
    [
      'coinop fee quote --asset BTC --network BITCOIN --address 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 --amount 0.5',
      'coinop fee quote --asset ETH --network ETHEREUM --address 0xF0Aa84466e353E5390be37FE2934301c07c19a55 --total 1 -o json',
    ],
  );
}
