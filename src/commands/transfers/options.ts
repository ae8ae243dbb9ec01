// coinop transfers list, get and watch: their flags, checked, as typed options objects (declared in index.ts).
import {
  CRYPTO_NETWORKS,
  operations,
  splitTransferQuery,
  TRANSFER_SECONDARY_STATUSES,
  TRANSFER_STATUSES,
  TRANSFER_TYPE_FILTERS,
} from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { periodQuery, readPeriod, readTableView } from '../../cli/list-flags.js';
import { choiceList, type RawFlags, waitTimeoutFlag } from '../../cli/options.js';
import { timeFilters } from '../../cli/flags.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { TRANSFER_GET_FLAG_TABLE, TRANSFERS_LIST_FLAG_TABLE, TRANSFERS_WATCH_FLAG_TABLE } from './flags.js';
import { TRANSFER_LIST_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import { hasFilter, metadataFilters, type TransferFilter } from './filters.js';

/** The flag (or argument) of each request field, for messages. */
export const FLAGS: FlagNames = { ...TRANSFERS_LIST_FLAG_TABLE.fields, id: 'ID' };

export interface TransfersListOptions {
  /** The listTransfers query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /**
   * What the service cannot filter by (asset, network, destination, metadata) or not with the filter sent (the
   * OpenAPI's lone filters, filters.ts): coinop filters each page.
   */
  filter?: TransferFilter;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseTransfersListOptions(raw: RawFlags, now: number): TransfersListOptions {
  const f = TRANSFERS_LIST_FLAG_TABLE.read(raw);
  const period = readPeriod(f, now);
  const created = Object.keys(timeFilters(f, 'created', 'created_at', now));
  if ((f.from ?? f.to) !== undefined && created.length)
    throw usageError(`--from and --to: give them or the --created-* flags, not both (${FLAGS[created[0]]} given)`);
  const query: Record<string, unknown> = {
    ids: f.id,
    ref_ids: f.refId,
    profile_ids: f.profileId,
    identity_ids: f.identityId,
    account_ids: f.accountId,
    // Sent by the OpenAPI's names (splitTransferQuery): its enumeration has no PLATFORM_TRANSFER_* name.
    type: choiceList('--type', f.type, TRANSFER_TYPE_FILTERS),
    statuses: choiceList('--status', f.status, TRANSFER_STATUSES),
    secondary_statuses: choiceList('--secondary-status', f.secondaryStatus, TRANSFER_SECONDARY_STATUSES),
    crypto_tx_hashes: f.txHash,
    group_ids: f.groupId,
    limit: f.limit,
    order: f.order,
    order_by: f.orderBy,
    page_cursor: f.cursor,
    ...timeFilters(f, 'created', 'created_at', now),
    ...timeFilters(f, 'updated', 'updated_at', now),
    ...periodQuery(period),
  };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  // Types by the OpenAPI's names; filters the service does not take together: one part is sent, the rest applied here
  // (each checked on its own).
  const { query: sent, applied } = splitTransferQuery(query);
  checkRequest(operations.listTransfers, { query: sent }, FLAGS, SHAPE_ONLY);
  for (const k of Object.keys(applied ?? {}))
    checkRequest(operations.listTransfers, { query: { [k]: query[k] } }, FLAGS, SHAPE_ONLY);
  const filter: TransferFilter = {
    assets: f.asset?.map((a) => a.toUpperCase()),
    networks: choiceList('--network', f.network, CRYPTO_NETWORKS),
    destinations: f.destination,
    metadata: metadataFilters(f.metadata),
    api: applied,
  };
  for (const k of Object.keys(filter) as (keyof TransferFilter)[]) if (filter[k] === undefined) delete filter[k];
  return {
    query: sent,
    all: f.all,
    ...(hasFilter(filter) ? { filter } : {}),
    view: readTableView(raw, TRANSFER_LIST_COLUMNS),
  };
}

export interface TransferGetOptions {
  /** Neither: the id is asked. */
  id?: string;
  refId?: string;
}

export function parseTransferGetOptions(id: string | undefined, raw: RawFlags): TransferGetOptions {
  const { refId } = TRANSFER_GET_FLAG_TABLE.read(raw);
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
  const f = TRANSFERS_WATCH_FLAG_TABLE.read(raw);
  const old = f.timeout;
  const timeoutSeconds =
    old !== undefined ? waitTimeoutFlag(old, 86_400, '--timeout') : waitTimeoutFlag(f.waitTimeout, 86_400);
  for (const id of ids) checkRequest(operations.getTransfer, { params: { id } }, FLAGS, SHAPE_ONLY);
  return {
    ids,
    timeoutSeconds,
    view: readTableView(raw, TRANSFER_LIST_COLUMNS),
    ...(old !== undefined
      ? { renamed: 'note: --timeout is now --wait-timeout (as withdraw names it); it is taken as such' }
      : {}),
  };
}
