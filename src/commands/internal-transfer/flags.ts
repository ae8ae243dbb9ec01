// coinop transfer internal's and coinop transfer paxos's flags, declared once: index.ts declares them, options.ts
// reads their typed values, and the request field each gives names it in messages. The two requests have the same
// fields (the OpenAPI's CreateInternalTransferRequest and CreatePaxosTransferRequest); only what --to-profile-id
// names differs.
import { ASSETS } from '../../contract/catalogue.js';
import { defineFlags, REF_ID_SPEC } from '../../cli/flags.js';
import { waitTimeoutSpec } from '../../cli/options.js';

/** The flags of a transfer between profiles; `to`: the help of --to-profile-id, what the profile credited is. */
const transferFlags = (to: string) =>
  defineFlags({
    fromProfileId: {
      kind: 'text',
      flag: '--from-profile-id <id>',
      help: "the service's profile to debit (default: the coinop context's)",
      field: 'from_profile_id',
    },
    toProfileId: {
      kind: 'text',
      flag: '--to-profile-id <id>',
      help: to,
      field: 'to_profile_id',
    },
    asset: {
      kind: 'text',
      flag: '--asset <asset>',
      help: 'asset to move, such as BTC or USD',
      field: 'asset',
      values: Object.keys(ASSETS),
    },
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

export const INTERNAL_TRANSFER_FLAG_TABLE = transferFlags("the service's profile to credit");
/** A transfer to another customer: the recipient is named by its profile id, the OpenAPI's `to_profile_id`. */
export const PAXOS_TRANSFER_FLAG_TABLE = transferFlags(
  "the recipient's profile id: a profile of another customer of the service (the OpenAPI's to_profile_id)",
);
