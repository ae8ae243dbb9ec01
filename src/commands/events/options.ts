// coinop events list, get, watch and listen: their flags, checked, as typed options objects (declared in index.ts).
import { EVENT_LIST_LIMIT_MAX, EVENT_TYPE_PATTERN, operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { EVENT_LIST_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import { durationFlag, intFlag, parseTime, type RawFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { EVENTS_LIST_FLAG_TABLE, FOLLOW_FLAG_TABLE, LISTEN_FLAG_TABLE } from './flags.js';

/** The flag (or argument) of each request field, for messages. */
export const FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ...EVENTS_LIST_FLAG_TABLE.fields, id: 'ID' };

const TYPE = new RegExp(EVENT_TYPE_PATTERN);

/** A --type value: an event type's shape (which types a service has is the service's to say). */
function eventType(type: string): string {
  if (!TYPE.test(type) || type.length > 100)
    throw usageError(
      `--type: "${type}" is not an event type (lower-case words joined by dots, such as transfer.crypto_withdrawal.completed)`,
    );
  return type;
}

export interface EventsListOptions {
  /** The listEvents query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseEventsListOptions(raw: RawFlags, now: number): EventsListOptions {
  const { query, all } = readListFlags(raw, now, EVENT_LIST_LIMIT_MAX);
  const { type } = EVENTS_LIST_FLAG_TABLE.read(raw);
  if (type !== undefined) query.type = eventType(type.trim());
  checkRequest(operations.listEvents, { query }, FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, EVENT_LIST_COLUMNS) };
}

export function parseEventGetOptions(id: string | undefined): { id?: string } {
  if (id !== undefined) checkRequest(operations.getEvent, { params: { id } }, FLAGS, SHAPE_ONLY);
  return { id };
}

/** What watch and listen share: which events, from where, and how many before ending. */
export interface FollowOptions {
  /** The types followed (none: every type). */
  types: string[];
  /** Start at this created_at (RFC 3339) instead of the checkpoint. */
  since?: string;
  /** End after this many events (watch: written; listen: delivered, every earlier one too). */
  count?: number;
}

function parseFollow(raw: RawFlags, now: number): FollowOptions {
  const f = FOLLOW_FLAG_TABLE.read(raw);
  const types = [...new Set(f.type ?? [])].map(eventType);
  // The one time grammar of every command (its error names the flag and the accepted forms).
  const since = parseTime('--since', f.since, now);
  return { types, since, count: intFlag('--count', f.count, 1, 1_000_000_000) };
}

export type EventsWatchOptions = FollowOptions;

export function parseEventsWatchOptions(raw: RawFlags, now: number): EventsWatchOptions {
  return parseFollow(raw, now);
}

export interface EventsListenOptions extends FollowOptions {
  /** Where events go; undefined with printSecret. */
  url?: string;
  /** Print the context's signing secret (made if need be) on stdout and end. */
  printSecret: boolean;
  /** Deliveries under way at once (of different objects). */
  concurrency: number;
  /** How long one delivery may take before it counts as failed (and is retried). */
  timeoutMs: number;
}

export const LISTEN_DEFAULTS = { concurrency: 8, timeoutMs: 10_000 } as const;

/** The receiving URL: an absolute http or https address. */
function forwardUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw usageError(`--forward-to: "${value}" is not a URL (such as http://localhost:4242/webhooks)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw usageError(`--forward-to: must be an http:// or https:// URL, not ${u.protocol}`);
  return u.href;
}

export function parseEventsListenOptions(raw: RawFlags, now: number): EventsListenOptions {
  const f = LISTEN_FLAG_TABLE.read(raw);
  const { printSecret, forwardTo: to } = f;
  if (printSecret && to !== undefined)
    throw usageError('--print-secret and --forward-to: give one (--print-secret only prints)');
  if (!printSecret && to === undefined)
    throw usageError(
      'missing --forward-to URL',
      'such as coinop events listen --forward-to http://localhost:4242/webhooks',
    );
  return {
    ...parseFollow(raw, now),
    url: to === undefined ? undefined : forwardUrl(to),
    printSecret,
    concurrency: intFlag('--concurrency', f.concurrency, 1, 16) ?? LISTEN_DEFAULTS.concurrency,
    timeoutMs: durationFlag('--timeout', f.timeout, 300_000, 'must be at most 5 minutes') ?? LISTEN_DEFAULTS.timeoutMs,
  };
}
