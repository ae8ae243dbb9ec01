// The flags of a crypto withdrawal request's fields, one declaration for the commands that take them (withdraw, fee
// quote): apart from src/cli/withdrawal-flags.ts, so a command's declarations load without the withdrawal's checks.
import { REF_ID_SPEC } from './flags.js';
import type { FlagSpecs } from './flags.js';

/**
 * The flags of a crypto withdrawal request's fields, as withdraw declares them (fee quote and the batch say some of
 * them in their own words, over these): each names the request field it gives.
 */
export const WITHDRAWAL_FIELD_SPECS = {
  asset: { kind: 'text', flag: '--asset <asset>', help: 'asset to withdraw, such as BTC', field: 'asset' },
  network: {
    kind: 'text',
    flag: '--network <network>',
    help: 'crypto network (crypto_network), such as BITCOIN',
    field: 'crypto_network',
  },
  address: { kind: 'text', flag: '--address <address>', help: 'destination address', field: 'destination_address' },
  amount: { kind: 'text', flag: '--amount <amount>', help: 'amount to send (the fee comes on top)', field: 'amount' },
  total: {
    kind: 'text',
    flag: '--total <total>',
    help: 'total to debit, fee included (instead of --amount)',
    field: 'total',
  },
  feeId: {
    kind: 'text',
    flag: '--fee-id <id>',
    help: 'use a guaranteed fee quote (from coinop fee quote)',
    field: 'fee_id',
  },
  refId: REF_ID_SPEC,
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "the service's profile to debit (default: the coinop context's)",
    field: 'profile_id',
  },
  identityId: {
    kind: 'text',
    flag: '--identity-id <id>',
    help: 'identity making the withdrawal',
    field: 'identity_id',
  },
  accountId: { kind: 'text', flag: '--account-id <id>', help: 'account of the identity', field: 'account_id' },
  balanceAsset: {
    kind: 'text',
    flag: '--balance-asset <asset>',
    help: 'asset whose balance to debit (USD for stablecoins)',
    field: 'balance_asset',
  },
  memo: { kind: 'text', flag: '--memo <text>', help: 'memo sent with the withdrawal', field: 'memo' },
  meta: {
    kind: 'list',
    flag: '--meta <key=value>',
    help: 'metadata pair (repeatable, at most 6)',
    field: 'metadata',
  },
  beneficiary: {
    kind: 'text',
    flag: '--beneficiary <json>',
    help: 'beneficiary (Travel Rule) as a JSON object, {"person_details":{...}} or {"institution_details":{...}}',
    field: 'beneficiary',
  },
  beneficiaryFirstName: {
    kind: 'text',
    flag: '--beneficiary-first-name <name>',
    help: 'Travel Rule: the beneficiary is a person: the first name (with --beneficiary-last-name)',
    field: 'beneficiary.person_details.first_name',
  },
  beneficiaryLastName: {
    kind: 'text',
    flag: '--beneficiary-last-name <name>',
    help: "Travel Rule: the beneficiary person's last name",
    field: 'beneficiary.person_details.last_name',
  },
  beneficiaryInstitution: {
    kind: 'text',
    flag: '--beneficiary-institution <name>',
    help: 'Travel Rule: the beneficiary is an institution: its name',
    field: 'beneficiary.institution_details.name',
  },
} as const satisfies FlagSpecs;

/**
 * The flags of a single money-moving request around its fields (withdraw fiat, convert): approval files, no
 * confirmation, and waiting at a coinop gateway for its approvers. Each command says its own --dry-run and --wait.
 */
export const SEND_SPECS = {
  approvals: {
    kind: 'list',
    flag: '--approvals <file>',
    help: "an approval file (coinop approve) for the context's policy (repeatable)",
  },
  yes: {
    kind: 'switch',
    flag: '-y, --yes',
    help: 'do not ask for confirmation (nor for the amount typed out in production)',
  },
  waitApproval: {
    kind: 'switch',
    flag: '--wait-approval',
    help: 'at a coinop gateway that holds it for approvals: wait until it is approved and sent (or rejected, exit 8)',
  },
} as const satisfies FlagSpecs;
