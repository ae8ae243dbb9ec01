// coinop local start: runs the local service in the foreground (src/local/cli.ts); coinop local deposit: crypto
// arriving at a deposit address (options.ts checks its flags, run.ts does the work).
import { type Command, Option } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import type { RawFlags } from '../../cli/options.js';
import { examples } from '../../cli/help.js';

export function register(program: Command, ctx: Invocation): void {
  const local = examples(
    program.command('local').description('the local service: a faithful, stateful stand-in for the hosted one'),
    ['coinop local start', 'coinop local deposit --ref-id demo-btc --amount 0.5'],
  );
  examples(
    local
      .command('start')
      .description('run the local service until Ctrl-C (the local profile points at port 7357)')
      .option('--port <port>', 'port (0 = any free port)', '7357')
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--db <file>', 'database file (default: in the XDG data directory)')
      .option('--memory', 'keep state in memory only')
      .addOption(new Option('--seed <n>', 'seed of prices and faults'))
      .option('--no-rate-limits', "answer without the hosted service's rate limits (for load tests)")
      .action(async (raw: RawFlags) => (await import('./run.js')).start(ctx, raw)),
    ['coinop local start', 'coinop local start --port 0 --memory --seed 42'],
  );
  examples(
    local
      .command('deposit')
      .description(
        'simulate crypto arriving at a deposit address: a PENDING CRYPTO_DEPOSIT, credited once the service confirms it',
      )
      .option('--address <address>', 'the deposit address the money arrives at')
      .option('--ref-id <ref_id>', 'or the ref_id of that deposit address')
      .option('--amount <amount>', 'amount of the asset')
      .option('--asset <asset>', "asset (default: the network's own coin, such as BTC or ETH)")
      .action(async (raw: RawFlags) => {
        const { parseLocalDepositOptions } = await import('./options.js');
        const o = parseLocalDepositOptions(raw);
        await (await import('./run.js')).deposit(ctx, o);
      }),
    [
      'coinop local deposit --ref-id demo-btc --amount 0.5',
      'coinop local deposit --address 0xb15904ded73e64097fa78bcaf8ead50444a1aa78 --amount 250 --asset USDP',
    ],
  );
}
