// coinop mcp: its flags, declared once: index.ts declares them, options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';

export const MCP_FLAG_TABLE = defineFlags({
  allowWrites: {
    kind: 'switch',
    flag: '--allow-writes',
    help: 'let a tool call with confirm: true send (withdraw, internal_transfer, deposit_address_create, withdraw_batch)',
  },
  allowProduction: {
    kind: 'switch',
    flag: '--allow-production',
    help: 'let writes through in production too (with --allow-writes)',
  },
});
