// coinop local start: runs the local service in the foreground (src/local/cli.ts); coinop local deposit: crypto
// arriving at a deposit address (options.ts checks its flags, run.ts does the work).
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import type { RawFlags } from '../../cli/options.js';
import { examples } from '../../cli/help.js';
import { ports } from '../../cli/ports.js';
import { LOCAL_DEPOSIT_FLAG_TABLE, LOCAL_START_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const local = examples(
    program.command('local').description('the local service: a faithful, stateful stand-in for the hosted one'),
    ['coinop local start', 'coinop local deposit --ref-id demo-btc --amount 0.5'],
  );
  examples(
    LOCAL_START_FLAG_TABLE.declare(local.command('start'))
      .description('run the local service until Ctrl-C (the local context points at port 7357)')
      .action(async (raw: RawFlags) => (await import('./run.js')).start(ports(ctx), raw)),
    ['coinop local start', 'coinop local start --port 0 --memory --seed 42'],
  );
  examples(
    LOCAL_DEPOSIT_FLAG_TABLE.declare(local.command('deposit'))
      .description(
        'simulate crypto arriving at a deposit address: a PENDING CRYPTO_DEPOSIT, credited once the service confirms it',
      )
      .action(async (raw: RawFlags) => {
        const { parseLocalDepositOptions } = await import('./options.js');
        const o = parseLocalDepositOptions(raw);
        await (await import('./run.js')).deposit(ports(ctx), o);
      }),
    [
      'coinop local deposit --ref-id demo-btc --amount 0.5',
      'coinop local deposit --address 0xb15904ded73e64097fa78bcaf8ead50444a1aa78 --amount 250 --asset USDP',
      'coinop local deposit --ref-id demo-btc --amount 0.5 --needs-info   # held for its originator (Travel Rule)',
    ],
  );
}
