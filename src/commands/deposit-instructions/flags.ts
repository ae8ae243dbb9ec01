// coinop deposit-instructions create and list: their flags, declared once: index.ts declares them, options.ts reads
// their typed values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { FIAT_NETWORKS, FIAT_ROUTING_NUMBER_TYPES } from '../../contract/enums.js';
import { defineFlags, REF_ID_SPEC } from '../../cli/flags.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';

export const INSTRUCTIONS_CREATE_FLAG_TABLE = defineFlags({
  network: {
    kind: 'choice',
    flag: '--network <network>',
    help: 'fiat network (asked for on a terminal)',
    choices: FIAT_NETWORKS,
    field: 'fiat_network',
  },
  routingType: {
    kind: 'choice',
    flag: '--routing-type <type>',
    help: 'WIRE: routing number type',
    choices: FIAT_ROUTING_NUMBER_TYPES,
    field: 'routing_number_type',
  },
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "the service's profile deposits credit (default: the coinop context's)",
    field: 'profile_id',
  },
  identityId: {
    kind: 'text',
    flag: '--identity-id <id>',
    help: 'the identity making the deposits',
    field: 'identity_id',
  },
  accountId: { kind: 'text', flag: '--account-id <id>', help: 'the account of that identity', field: 'account_id' },
  refId: REF_ID_SPEC,
  meta: { kind: 'list', flag: '--meta <key=value>', help: 'metadata pair (repeatable, at most 6)', field: 'metadata' },
});

export const INSTRUCTIONS_LIST_FLAG_TABLE = defineFlags({
  id: {
    kind: 'list',
    split: true,
    flag: '--id <id>',
    help: 'ids (repeatable or comma separated, at most 100)',
    field: 'ids',
  },
  refId: { kind: 'list', split: true, flag: '--ref-id <id>', help: 'client-specified ids', field: 'ref_ids' },
});

/** deposit-instructions list's flags on `cmd`: its own, then the shared list and table flags. */
export function declareInstructionsList(cmd: Command): Command {
  return tableOptions(listOptions(INSTRUCTIONS_LIST_FLAG_TABLE.declare(cmd)));
}
