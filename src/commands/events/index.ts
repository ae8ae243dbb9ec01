// coinop events list|get|watch|listen: declarations; the flags are checked in options.ts, the work is in run.ts
// (list, get), watch.ts and listen.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { declareEventsList, declareEventsListen, FOLLOW_FLAG_TABLE } from './flags.js';

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
  const list = events.command('list').description('events, filtered; --all follows every page and streams them');
  examples(
    declareEventsList(list).action(async (raw: RawFlags) => (await import('./run.js')).list(ports(ctx), raw)),
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
    FOLLOW_FLAG_TABLE.declare(
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
    declareEventsListen(
      events
        .command('listen')
        .description(
          'forward each new event to a URL as a signed POST: at least once, in order per object, retried until delivered',
        ),
    ).action(async (raw: RawFlags) => (await import('./listen.js')).listen(ports(ctx), raw)),
    [
      'coinop events listen --forward-to http://localhost:4242/webhooks',
      'coinop events listen --forward-to http://localhost:4242/webhooks --type transfer.crypto_deposit.completed',
      'coinop events listen --print-secret',
    ],
  );
}
