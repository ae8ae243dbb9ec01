// coinop gateway and its subcommands: their flags, declared once: index.ts declares them, options.ts reads their typed
// values.
import { defineFlags } from '../../cli/flags.js';
import { ROLES } from '../../gateway/operators.js';

const STORE = {
  kind: 'text',
  flag: '--store <url>',
  help: 'the store: a postgres:// URL, or a SQLite file (default: <data dir>/gateway/gateway.db)',
} as const;

const APPROVAL_TTL = {
  kind: 'default',
  flag: '--approval-ttl <minutes>',
  help: 'how long a held request waits for its approvals',
  default: '1440',
} as const;

/** --store: every subcommand that opens the store. */
export const STORE_FLAG_TABLE = defineFlags({ store: STORE });

export const GATEWAY_START_FLAG_TABLE = defineFlags({
  upstream: {
    kind: 'text',
    flag: '--upstream <context>',
    help: 'the context whose credentials the gateway holds (any environment)',
  },
  store: STORE,
  host: { kind: 'default', flag: '--host <host>', help: 'address to listen on', default: '127.0.0.1' },
  port: { kind: 'default', flag: '--port <port>', help: 'port (0 = any free port)', default: '7358' },
  tlsCert: { kind: 'text', flag: '--tls-cert <file>', help: 'serve https with this certificate (PEM)' },
  tlsKey: { kind: 'text', flag: '--tls-key <file>', help: "the certificate's private key (PEM)" },
  rate: {
    kind: 'default',
    flag: '--rate <n>',
    help: "each operator's requests per second (a burst of twice as many)",
    default: '50',
  },
  approvalTtl: APPROVAL_TTL,
});

/** gateway policy set: the store, and how long a change the policy holds for approvals waits for them. */
export const POLICY_SET_FLAG_TABLE = defineFlags({
  store: STORE,
  gateway: {
    kind: 'switch',
    flag: '--gateway',
    help: "through the current context's gateway, as its admin operator, instead of opening the store",
  },
  approvalTtl: {
    ...APPROVAL_TTL,
    help: 'how long a change held for approvals (the policy in force has policy_changes) waits for them',
  },
});

export const OPERATORS_ADD_FLAG_TABLE = defineFlags({
  role: {
    kind: 'choice',
    flag: '--role <role>',
    help: 'viewer reads; initiator sends; approver approves; admin all',
    choices: ROLES,
  },
  store: STORE,
});
