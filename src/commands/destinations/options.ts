// coinop destinations list and put: the raw flags, checked once into the options the runs work with. put's network and
// address, when left out, are asked for on a terminal by the run (and the whole request is checked there again).
import { addressIssues, CRYPTO_NETWORKS, DESTINATION_NICKNAME_MAX_LENGTH, operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { choiceFlag, jsonObjectFlag, nameList, type RawFlags, readFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames, issueMessage } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { DESTINATION_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface DestinationListOptions {
  /** The request's query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export const LIST_FLAGS: FlagNames = {
  ...LIST_FLAG_NAMES,
  nicknames: '--nickname',
  crypto_networks: '--network',
  addresses: '--address',
  ids: '--id',
  identity_ids: '--identity-id',
  bookmarked_status: '--bookmarked',
};

export function parseDestinationListOptions(raw: RawFlags, now: number): DestinationListOptions {
  const f = readFlags(raw);
  const bookmarked = f.on('bookmarked');
  const notBookmarked = f.on('notBookmarked');
  if (bookmarked && notBookmarked) throw usageError('--bookmarked and --not-bookmarked: give one, not both');
  const { query, all } = readListFlags(f, now);
  const lists = {
    nicknames: f.list('nickname'),
    crypto_networks: nameList('--network', f.list('network')),
    addresses: f.list('address'),
    ids: f.list('id'),
    identity_ids: f.list('identityId'),
  };
  for (const [k, v] of Object.entries(lists)) if (v !== undefined) query[k] = v;
  if (bookmarked || notBookmarked) query.bookmarked_status = bookmarked;
  checkRequest(operations.listCryptoDestinationAddresses, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(f, DESTINATION_COLUMNS) };
}

export interface DestinationPutOptions {
  /** The address of the book to change; never with network or address. */
  id?: string;
  network?: string;
  address?: string;
  nickname?: string;
  /** true to bookmark, false to take the bookmark away, undefined to leave it. */
  bookmark?: boolean;
  identityId?: string;
  travelRule?: Record<string, unknown>;
}

export const PUT_FLAGS: FlagNames = {
  id: '--id',
  crypto_network: '--network',
  address: '--address',
  nickname: '--nickname',
  bookmarked_status: '--bookmark',
  identity_id: '--identity-id',
  travelrule_metadata: '--travel-rule',
};

export function parseDestinationPutOptions(raw: RawFlags): DestinationPutOptions {
  const f = readFlags(raw);
  const id = f.text('id');
  const network = choiceFlag('--network', f.text('network'), CRYPTO_NETWORKS);
  const address = f.text('address');
  if (id !== undefined && (network !== undefined || address !== undefined))
    throw usageError('--id and --network/--address: give one (--id finds the address by its id)');
  if (network !== undefined && address !== undefined) {
    const issues = addressIssues(network, address);
    if (issues.length) throw usageError(issueMessage(issues, { destination_address: '--address' }));
  }
  const nickname = f.text('nickname');
  if (nickname !== undefined && (nickname.trim() === '' || nickname.length > DESTINATION_NICKNAME_MAX_LENGTH))
    throw usageError(`--nickname: must be 1 to ${DESTINATION_NICKNAME_MAX_LENGTH} characters`);
  return {
    id,
    network,
    address,
    nickname,
    bookmark: f.toggle('bookmark'),
    identityId: f.text('identityId'),
    travelRule: jsonObjectFlag('--travel-rule', f.text('travelRule'), '{"custodian_type":"PRIVATE"}'),
  };
}
