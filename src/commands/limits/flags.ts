// coinop limits: its flags, declared once: index.ts declares them, options.ts reads their typed values.
import type { Command } from 'commander';
import { TRANSFER_LIMIT_TYPES } from '../../contract/enums.js';
import { defineFlags } from '../../cli/flags.js';
import { tableOptions } from '../../cli/list-flags.js';

export const LIMITS_FLAG_TABLE = defineFlags({
  type: {
    kind: 'choice',
    flag: '--type <type>',
    help: 'transfer type the limits apply to',
    choices: TRANSFER_LIMIT_TYPES,
    default: 'CRYPTO_WITHDRAWAL',
  },
});

/** limits's flags on `cmd`: the table flags (--columns, --wide), then its own. */
export function declareLimits(cmd: Command): Command {
  return LIMITS_FLAG_TABLE.declare(tableOptions(cmd));
}
