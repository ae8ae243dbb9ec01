// coinop local start and deposit: their flags, declared once: index.ts declares them, options.ts reads their typed
// values.
import { defineFlags } from '../../cli/flags.js';

export const LOCAL_START_FLAG_TABLE = defineFlags({
  port: { kind: 'default', flag: '--port <port>', help: 'port (0 = any free port)', default: '7357' },
  host: { kind: 'default', flag: '--host <host>', help: 'address to listen on', default: '127.0.0.1' },
  db: { kind: 'text', flag: '--db <file>', help: 'database file (default: in the XDG data directory)' },
  memory: { kind: 'switch', flag: '--memory', help: 'keep state in memory only' },
  seed: { kind: 'text', flag: '--seed <n>', help: 'seed of prices and faults' },
  // A lone --no- flag: commander's value is true unless it is given, so the switch reads as "rate limits on".
  rateLimits: {
    kind: 'switch',
    flag: '--no-rate-limits',
    help: "answer without the hosted service's rate limits (for load tests)",
  },
});

export const LOCAL_DEPOSIT_FLAG_TABLE = defineFlags({
  address: { kind: 'text', flag: '--address <address>', help: 'the deposit address the money arrives at' },
  refId: { kind: 'text', flag: '--ref-id <ref_id>', help: 'or the ref_id of that deposit address' },
  amount: { kind: 'text', flag: '--amount <amount>', help: 'amount of the asset' },
  asset: { kind: 'text', flag: '--asset <asset>', help: "asset (default: the network's own coin, such as BTC or ETH)" },
  needsInfo: {
    kind: 'switch',
    flag: '--needs-info',
    help: 'Travel Rule: held for its originator (TRAVEL_RULE_INFO_REQUESTED) until coinop deposits update or reject',
  },
});
