// coinop addresses list and create: their flags, checked, as typed options objects (declared in index.ts).
import { operations, type CryptoNetwork } from '../../contract/index.js';
import { readTableView } from '../../cli/list-flags.js';
import {
  readFlags,
  keyValues,
  nameFlag,
  nameList,
  timeFilterFlags,
  timeFilters,
  type RawFlags,
} from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { DEPOSIT_ADDRESS_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

/** The flag of each query field, for messages. */
export const LIST_FLAGS: FlagNames = {
  profile_ids: '--profile-id',
  identity_ids: '--identity-id',
  account_ids: '--account-id',
  ids: '--id',
  ref_ids: '--ref-id',
  networks: '--network',
  ...timeFilterFlags('created', 'created_at'),
  limit: '--limit',
  order: '--order',
  order_by: '--order-by',
  page_cursor: '--cursor',
};

export interface AddressesListOptions {
  /** The listDepositAddresses query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseAddressesListOptions(raw: RawFlags, now: number): AddressesListOptions {
  const f = readFlags(raw);
  const query: Record<string, unknown> = {
    profile_ids: f.list('profileId'),
    identity_ids: f.list('identityId'),
    account_ids: f.list('accountId'),
    ids: f.list('id'),
    ref_ids: f.list('refId'),
    networks: nameList('--network', f.list('network')),
    ...timeFilters(raw, 'created', 'created_at', now),
    limit: f.text('limit'),
    order: f.text('order'),
    order_by: f.text('orderBy'),
    page_cursor: f.text('cursor'),
  };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  // The networks by their shape: the run checks them against the catalogue once it knows the service.
  checkRequest(operations.listDepositAddresses, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all: f.on('all'), view: readTableView(f, DEPOSIT_ADDRESS_COLUMNS) };
}

export const CREATE_FLAGS: FlagNames = {
  profile_id: '--profile-id',
  crypto_network: '--network',
  identity_id: '--identity-id',
  account_id: '--account-id',
  ref_id: '--ref-id',
  conversion_target_asset: '--conversion',
  metadata: '--meta',
};

export interface AddressCreateOptions {
  /** Unset: asked. */
  network?: CryptoNetwork;
  /** Unset: the coinop profile's, else asked. */
  profileId?: string;
  identityId?: string;
  accountId?: string;
  /** Unset: generated and printed. */
  refId?: string;
  conversion?: string;
  metadata?: Record<string, string>;
}

export function parseAddressCreateOptions(raw: RawFlags): AddressCreateOptions {
  const f = readFlags(raw);
  return {
    metadata: keyValues('--meta', f.list('meta')),
    network: nameFlag('--network', f.text('network')) as CryptoNetwork | undefined,
    profileId: f.text('profileId'),
    identityId: f.text('identityId'),
    accountId: f.text('accountId'),
    refId: f.text('refId'),
    conversion: f.text('conversion'),
  };
}
