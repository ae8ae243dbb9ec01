// coinop prices: its flags, declared once: index.ts declares them, options.ts reads their typed values.
import type { Command } from 'commander';
import { defineFlags } from '../../cli/flags.js';
import { tableOptions } from '../../cli/list-flags.js';
import { TIME_HELP } from '../../cli/options.js';

export const PRICES_FLAG_TABLE = defineFlags({
  increment: {
    kind: 'text',
    flag: '--increment <step>',
    help: 'time step: ONE_MINUTE … FOUR_WEEKS (default ONE_HOUR)',
  },
  maxPoints: {
    kind: 'text',
    flag: '--max-points <n>',
    help: 'at most this many points, step inferred (instead of --increment)',
  },
  from: { kind: 'text', flag: '--from <time>', help: `range start: ${TIME_HELP} (default: 100 steps ago)` },
  to: { kind: 'text', flag: '--to <time>', help: `range end: ${TIME_HELP} (default: now)` },
  limit: { kind: 'text', flag: '--limit <n>', help: 'points per page (1 to 1000)' },
  offset: { kind: 'text', flag: '--offset <n>', help: 'points to skip' },
  all: { kind: 'switch', flag: '--all', help: 'every page' },
});

/** prices's flags on `cmd`: the table flags (--columns, --wide), then its own. */
export function declarePrices(cmd: Command): Command {
  return PRICES_FLAG_TABLE.declare(tableOptions(cmd));
}
