// coinop addresses list and create: their flags, checked, as typed options objects (declared in index.ts).
import { operations, type CryptoNetwork } from '../../contract/index.js';
import { readTableView } from '../../cli/list-flags.js';
import { keyValues, nameFlag, nameList, type RawFlags } from '../../cli/options.js';
import { timeFilters } from '../../cli/flags.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { ADDRESS_CREATE_FLAG_TABLE, ADDRESSES_LIST_FLAG_TABLE } from './flags.js';
import { DEPOSIT_ADDRESS_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

/** The flag of each query field, for messages. */
export const LIST_FLAGS: FlagNames = ADDRESSES_LIST_FLAG_TABLE.fields;

export interface AddressesListOptions {
  /** The listDepositAddresses query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseAddressesListOptions(raw: RawFlags, now: number): AddressesListOptions {
  const f = ADDRESSES_LIST_FLAG_TABLE.read(raw);
  const query: Record<string, unknown> = {
    profile_ids: f.profileId,
    identity_ids: f.identityId,
    account_ids: f.accountId,
    ids: f.id,
    ref_ids: f.refId,
    networks: nameList('--network', f.network),
    ...timeFilters(f, 'created', 'created_at', now),
    limit: f.limit,
    order: f.order,
    order_by: f.orderBy,
    page_cursor: f.cursor,
  };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  // The networks by their shape: the run checks them against the catalogue once it knows the service.
  checkRequest(operations.listDepositAddresses, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all: f.all, view: readTableView(raw, DEPOSIT_ADDRESS_COLUMNS) };
}

export const CREATE_FLAGS: FlagNames = ADDRESS_CREATE_FLAG_TABLE.fields;

export interface AddressCreateOptions {
  /** Unset: asked. */
  network?: CryptoNetwork;
  /** Unset: the coinop context's, else asked. */
  profileId?: string;
  identityId?: string;
  accountId?: string;
  /** Unset: generated and printed. */
  refId?: string;
  conversion?: string;
  metadata?: Record<string, string>;
}

export function parseAddressCreateOptions(raw: RawFlags): AddressCreateOptions {
  const f = ADDRESS_CREATE_FLAG_TABLE.read(raw);
  return {
    metadata: keyValues('--meta', f.meta),
    network: nameFlag('--network', f.network) as CryptoNetwork | undefined,
    profileId: f.profileId,
    identityId: f.identityId,
    accountId: f.accountId,
    refId: f.refId,
    conversion: f.conversion,
  };
}
