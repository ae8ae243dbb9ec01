// coinop transfers list, get and watch: their flags, declared once: index.ts declares them, options.ts reads their
// typed values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import {
  TRANSFER_ORDER_BY,
  TRANSFER_SECONDARY_STATUSES,
  TRANSFER_STATUSES,
  TRANSFER_TYPE_FILTERS,
} from '../../contract/enums.js';
import { defineFlags, pageSpecs, timeFilterSpecs } from '../../cli/flags.js';
import { PERIOD_SPECS, tableOptions } from '../../cli/list-flags.js';

/** Said in the help of the filters the hosted ListTransfers lacks: coinop applies them to each page. */
const CLIENT_SIDE = 'filtered by coinop as pages arrive';
import { TIME_HELP, waitTimeoutSpec } from '../../cli/options.js';

const timeHelp = (key: string, op: string) => (op === 'lt' ? `${key}: ${TIME_HELP}` : key);

export const TRANSFERS_LIST_FLAG_TABLE = defineFlags({
  id: {
    kind: 'list',
    split: true,
    flag: '--id <id>',
    help: 'transfer ids (repeatable or comma separated)',
    field: 'ids',
  },
  refId: { kind: 'list', split: true, flag: '--ref-id <id>', help: 'client-specified ids', field: 'ref_ids' },
  profileId: {
    kind: 'list',
    split: true,
    flag: '--profile-id <id>',
    help: 'service profiles: id, id prefix or nickname (repeatable or comma separated)',
    field: 'profile_ids',
  },
  identityId: { kind: 'list', split: true, flag: '--identity-id <id>', help: 'identity ids', field: 'identity_ids' },
  accountId: { kind: 'list', split: true, flag: '--account-id <id>', help: 'account ids', field: 'account_ids' },
  type: {
    kind: 'list',
    split: true,
    flag: '--type <type>',
    help: 'transfer types, such as CRYPTO_WITHDRAWAL',
    field: 'type',
    values: TRANSFER_TYPE_FILTERS,
  },
  status: {
    kind: 'list',
    split: true,
    flag: '--status <status>',
    help: 'PENDING, COMPLETED or FAILED',
    field: 'statuses',
    values: TRANSFER_STATUSES,
  },
  secondaryStatus: {
    kind: 'list',
    split: true,
    flag: '--secondary-status <name>',
    help: 'secondary statuses, such as TRAVEL_RULE_INFO_REQUESTED',
    field: 'secondary_statuses',
    values: TRANSFER_SECONDARY_STATUSES,
  },
  txHash: {
    kind: 'list',
    split: true,
    flag: '--tx-hash <hash>',
    help: 'on-chain transaction hashes',
    field: 'crypto_tx_hashes',
  },
  groupId: { kind: 'list', split: true, flag: '--group-id <id>', help: 'group ids', field: 'group_ids' },
  asset: {
    kind: 'list',
    split: true,
    flag: '--asset <asset>',
    help: `assets, such as BTC (${CLIENT_SIDE})`,
  },
  network: {
    kind: 'list',
    split: true,
    flag: '--network <network>',
    help: `crypto networks, such as ETHEREUM (${CLIENT_SIDE})`,
  },
  destination: {
    kind: 'list',
    split: true,
    flag: '--destination <address>',
    help: `destination addresses (${CLIENT_SIDE})`,
  },
  metadata: {
    kind: 'list',
    flag: '--metadata <key=value>',
    help: `metadata holding KEY=VALUE, or KEY with any value; repeatable, all must hold (${CLIENT_SIDE})`,
  },
  ...PERIOD_SPECS,
  ...timeFilterSpecs('created', 'created_at', timeHelp),
  ...timeFilterSpecs('updated', 'updated_at', timeHelp),
  ...pageSpecs(TRANSFER_ORDER_BY),
  cursor: {
    kind: 'text',
    flag: '--cursor <cursor>',
    help: 'start from this page cursor (the footer of a page shows the next one)',
    field: 'page_cursor',
  },
  all: { kind: 'switch', flag: '--all', help: 'every page' },
});

/** transfers list's flags on `cmd`: its own, then the table flags (--columns, --wide). */
export function declareTransfersList(cmd: Command): Command {
  return tableOptions(TRANSFERS_LIST_FLAG_TABLE.declare(cmd));
}

export const TRANSFER_GET_FLAG_TABLE = defineFlags({
  refId: { kind: 'text', flag: '--ref-id <id>', help: 'find it by its ref_id instead' },
});

export const TRANSFERS_WATCH_FLAG_TABLE = defineFlags({
  waitTimeout: waitTimeoutSpec(),
  // Its name before it became withdraw's: still taken, with a note.
  timeout: { kind: 'text', flag: '--timeout <seconds>', help: '', hidden: true },
});

/** transfers watch's flags on `cmd`: its own, then the table flags (--columns, --wide). */
export function declareTransfersWatch(cmd: Command): Command {
  return tableOptions(TRANSFERS_WATCH_FLAG_TABLE.declare(cmd));
}
