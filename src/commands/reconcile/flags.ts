// coinop reconcile: its flags, declared once: index.ts declares them, options.ts reads their typed values.
import type { Command } from 'commander';
import { defineFlags } from '../../cli/flags.js';
import { PERIOD_SPECS, tableOptions } from '../../cli/list-flags.js';

export const RECONCILE_FLAG_TABLE = defineFlags({
  from: { ...PERIOD_SPECS.from, help: `the period's start: intents recorded and transfers created at or after it` },
  to: { ...PERIOD_SPECS.to, help: 'its end, strictly before (default now)' },
  profileId: {
    kind: 'list',
    split: true,
    flag: '--profile-id <id>',
    help: 'only these service profiles, by id, id prefix or nickname (repeatable or comma separated; default every one)',
    field: 'profile_ids',
  },
  journals: {
    kind: 'text',
    flag: '--journals <dir>',
    help: 'the folder of batch journals to read (default <data dir>/batches)',
  },
  gateway: {
    kind: 'switch',
    flag: '--gateway',
    help: "the context must be a coinop gateway: its audit chain's requests are intents too (read whenever it is one)",
  },
});

/** reconcile's flags on `cmd`: its own, then the table flags (--columns, --wide) of its lines. */
export function declareReconcile(cmd: Command): Command {
  return tableOptions(RECONCILE_FLAG_TABLE.declare(cmd));
}
