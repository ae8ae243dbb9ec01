// coinop transfers list, get and watch: their flags, checked, as typed options objects (declared in index.ts).
import { operations } from '../../api/index.js';
import { usageError } from '../../cli/errors.js';
import { readTableView } from '../../cli/list-flags.js';
import { readFlags, intFlag, timeFilterFlags, timeFilters, type RawFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/api.js';
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
  const upper = (key: string) => f.list(key)?.map((x) => x.toUpperCase());
  const query: Record<string, unknown> = {
    ids: f.list('id'),
    ref_ids: f.list('refId'),
    profile_ids: f.list('profileId'),
    identity_ids: f.list('identityId'),
    account_ids: f.list('accountId'),
    type: upper('type'),
    statuses: upper('status'),
    secondary_statuses: upper('secondaryStatus'),
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
  view?: TableView;
}

export function parseTransfersWatchOptions(ids: string[], raw: RawFlags): TransfersWatchOptions {
  const timeoutSeconds = intFlag('--timeout', readFlags(raw).text('timeout'), 1, 86_400) ?? 600;
  for (const id of ids) checkRequest(operations.getTransfer, { params: { id } }, FLAGS, SHAPE_ONLY);
  return { ids, timeoutSeconds, view: readTableView(readFlags(raw), TRANSFER_LIST_COLUMNS) };
}
