// coinop withdraw's flags, declared once: index.ts declares them, options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';
import { waitTimeoutSpec } from '../../cli/options.js';
import { WITHDRAWAL_FIELD_SPECS as W } from '../../cli/withdrawal-specs.js';

export const WITHDRAW_FLAG_TABLE = defineFlags({
  asset: W.asset,
  network: W.network,
  address: W.address,
  to: {
    kind: 'text',
    flag: '--to <nickname>',
    help: 'the destination from the address book, by nickname: its address and network',
  },
  amount: W.amount,
  total: W.total,
  feeId: W.feeId,
  quote: { kind: 'switch', flag: '--quote', help: 'get a guaranteed fee quote first and use it' },
  refId: W.refId,
  profileId: W.profileId,
  identityId: W.identityId,
  accountId: W.accountId,
  balanceAsset: W.balanceAsset,
  memo: W.memo,
  meta: W.meta,
  beneficiary: W.beneficiary,
  beneficiaryFirstName: W.beneficiaryFirstName,
  beneficiaryLastName: W.beneficiaryLastName,
  beneficiaryInstitution: W.beneficiaryInstitution,
  dryRun: { kind: 'switch', flag: '--dry-run', help: 'validate, quote and show what would be sent; send nothing' },
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask for confirmation' },
  wait: { kind: 'switch', flag: '--wait', help: 'follow the transfer until COMPLETED or FAILED (exit 6 on FAILED)' },
  waitApproval: {
    kind: 'switch',
    flag: '--wait-approval',
    help: 'at a coinop gateway that holds it for approvals: wait until it is approved and sent (or rejected, exit 8)',
  },
  waitTimeout: waitTimeoutSpec(),
  save: {
    kind: 'text',
    flag: '--save <file>',
    help: 'with --dry-run: save the request to FILE for approval (coinop approve FILE)',
  },
  request: {
    kind: 'text',
    flag: '--request <file>',
    help: 'send the withdrawal saved by --dry-run --save FILE (approvals next to it count)',
  },
  approvals: {
    kind: 'list',
    flag: '--approvals <file>',
    help: "an approval file (coinop approve) for the context's policy (repeatable)",
  },
});

/** The flags that give a value of the request (a field's, or --to's): none of them goes with --request. */
export const WITHDRAW_VALUE_KEYS = WITHDRAW_FLAG_TABLE.keys.filter(
  (k) => k === 'to' || 'field' in WITHDRAW_FLAG_TABLE.specs[k],
);
