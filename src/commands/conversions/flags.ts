// coinop convert and coinop conversions list|cancel: their flags, declared once: index.ts declares them, options.ts
// reads their typed values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { defineFlags, REF_ID_SPEC } from '../../cli/flags.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';
import { waitTimeoutSpec } from '../../cli/options.js';
import { SEND_SPECS, WITHDRAWAL_FIELD_SPECS as W } from '../../cli/withdrawal-specs.js';
import { STABLECOINS } from '../../contract/catalogue.js';

export const CONVERT_FLAG_TABLE = defineFlags({
  amount: {
    kind: 'text',
    flag: '--amount <amount>',
    help: 'amount to convert, one to one, at most 2 decimals (asked for on a terminal)',
    field: 'amount',
  },
  from: {
    kind: 'text',
    flag: '--from <asset>',
    help: `asset to convert from: USD, or a stablecoin (${STABLECOINS.join(', ')}) to convert back to USD`,
    field: 'source_asset',
  },
  to: {
    kind: 'text',
    flag: '--to <asset>',
    help: `asset to convert to: a stablecoin (${STABLECOINS.join(', ')}) from USD, or USD (picked on a terminal)`,
    field: 'target_asset',
  },
  refId: REF_ID_SPEC,
  profileId: { ...W.profileId, help: "the service's profile to convert in (default: the coinop context's)" },
  recipientProfileId: {
    kind: 'text',
    flag: '--recipient-profile-id <id>',
    help: 'directed settlement: the profile credited with the target asset (default: the same profile)',
    field: 'recipient_profile_id',
  },
  identityId: { ...W.identityId, help: 'identity requesting the conversion' },
  accountId: W.accountId,
  meta: W.meta,
  approvals: SEND_SPECS.approvals,
  dryRun: {
    kind: 'switch',
    flag: '--dry-run',
    help: 'validate and show what would be sent (the balances before and after, the policy); send nothing',
  },
  yes: SEND_SPECS.yes,
  wait: {
    kind: 'switch',
    flag: '--wait',
    help: 'follow the conversion until SETTLED, CANCELLED or FAILED (exit 6 on FAILED)',
  },
  waitTimeout: waitTimeoutSpec(),
  waitApproval: SEND_SPECS.waitApproval,
});

export const CONVERSION_LIST_FLAG_TABLE = defineFlags({
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "the profile's conversions only",
    field: 'profile_id',
  },
  refId: { kind: 'text', flag: '--ref-id <id>', help: 'the conversion made with this ref_id', field: 'ref_id' },
});

/** conversions list's flags on `cmd`: its own, then the shared list and table flags. */
export function declareConversionsList(cmd: Command): Command {
  return tableOptions(listOptions(CONVERSION_LIST_FLAG_TABLE.declare(cmd)));
}

export const CONVERSION_CANCEL_FLAG_TABLE = defineFlags({
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask for confirmation' },
});
