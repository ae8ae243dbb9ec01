// coinop transfer internal's flags, declared once: index.ts declares them, options.ts reads their typed values, and
// the request field each gives names it in messages.
import { defineFlags, REF_ID_SPEC } from '../../cli/flags.js';
import { waitTimeoutSpec } from '../../cli/options.js';

export const INTERNAL_TRANSFER_FLAG_TABLE = defineFlags({
  fromProfileId: {
    kind: 'text',
    flag: '--from-profile-id <id>',
    help: "the service's profile to debit (default: the coinop context's)",
    field: 'from_profile_id',
  },
  toProfileId: {
    kind: 'text',
    flag: '--to-profile-id <id>',
    help: "the service's profile to credit",
    field: 'to_profile_id',
  },
  asset: { kind: 'text', flag: '--asset <asset>', help: 'asset to move, such as BTC or USD', field: 'asset' },
  amount: { kind: 'text', flag: '--amount <amount>', help: 'amount to move (no fee)', field: 'amount' },
  refId: REF_ID_SPEC,
  meta: {
    kind: 'list',
    flag: '--meta <key=value>',
    help: "metadata pair of the sender's side (repeatable, at most 6)",
    field: 'metadata',
  },
  recipientMeta: {
    kind: 'list',
    flag: '--recipient-meta <key=value>',
    help: "metadata pair of the recipient's side (repeatable, at most 6)",
    field: 'recipient_metadata',
  },
  dryRun: { kind: 'switch', flag: '--dry-run', help: 'validate and show what would be sent; send nothing' },
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask for confirmation' },
  wait: { kind: 'switch', flag: '--wait', help: 'follow the transfer until COMPLETED or FAILED (exit 6 on FAILED)' },
  waitTimeout: waitTimeoutSpec(),
});
