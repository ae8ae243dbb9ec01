// coinop statement's flags, declared once: index.ts declares them, options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';
import { TIME_HELP } from '../../cli/options.js';

export const STATEMENT_FLAG_TABLE = defineFlags({
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "the service's profile (default: the coinop context's)",
  },
  month: { kind: 'text', flag: '--month <yyyy-mm>', help: 'the calendar month, in UTC, such as 2026-11' },
  from: { kind: 'text', flag: '--from <time>', help: `the period's start, inclusive: ${TIME_HELP}` },
  to: { kind: 'text', flag: '--to <time>', help: "the period's end, exclusive (default: now)" },
});
