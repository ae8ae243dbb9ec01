// coinop audit list, verify and export: their flags, declared once: index.ts declares them, options.ts reads their
// typed values.
import { AUDIT_KINDS, AUDIT_RESULTS } from '../../audit/entry.js';
import { defineFlags } from '../../cli/flags.js';
import { TABLE_FLAG_TABLE } from '../../cli/list-flags.js';

const TIME = 'RFC 3339, a date, now, or back from now such as 24h or 7d';

const FROM = { kind: 'text', flag: '--from <time>', help: `entries at or after: ${TIME}` } as const;
const TO = { kind: 'text', flag: '--to <time>', help: 'entries before this time' } as const;
const GATEWAY = {
  kind: 'switch',
  flag: '--gateway',
  help: "the current context's coinop gateway's chain instead of this machine's log",
} as const;

export const AUDIT_LIST_FLAG_TABLE = defineFlags({
  kind: {
    kind: 'list',
    split: true,
    flag: '--kind <kind>',
    help: `kinds (repeatable or comma separated): ${AUDIT_KINDS.join(', ')}`,
  },
  outcome: {
    kind: 'list',
    split: true,
    flag: '--outcome <result>',
    help: `results (repeatable): ${AUDIT_RESULTS.join(', ')}`,
  },
  from: FROM,
  to: TO,
  refId: { kind: 'list', split: true, flag: '--ref-id <id>', help: 'ref_ids (repeatable or comma separated)' },
  asset: { kind: 'list', split: true, flag: '--asset <asset>', help: 'assets (repeatable or comma separated)' },
  limit: {
    kind: 'text',
    flag: '--limit <n>',
    help: 'the latest this many matching entries (1 to 100000, default 100)',
  },
  all: { kind: 'switch', flag: '--all', help: 'every matching entry, streamed' },
  gateway: GATEWAY,
  ...TABLE_FLAG_TABLE.specs,
});

export const AUDIT_VERIFY_FLAG_TABLE = defineFlags({
  head: {
    kind: 'text',
    flag: '--head <seq:sha256>',
    help: 'also check the log still holds this head, noted from an earlier verify',
  },
  gateway: GATEWAY,
});

export const AUDIT_EXPORT_FLAG_TABLE = defineFlags({ from: FROM, to: TO, gateway: GATEWAY });
