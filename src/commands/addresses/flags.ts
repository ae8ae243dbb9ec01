// coinop addresses list and create: their flags, declared once: index.ts declares them, options.ts reads their typed
// values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { CONVERSION_TARGET_ASSETS, DEPOSIT_ADDRESS_ORDER_BY } from '../../contract/enums.js';
import { defineFlags, pageSpecs, REF_ID_SPEC } from '../../cli/flags.js';
import { tableOptions } from '../../cli/list-flags.js';
import { TIME_HELP } from '../../cli/options.js';

export const ADDRESSES_LIST_FLAG_TABLE = defineFlags({
  profileId: {
    kind: 'list',
    split: true,
    flag: '--profile-id <id>',
    help: 'service profiles: id, id prefix or nickname (repeatable or comma separated, at most 100)',
    field: 'profile_ids',
  },
  identityId: { kind: 'list', split: true, flag: '--identity-id <id>', help: 'identity ids', field: 'identity_ids' },
  accountId: { kind: 'list', split: true, flag: '--account-id <id>', help: 'account ids', field: 'account_ids' },
  id: { kind: 'list', split: true, flag: '--id <id>', help: 'deposit address ids', field: 'ids' },
  refId: { kind: 'list', split: true, flag: '--ref-id <id>', help: 'client-specified ids', field: 'ref_ids' },
  network: {
    kind: 'list',
    split: true,
    flag: '--network <network>',
    help: 'networks, such as BITCOIN',
    field: 'networks',
  },
  createdBefore: {
    kind: 'text',
    flag: '--created-before <time>',
    help: `created strictly before (created_at.lt): ${TIME_HELP}`,
    field: 'created_at.lt',
  },
  createdUntil: {
    kind: 'text',
    flag: '--created-until <time>',
    help: 'created at or before (created_at.lte)',
    field: 'created_at.lte',
  },
  createdAt: {
    kind: 'text',
    flag: '--created-at <time>',
    help: 'created exactly at (created_at.eq)',
    field: 'created_at.eq',
  },
  createdFrom: {
    kind: 'text',
    flag: '--created-from <time>',
    help: 'created at or after (created_at.gte)',
    field: 'created_at.gte',
  },
  createdAfter: {
    kind: 'text',
    flag: '--created-after <time>',
    help: 'created strictly after (created_at.gt)',
    field: 'created_at.gt',
  },
  ...pageSpecs(DEPOSIT_ADDRESS_ORDER_BY),
  cursor: {
    kind: 'text',
    flag: '--cursor <cursor>',
    help: 'start from this page cursor (next_page_cursor)',
    field: 'page_cursor',
  },
  all: { kind: 'switch', flag: '--all', help: 'every page' },
});

/** addresses list's flags on `cmd`: the table flags (--columns, --wide), then its own. */
export function declareAddressesList(cmd: Command): Command {
  return ADDRESSES_LIST_FLAG_TABLE.declare(tableOptions(cmd));
}

export const ADDRESS_CREATE_FLAG_TABLE = defineFlags({
  network: { kind: 'text', flag: '--network <network>', help: 'crypto network', field: 'crypto_network' },
  profileId: {
    kind: 'text',
    flag: '--profile-id <id>',
    help: "the service's profile (default: the coinop context's)",
    field: 'profile_id',
  },
  identityId: { kind: 'text', flag: '--identity-id <id>', help: 'identity', field: 'identity_id' },
  accountId: { kind: 'text', flag: '--account-id <id>', help: 'account', field: 'account_id' },
  refId: REF_ID_SPEC,
  conversion: {
    kind: 'choice',
    flag: '--conversion <asset>',
    help: 'convert deposits to',
    choices: CONVERSION_TARGET_ASSETS,
    field: 'conversion_target_asset',
  },
  meta: { kind: 'list', flag: '--meta <key=value>', help: 'metadata pair (repeatable, at most 6)', field: 'metadata' },
});
