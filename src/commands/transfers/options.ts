// coinop transfers list, get and watch: their flags, checked, as typed options objects (declared in index.ts).
import {
  operations,
  TRANSFER_SECONDARY_STATUSES,
  TRANSFER_STATUSES,
  TRANSFER_TYPE_FILTERS,
} from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { readTableView } from '../../cli/list-flags.js';
import {
  choiceList,
  readFlags,
  timeFilterFlags,
  timeFilters,
  type RawFlags,
  waitTimeoutFlag,
} from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { TRANSFER_LIST_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

/** The flag (or argument) of each request field, for messages. */
export const FLAGS: FlagNames = {
  ids: '--id',
  ref_ids: '--ref-id',
  profile_ids: '--profile-id',
  identity_ids: '--identity-id',
  account_ids: '--account-id',
  type: '--type',
  statuses: '--status',
  secondary_statuses: '--secondary-status',
  crypto_tx_hashes: '--tx-hash',
  group_ids: '--group-id',
  limit: '--limit',
  order: '--order',
  order_by: '--order-by',
  page_cursor: '--cursor',
  id: 'ID',
  ...timeFilterFlags('created', 'created_at'),
  ...timeFilterFlags('updated', 'updated_at'),
};

export interface TransfersListOptions {
  /** The listTransfers query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseTransfersListOptions(raw: RawFlags, now: number): TransfersListOptions {
  const f = readFlags(raw);
  const query: Record<string, unknown> = {
    ids: f.list('id'),
    ref_ids: f.list('refId'),
    profile_ids: f.list('profileId'),
    identity_ids: f.list('identityId'),
    account_ids: f.list('accountId'),
    type: choiceList('--type', f.list('type'), TRANSFER_TYPE_FILTERS),
    statuses: choiceList('--status', f.list('status'), TRANSFER_STATUSES),
    secondary_statuses: choiceList('--secondary-status', f.list('secondaryStatus'), TRANSFER_SECONDARY_STATUSES),
    crypto_tx_hashes: f.list('txHash'),
    group_ids: f.list('groupId'),
    limit: f.text('limit'),
    order: f.text('order'),
    order_by: f.text('orderBy'),
    page_cursor: f.text('cursor'),
    ...timeFilters(raw, 'created', 'created_at', now),
    ...timeFilters(raw, 'updated', 'updated_at', now),
  };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  checkRequest(operations.listTransfers, { query }, FLAGS, SHAPE_ONLY);
  return { query, all: f.on('all'), view: readTableView(f, TRANSFER_LIST_COLUMNS) };
}

export interface TransferGetOptions {
  /** Neither: the id is asked. */
  id?: string;
  refId?: string;
}

export function parseTransferGetOptions(id: string | undefined, raw: RawFlags): TransferGetOptions {
  const refId = readFlags(raw).text('refId');
  if (id !== undefined && refId !== undefined) throw usageError('ID and --ref-id: give one');
  return { id, refId };
}

export interface TransfersWatchOptions {
  ids: string[];
  timeoutSeconds: number;
  /** The note for a flag given by its old name (--timeout, now --wait-timeout as withdraw has it). */
  renamed?: string;
  view?: TableView;
}

export function parseTransfersWatchOptions(ids: string[], raw: RawFlags): TransfersWatchOptions {
  const f = readFlags(raw);
  const old = f.text('timeout');
  const timeoutSeconds =
    old !== undefined
      ? waitTimeoutFlag(old, 86_400, '--timeout')
      : waitTimeoutFlag(f.text('waitTimeout') ?? '600', 86_400);
  for (const id of ids) checkRequest(operations.getTransfer, { params: { id } }, FLAGS, SHAPE_ONLY);
  return {
    ids,
    timeoutSeconds,
    view: readTableView(readFlags(raw), TRANSFER_LIST_COLUMNS),
    ...(old !== undefined
      ? { renamed: 'note: --timeout is now --wait-timeout (as withdraw names it); it is taken as such' }
      : {}),
  };
}
