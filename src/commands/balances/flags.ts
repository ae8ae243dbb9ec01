// coinop balances' flags, declared once: index.ts declares them, options.ts reads their typed values.
import type { Command } from 'commander';
import { defineFlags } from '../../cli/flags.js';
import { tableOptions } from '../../cli/list-flags.js';

export const BALANCES_FLAG_TABLE = defineFlags({
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "the service's profile (default: the coinop context's)",
    field: 'profile_id',
  },
  allProfiles: { kind: 'switch', flag: '--all-profiles', help: 'every service profile, in one table' },
  includeZero: { kind: 'switch', flag: '--include-zero', help: 'also list assets with nothing in them' },
});

/** balances' flags on `cmd`: the table flags (--columns, --wide), then its own. */
export function declareBalances(cmd: Command): Command {
  return BALANCES_FLAG_TABLE.declare(tableOptions(cmd));
}
