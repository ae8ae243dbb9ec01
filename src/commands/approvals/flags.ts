// coinop approvals list, approve and reject: their flags, declared once: index.ts declares them and reads their typed
// values.
import { defineFlags } from '../../cli/flags.js';
import { HELD_STATUSES } from '../../contract/gateway.js';

export const APPROVALS_LIST_FLAG_TABLE = defineFlags({
  status: { kind: 'choice', flag: '--status <status>', help: 'only those in this status', choices: HELD_STATUSES },
});

export const APPROVALS_APPROVE_FLAG_TABLE = defineFlags({
  yes: { kind: 'switch', flag: '--yes', help: 'sign without asking (the content is still checked)' },
});

export const APPROVALS_REJECT_FLAG_TABLE = defineFlags({
  reason: { kind: 'text', flag: '--reason <text>', help: 'why (kept with it and in the audit chain)' },
});
