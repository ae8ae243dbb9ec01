// The flags a paged list command shares, declared and read in one place: created_at comparisons (--created-before,
// -until, -at, -from, -after: options.ts's one time grammar), --limit, --order, --order-by, --cursor, --all;
// the table flags of every command that prints a table (--columns, --wide), and a list's footer.
import type { Command } from 'commander';
import { LIST_ORDERS } from '../contract/enums.js';
import { LIST_LIMIT_MAX } from '../contract/schemas.js';
import type { FlagNames } from '../client/service-client.js';
import type { Output } from '../render/output.js';
import { checkColumnNames, type Column, type TableView } from '../render/table.js';
import { usageError } from './errors.js';
import { defineFlags, type FlagSpecs, timeFilters, timeFilterSpecs } from './flags.js';
import { shellQuote } from './help.js';
import { intFlag, parseTime, type RawFlags, TIME_HELP } from './options.js';

/** What each comparison of created_at means, by its operator. */
const CREATED_MEANING: Record<string, string> = {
  lt: 'strictly before',
  lte: 'at or before',
  eq: 'exactly at',
  gte: 'at or after',
  gt: 'strictly after',
};

/** The page flags of every paged list: where to start, and whether to follow every page. */
export const PAGE_FLAG_SPECS = {
  cursor: {
    kind: 'text',
    flag: '--cursor <cursor>',
    help: 'start from this page cursor (next_page_cursor)',
    field: 'page_cursor',
  },
  all: { kind: 'switch', flag: '--all', help: 'every page, streamed' },
} as const satisfies FlagSpecs;

/** How a list differs from most: its sort keys (--order-by), page size limit and default order. */
export interface ListShape {
  orderBy?: readonly string[];
  limitMax?: number;
  oldestFirst?: boolean;
  /** A list the service filters by no creation time (statements): no --created-* flags. */
  untimed?: boolean;
}

/** The shared list flags of a list of `shape`, in their help's order. */
function listFlagTable(shape: ListShape) {
  return defineFlags({
    ...timeFilterSpecs(
      'created',
      'created_at',
      (key, op) => `created ${CREATED_MEANING[op]} (${key})${op === 'lt' ? `: ${TIME_HELP}` : ''}`,
    ),
    limit: {
      kind: 'text',
      flag: '--limit <n>',
      help: `items per page (1 to ${shape.limitMax ?? LIST_LIMIT_MAX}, default 100)`,
      field: 'limit',
    },
    order: {
      kind: 'choice',
      flag: '--order <order>',
      help: `sort direction (default ${shape.oldestFirst ? 'ASC: oldest first' : 'DESC: newest first'})`,
      choices: LIST_ORDERS,
      field: 'order',
    },
    orderBy: {
      kind: 'choice',
      flag: '--order-by <key>',
      help: 'sort key',
      choices: shape.orderBy ?? [],
      field: 'order_by',
    },
    ...PAGE_FLAG_SPECS,
  });
}

/** The shared list flags as read (the sort keys are checked where they are declared). */
const LIST_FLAG_TABLE = listFlagTable({});

/**
 * Declares the shared list flags on a command; --order-by only where the list has sort keys to choose from. A list
 * with another page size limit or default order than most (the event feed: 100, oldest first) says so.
 */
export function listOptions(cmd: Command, shape: ListShape = {}): Command {
  const table = listFlagTable(shape);
  const keys = table.keys.filter(
    (k) => (shape.orderBy || k !== 'orderBy') && !(shape.untimed && k.startsWith('created')),
  );
  return table.declare(cmd, keys);
}

/** The flag of each query field the shared list flags give. */
export const LIST_FLAG_NAMES: FlagNames = LIST_FLAG_TABLE.fields;

/** The query fields of the shared list flags (those given), and whether to follow every page. */
export function readListFlags(
  raw: RawFlags,
  now: number,
  limitMax = LIST_LIMIT_MAX,
): { query: Record<string, unknown>; all: boolean } {
  const f = LIST_FLAG_TABLE.read(raw);
  const query: Record<string, unknown> = {
    ...timeFilters(f, 'created', 'created_at', now),
    limit: intFlag('--limit', f.limit, 1, limitMax),
    order: f.order,
    order_by: f.orderBy,
    page_cursor: f.cursor,
  };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  return { query, all: f.all };
}

// ---- Tables: --columns and --wide, and the footer of a paged list --------------------------------------------------

/** The flags of every command that prints a table (src/render/table.ts lays them out). */
export const TABLE_FLAG_TABLE = defineFlags({
  columns: {
    kind: 'list',
    split: true,
    flag: '--columns <names>',
    help: 'the table (and CSV) columns, comma separated, in this order',
  },
  wide: { kind: 'switch', flag: '--wide', help: 'every column of the table, none left out to fit the terminal' },
});

/** Declares --columns and --wide on a command that prints a table. */
export function tableOptions(cmd: Command): Command {
  return TABLE_FLAG_TABLE.declare(cmd);
}

/**
 * --columns and --wide, checked against the table's columns (an unknown name lists the valid ones); undefined when
 * neither is given.
 */
export function readTableView(raw: RawFlags, columns: readonly Column[]): TableView | undefined {
  const { columns: names, wide } = TABLE_FLAG_TABLE.read(raw);
  if (names && wide) throw usageError('--columns and --wide: give one (--wide is every column)');
  checkColumnNames(names, columns);
  return names ? { names } : wide ? { wide } : undefined;
}

/** The command line that shows the next page: the one typed, its --cursor replaced by the next page's. */
export function nextPageCommand(argv: readonly string[], cursor: string): string {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cursor') i++;
    else if (!argv[i].startsWith('--cursor=')) args.push(argv[i]);
  }
  return ['coinop', ...args, '--cursor', cursor].map(shellQuote).join(' ');
}

/**
 * The footer of a list on a terminal (stderr): how many, and when a next page exists, its cursor and the exact
 * command that shows it. `noun` is singular and plural.
 */
export function listFooter(
  ctx: { readonly argv: readonly string[] },
  out: Output,
  count: number,
  noun: [string, string],
  next?: string,
): void {
  if (!out.forPeople) return;
  if (count || next)
    out.note(out.p.dim(`${count} ${count === 1 ? noun[0] : noun[1]}${next ? ` · next cursor ${next}` : ''}`));
  if (next) out.note(out.p.dim(`next page: ${nextPageCommand(ctx.argv, next)} (or --all for every page)`));
}

// ---- A period: --from and --to, as coinop audit takes them ----------------------------------------------------------

/** --from (at or after) and --to (strictly before): a period of creation times, in the one time grammar. */
export const PERIOD_SPECS = {
  from: { kind: 'text', flag: '--from <time>', help: `created at or after (created_at.gte): ${TIME_HELP}` },
  to: { kind: 'text', flag: '--to <time>', help: 'created strictly before (created_at.lt)' },
} as const;

/** A period of creation times as RFC 3339 bounds (either may be open). */
export interface Period {
  from?: string;
  to?: string;
}

/** --from and --to read in the one time grammar; --from must come before --to. */
export function readPeriod(values: { from?: string; to?: string }, now: number): Period {
  const from = parseTime('--from', values.from, now);
  const to = parseTime('--to', values.to, now);
  if (from !== undefined && to !== undefined && Date.parse(from) >= Date.parse(to))
    throw usageError('--from: must be before --to');
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

/** A period as the listTransfers (and every list's) query: created_at.gte and created_at.lt. */
export function periodQuery(period: Period): Record<string, string> {
  return {
    ...(period.from !== undefined ? { 'created_at.gte': period.from } : {}),
    ...(period.to !== undefined ? { 'created_at.lt': period.to } : {}),
  };
}
