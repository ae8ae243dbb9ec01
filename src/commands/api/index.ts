// coinop api METHOD PATH: declarations; the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { repeat } from '../../cli/options.js';
import { examples } from '../../cli/help.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    program
      .command('api')
      .description(
        'a raw authenticated request, like gh api (paths without /v2 get it; the answer is printed as sent); a request that moves money passes the same gate as withdraw (checks, policy, audit; in production a confirmation)',
      )
      .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
      .argument('<path>', 'such as /v2/transfer/transfers or transfer/transfers')
      .option(
        '-f, --field <key=value>',
        'a query parameter (GET) or body field (others); repeatable; dots nest (metadata.note=x)',
        repeat,
      )
      .option('--input <file>', 'the JSON body from a file (- for stdin)')
      .option('--paginate', 'follow next_page_cursor and print every item')
      .option('-i, --include', 'print the status line and headers to stderr')
      .option(
        '-y, --yes',
        'send a money-moving request in production without the typed confirmation (it still passes the policy)',
      )
      .action(async (method: string, path: string, opts) => (await import('./run.js')).api(ctx, method, path, opts)),
    [
      'coinop api GET /v2/transfer/transfers -f limit=5',
      'coinop api GET transfer/deposit-addresses -f networks=BITCOIN -f networks=ETHEREUM --paginate',
      'coinop api POST /v2/transfer/fees/crypto-withdrawal --input quote.json',
      'coinop api GET /v2/markets/BTCUSD/historical-prices -f increment=ONE_DAY -f range.begin=2026-01-01T00:00:00Z',
    ],
  );
}
