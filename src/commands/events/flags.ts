// coinop events list, watch and listen: their flags, declared once: index.ts declares them, options.ts reads their
// typed values.
import type { Command } from 'commander';
import { EVENT_LIST_LIMIT_MAX, EVENT_TYPES } from '../../contract/enums.js';
import { defineFlags } from '../../cli/flags.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';

export const EVENTS_LIST_FLAG_TABLE = defineFlags({
  type: {
    kind: 'text',
    flag: '--type <type>',
    help: 'one event type, such as transfer.crypto_withdrawal.completed',
    field: 'type',
    values: EVENT_TYPES,
  },
});

/** events list's flags on `cmd`: its own, then the shared list flags (the feed's page size and order). */
export function declareEventsList(cmd: Command): Command {
  return tableOptions(
    listOptions(EVENTS_LIST_FLAG_TABLE.declare(cmd), { limitMax: EVENT_LIST_LIMIT_MAX, oldestFirst: true }),
  );
}

/** The flags watch and listen share: which events, from where, how many. */
export const FOLLOW_FLAG_TABLE = defineFlags({
  type: {
    kind: 'list',
    split: true,
    flag: '--type <type>',
    help: 'event types to follow (repeatable or comma separated; default: every type)',
    values: EVENT_TYPES,
  },
  since: {
    kind: 'text',
    flag: '--since <time>',
    help: 'start at this time instead of the checkpoint: RFC 3339, or back from now such as 1h',
  },
  count: { kind: 'text', flag: '--count <n>', help: 'end after this many events' },
});

export const LISTEN_FLAG_TABLE = defineFlags({
  forwardTo: { kind: 'text', flag: '--forward-to <url>', help: 'where to POST each event (http:// or https://)' },
  concurrency: {
    kind: 'text',
    flag: '--concurrency <n>',
    help: 'deliveries at once, of different objects (1 to 16, default 8)',
  },
  timeout: { kind: 'text', flag: '--timeout <duration>', help: 'how long one delivery may take (default 10s)' },
  printSecret: {
    kind: 'switch',
    flag: '--print-secret',
    help: "print the context's signing secret (made if need be) and end",
  },
});

/** events listen's flags on `cmd`: its own, then those it shares with watch. */
export function declareEventsListen(cmd: Command): Command {
  return FOLLOW_FLAG_TABLE.declare(LISTEN_FLAG_TABLE.declare(cmd));
}
