// coinop events list|get|watch|listen: declarations; the flags are checked in options.ts, the work is in run.ts
// (list, get), watch.ts and listen.ts.
import type { Command } from 'commander';
import { EVENT_LIST_LIMIT_MAX } from '../../contract/enums.js';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { listOptions } from '../../cli/list-flags.js';
import { collect, type RawFlags } from '../../cli/options.js';

/** The flags watch and listen share: which events, from where, how many. */
function followOptions(cmd: Command): Command {
  return cmd
    .option('--type <type>', 'event types to follow (repeatable or comma separated; default: every type)', collect)
    .option('--since <time>', 'start at this time instead of the checkpoint: RFC 3339, or back from now such as 1h')
    .option('--count <n>', 'end after this many events');
}

export function register(program: Command, ctx: Invocation): void {
  const events = examples(
    program
      .command('events')
      .description("the service's event feed: every change of a transfer or deposit address, oldest first"),
    [
      'coinop events list --type transfer.crypto_withdrawal.completed',
      'coinop events watch',
      'coinop events listen --forward-to http://localhost:4242/webhooks',
    ],
  );
  const list = events
    .command('list')
    .description('events, filtered; --all follows every page and streams them')
    .option('--type <type>', 'one event type, such as transfer.crypto_withdrawal.completed');
  examples(
    listOptions(list, { limitMax: EVENT_LIST_LIMIT_MAX, oldestFirst: true }).action(async (raw: RawFlags) =>
      (await import('./run.js')).list(ports(ctx), raw),
    ),
    [
      'coinop events list',
      'coinop events list --type transfer.crypto_deposit.completed --created-after 24h',
      'coinop events list --all -o ndjson > events.ndjson',
    ],
  );
  examples(
    events
      .command('get')
      .description('one event, with its object as it was then')
      .argument('[id]', 'event id')
      .action(async (id: string | undefined) => (await import('./run.js')).get(ports(ctx), id)),
    ['coinop events get 9d2c4f0e-...'],
  );
  examples(
    followOptions(
      events
        .command('watch')
        .description('follow new events as they happen (NDJSON piped); resumes from its checkpoint after a restart'),
    ).action(async (raw: RawFlags) => (await import('./watch.js')).watch(ports(ctx), raw)),
    [
      'coinop events watch',
      'coinop events watch --type transfer.crypto_withdrawal.failed -o ndjson | jq .object.id',
      'coinop events watch --since 1h --count 10',
    ],
  );
  examples(
    followOptions(
      events
        .command('listen')
        .description(
          'forward each new event to a URL as a signed POST: at least once, in order per object, retried until delivered',
        )
        .option('--forward-to <url>', 'where to POST each event (http:// or https://)')
        .option('--concurrency <n>', 'deliveries at once, of different objects (1 to 16, default 8)')
        .option('--timeout <duration>', 'how long one delivery may take (default 10s)')
        .option('--print-secret', "print the profile's signing secret (made if need be) and end"),
    ).action(async (raw: RawFlags) => (await import('./listen.js')).listen(ctx, raw)),
    [
      'coinop events listen --forward-to http://localhost:4242/webhooks',
      'coinop events listen --forward-to http://localhost:4242/webhooks --type transfer.crypto_deposit.completed',
      'coinop events listen --print-secret',
    ],
  );
}
