// The flags a paged list command shares, declared and read in one place: created_at comparisons (--created-before,
// -until, -at, -from, -after: RFC 3339, or back from now such as 24h), --limit, --order, --order-by, --cursor, --all.
import { type Command, Option } from 'commander';
import { LIST_LIMIT_MAX, LIST_ORDERS } from '../api/index.js';
import type { FlagNames } from '../client/api.js';
import { type FlagReader, intFlag, parseTime } from './options.js';

/** Each comparison of created_at, the word of its flag and what it means. */
const CREATED = [
  ['lt', 'before', 'strictly before'],
  ['lte', 'until', 'at or before'],
  ['eq', 'at', 'exactly at'],
  ['gte', 'from', 'at or after'],
  ['gt', 'after', 'strictly after'],
] as const;

/**
 * Declares the shared list flags on a command; --order-by only where the list has sort keys to choose from. A list
 * with another page size limit or default order than most (the event feed: 100, oldest first) says so.
 */
export function listOptions(
  cmd: Command,
  opts: { orderBy?: readonly string[]; limitMax?: number; oldestFirst?: boolean } = {},
): Command {
  for (const [cmp, word, meaning] of CREATED)
    cmd.option(
      `--created-${word} <time>`,
      `created ${meaning} (created_at.${cmp})${cmp === 'lt' ? ': RFC 3339, or back from now such as 24h' : ''}`,
    );
  cmd
    .option('--limit <n>', `items per page (1 to ${opts.limitMax ?? LIST_LIMIT_MAX}, default 100)`)
    .addOption(
      new Option(
        '--order <order>',
        `sort direction (default ${opts.oldestFirst ? 'ASC: oldest first' : 'DESC: newest first'})`,
      ).choices(LIST_ORDERS),
    );
  if (opts.orderBy) cmd.addOption(new Option('--order-by <key>', 'sort key').choices(opts.orderBy));
  return cmd
    .option('--cursor <cursor>', 'start from this page cursor (next_page_cursor)')
    .option('--all', 'every page, streamed');
}

/** The flag of each query field the shared list flags give. */
export const LIST_FLAG_NAMES: FlagNames = {
  ...Object.fromEntries(CREATED.map(([cmp, word]) => [`created_at.${cmp}`, `--created-${word}`])),
  limit: '--limit',
  order: '--order',
  order_by: '--order-by',
  page_cursor: '--cursor',
};

/** The query fields of the shared list flags (those given), and whether to follow every page. */
export function readListFlags(
  f: FlagReader,
  now: number,
  limitMax = LIST_LIMIT_MAX,
): { query: Record<string, unknown>; all: boolean } {
  const query: Record<string, unknown> = {};
  for (const [cmp, word] of CREATED)
    query[`created_at.${cmp}`] = parseTime(f.text(`created${word[0].toUpperCase()}${word.slice(1)}`), now);
  query.limit = intFlag('--limit', f.text('limit'), 1, limitMax);
  query.order = f.text('order');
  query.order_by = f.text('orderBy');
  query.page_cursor = f.text('cursor');
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  return { query, all: f.on('all') };
}
