// coinop withdraw fiat's flags, declared once: index.ts declares them, options.ts reads their typed values, and the
// request field each gives names it in messages.
import { defineFlags } from '../../../cli/flags.js';
import { waitTimeoutSpec } from '../../../cli/options.js';
import { SAVE_SPEC, SEND_SPECS, WITHDRAWAL_FIELD_SPECS as W } from '../../../cli/withdrawal-specs.js';

export const FIAT_WITHDRAW_FLAG_TABLE = defineFlags({
  fiatAccountId: {
    kind: 'text',
    flag: '--fiat-account-id <id>',
    help: 'the saved fiat account to send to (coinop fiat-accounts list; picked on a terminal)',
    field: 'fiat_account_id',
  },
  amount: { kind: 'text', flag: '--amount <amount>', help: 'amount to send, at most 2 decimals', field: 'amount' },
  total: {
    kind: 'text',
    flag: '--total <total>',
    help: 'total to debit, fees included (instead of --amount)',
    field: 'total',
  },
  asset: {
    kind: 'default',
    flag: '--asset <asset>',
    help: 'asset to withdraw (the service takes USD)',
    default: 'USD',
    field: 'asset',
    values: ['USD'],
  },
  refId: W.refId,
  profileId: W.profileId,
  identityId: W.identityId,
  accountId: W.accountId,
  memo: {
    kind: 'text',
    flag: '--memo <text>',
    help: 'memo sent with the wire (at most 100 characters for a wire)',
    field: 'memo',
  },
  meta: W.meta,
  save: SAVE_SPEC,
  request: {
    kind: 'text',
    flag: '--request <file>',
    help: 'send the fiat withdrawal saved by --dry-run --save FILE (approvals next to it count)',
  },
  approvals: SEND_SPECS.approvals,
  dryRun: {
    kind: 'switch',
    flag: '--dry-run',
    help: 'validate and show what would be sent (the account, the balance, the limits, the policy); send nothing',
  },
  yes: SEND_SPECS.yes,
  wait: { kind: 'switch', flag: '--wait', help: 'follow the transfer until COMPLETED or FAILED (exit 6 on FAILED)' },
  waitTimeout: waitTimeoutSpec(),
  waitApproval: SEND_SPECS.waitApproval,
});

/** The flags that give a value of the request: none of them goes with --request. */
export const FIAT_WITHDRAW_VALUE_KEYS = FIAT_WITHDRAW_FLAG_TABLE.keys.filter(
  (k) => k !== 'asset' && 'field' in FIAT_WITHDRAW_FLAG_TABLE.specs[k],
);
