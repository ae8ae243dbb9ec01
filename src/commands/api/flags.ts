// coinop api's flags, declared once: index.ts declares them, options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';

export const API_FLAG_TABLE = defineFlags({
  field: {
    kind: 'list',
    flag: '-f, --field <key=value>',
    help: 'a query parameter (GET) or body field (others); repeatable; dots nest (metadata.note=x)',
  },
  input: { kind: 'text', flag: '--input <file>', help: 'the JSON body from a file (- for stdin)' },
  paginate: { kind: 'switch', flag: '--paginate', help: 'follow next_page_cursor and print every item' },
  include: { kind: 'switch', flag: '-i, --include', help: 'print the status line and headers to stderr' },
  yes: {
    kind: 'switch',
    flag: '-y, --yes',
    help: 'send a money-moving request in production without the typed confirmation (it still passes the policy)',
  },
});
