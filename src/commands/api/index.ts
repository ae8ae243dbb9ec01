// coinop api METHOD PATH: declarations; the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { API_FLAG_TABLE } from './flags.js';
import { examples } from '../../cli/help.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    API_FLAG_TABLE.declare(
      program
        .command('api')
        .description(
          'a raw authenticated request, like gh api (paths without /v2 get it; the answer is printed as sent); a request that moves money passes the same gate as withdraw (checks, policy, audit; in production a confirmation)',
        )
        .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
        .argument('<path>', 'such as /v2/transfer/transfers or transfer/transfers'),
    ).action(async (method: string, path: string, opts) =>
      (await import('./run.js')).api(ports(ctx), method, path, opts),
    ),
    [
      'coinop api GET /v2/transfer/transfers -f limit=5',
      'coinop api GET transfer/deposit-addresses -f networks=BITCOIN -f networks=ETHEREUM --paginate',
      'coinop api POST /v2/transfer/fees/crypto-withdrawal --input quote.json',
      'coinop api GET /v2/markets/BTCUSD/historical-prices -f increment=ONE_DAY -f range.begin=2026-01-01T00:00:00Z',
    ],
  );
}
