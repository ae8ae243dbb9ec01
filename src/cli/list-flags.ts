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
import { shellQuote } from './help.js';
import { choiceOption, collect, type FlagReader, intFlag, parseTime, TIME_HELP } from './options.js';

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
      `created ${meaning} (created_at.${cmp})${cmp === 'lt' ? `: ${TIME_HELP}` : ''}`,
    );
  cmd
    .option('--limit <n>', `items per page (1 to ${opts.limitMax ?? LIST_LIMIT_MAX}, default 100)`)
    .addOption(
      choiceOption(
        '--order <order>',
        `sort direction (default ${opts.oldestFirst ? 'ASC: oldest first' : 'DESC: newest first'})`,
        LIST_ORDERS,
      ),
    );
  if (opts.orderBy) cmd.addOption(choiceOption('--order-by <key>', 'sort key', opts.orderBy));
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
  reader: FlagReader,
  now: number,
  limitMax = LIST_LIMIT_MAX,
): { query: Record<string, unknown>; all: boolean } {
  const query: Record<string, unknown> = {};
  for (const [cmp, word] of CREATED)
    query[`created_at.${cmp}`] = parseTime(
      `--created-${word}`,
      reader.text(`created${word[0].toUpperCase()}${word.slice(1)}`),
      now,
    );
  query.limit = intFlag('--limit', reader.text('limit'), 1, limitMax);
  query.order = reader.text('order');
  query.order_by = reader.text('orderBy');
  query.page_cursor = reader.text('cursor');
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  return { query, all: reader.on('all') };
}

// ---- Tables: --columns and --wide, and the footer of a paged list --------------------------------------------------

/** Declares --columns and --wide on a command that prints a table (src/render/table.ts lays them out). */
export function tableOptions(cmd: Command): Command {
  return cmd
    .option('--columns <names>', 'the table (and CSV) columns, comma separated, in this order', collect)
    .option('--wide', 'every column of the table, none left out to fit the terminal');
}

/**
 * --columns and --wide, checked against the table's columns (an unknown name lists the valid ones); undefined when
 * neither is given.
 */
export function readTableView(reader: FlagReader, columns: readonly Column[]): TableView | undefined {
  const names = reader.list('columns');
  const wide = reader.on('wide');
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
