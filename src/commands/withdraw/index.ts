// coinop withdraw and its batch subcommand: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { type RawFlags, repeat, waitTimeoutOption } from '../../cli/options.js';
import { examples } from '../../cli/help.js';
import { register as registerBatch } from './batch/index.js';

export function register(program: Command, ctx: Invocation): Command {
  const cmd = program
    .command('withdraw')
    .description('send crypto from a profile balance to a blockchain address (asks for missing values on a terminal)')
    .option('--asset <asset>', 'asset to withdraw, such as BTC')
    .option('--network <network>', 'crypto network (crypto_network), such as BITCOIN')
    .option('--address <address>', 'destination address')
    .option('--to <nickname>', 'the destination from the address book, by nickname: its address and network')
    .option('--amount <amount>', 'amount to send (the fee comes on top)')
    .option('--total <total>', 'total to debit, fee included (instead of --amount)')
    .option('--fee-id <id>', 'use a guaranteed fee quote (from coinop fee quote)')
    .option('--quote', 'get a guaranteed fee quote first and use it')
    .option('--ref-id <id>', 'client id for replay protection (default: generated and printed)')
    .option('--profile-id <id>', "the service's profile to debit (default: the coinop profile's)")
    .option('--identity-id <id>', 'identity making the withdrawal')
    .option('--account-id <id>', 'account of the identity')
    .option('--balance-asset <asset>', 'asset whose balance to debit (USD for stablecoins)')
    .option('--memo <text>', 'memo sent with the withdrawal')
    .option('--meta <key=value>', 'metadata pair (repeatable, at most 6)', repeat)
    .option('--beneficiary <json>', 'beneficiary details as a JSON object')
    .option('--dry-run', 'validate, quote and show what would be sent; send nothing')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--wait', 'follow the transfer until COMPLETED or FAILED (exit 6 on FAILED)')
    .addOption(waitTimeoutOption())
    .option('--save <file>', 'with --dry-run: save the request to FILE for approval (coinop approve FILE)')
    .option('--request <file>', 'send the withdrawal saved by --dry-run --save FILE (approvals next to it count)')
    .option('--approvals <file>', "an approval file (coinop approve) for the profile's policy (repeatable)", repeat)
    .action(async (raw: RawFlags) => {
      const { parseWithdrawOptions } = await import('./options.js');
      const o = parseWithdrawOptions(raw);
      await (await import('./run.js')).withdraw(ctx, o);
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
  return cmd;
}
