// coinop markets, book and trades: their flags, declared once: index.ts declares them, options.ts reads their typed
// values.
import type { Command } from 'commander';
import { defineFlags } from '../../cli/flags.js';
import { tableOptions } from '../../cli/list-flags.js';
import { BOOK_DEPTH_DEFAULT, BOOK_DEPTH_MAX, TRADES_LIMIT_DEFAULT, TRADES_LIMIT_MAX } from './depth-bounds.js';

export const MARKETS_FLAG_TABLE = defineFlags({
  refresh: {
    kind: 'switch',
    flag: '--refresh',
    help: "fetch the service's list again (it is kept for a day per service)",
  },
});

/** markets's flags on `cmd`: the table flags (--columns, --wide), then its own. */
export function declareMarkets(cmd: Command): Command {
  return MARKETS_FLAG_TABLE.declare(tableOptions(cmd));
}

export const BOOK_FLAG_TABLE = defineFlags({
  depth: {
    kind: 'text',
    flag: '--depth <n>',
    help: `price levels per side (1 to ${BOOK_DEPTH_MAX}, default ${BOOK_DEPTH_DEFAULT})`,
  },
});

export const TRADES_FLAG_TABLE = defineFlags({
  limit: {
    kind: 'text',
    flag: '--limit <n>',
    help: `trades to show (1 to ${TRADES_LIMIT_MAX}, default ${TRADES_LIMIT_DEFAULT})`,
  },
});
