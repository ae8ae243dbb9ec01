// coinop withdraw and its batch and fiat subcommands: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import type { RawFlags } from '../../cli/options.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { register as registerBatch } from './batch/index.js';
import { register as registerFiat } from './fiat/index.js';
import { WITHDRAW_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): Command {
  const cmd = WITHDRAW_FLAG_TABLE.declare(
    program
      .command('withdraw')
      .description(
        'send crypto from a profile balance to a blockchain address (asks for missing values on a terminal)',
      ),
  ).action(async (raw: RawFlags) => {
    const { parseWithdrawOptions } = await import('./options.js');
    const o = parseWithdrawOptions(raw);
    await (await import('./run.js')).withdraw(ports(ctx), o);
  });
  examples(cmd, [
    'coinop withdraw',
    'coinop withdraw --asset BTC --network BITCOIN --address 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 --amount 0.01',
    'coinop withdraw --asset ETH --network BASE --address 0xF0Aa84466e353E5390be37FE2934301c07c19a55 --total 0.5 --quote --wait',
    'coinop withdraw --asset USDP --network ETHEREUM --address 0xF0Aa... --amount 100 --balance-asset USD --meta invoice=42 --yes',
    'coinop withdraw --to treasury --asset ETH --amount 0.5',
    'coinop withdraw ... --dry-run -o json',
    'coinop withdraw ... --ref-id payout-7 --dry-run --save payout-7.json   # then: coinop approve payout-7.json',
    'coinop withdraw --request payout-7.json --yes                          # with payout-7.json.approval-*.txt',
  ]);
  registerBatch(cmd, ctx);
  registerFiat(cmd, ctx);
  return cmd;
}
