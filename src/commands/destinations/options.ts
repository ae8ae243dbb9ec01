// coinop destinations list and put: the raw flags, checked once into the options the runs work with. put's network and
// address, when left out, are asked for on a terminal by the run (and the whole request is checked there again).
import { addressIssues, CRYPTO_NETWORKS, DESTINATION_NICKNAME_MAX_LENGTH, operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { choiceFlag, jsonObjectFlag, nameList, type RawFlags } from '../../cli/options.js';
import { DESTINATION_LIST_FLAG_TABLE, DESTINATION_PUT_FLAG_TABLE } from './flags.js';
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

export const LIST_FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ...DESTINATION_LIST_FLAG_TABLE.fields };

export function parseDestinationListOptions(raw: RawFlags, now: number): DestinationListOptions {
  const f = DESTINATION_LIST_FLAG_TABLE.read(raw);
  const { bookmarked, notBookmarked } = f;
  if (bookmarked && notBookmarked) throw usageError('--bookmarked and --not-bookmarked: give one, not both');
  const { query, all } = readListFlags(raw, now);
  const lists = {
    nicknames: f.nickname,
    crypto_networks: nameList('--network', f.network),
    addresses: f.address,
    ids: f.id,
    identity_ids: f.identityId,
  };
  for (const [k, v] of Object.entries(lists)) if (v !== undefined) query[k] = v;
  if (bookmarked || notBookmarked) query.bookmarked_status = bookmarked;
  checkRequest(operations.listCryptoDestinationAddresses, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, DESTINATION_COLUMNS) };
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

export const PUT_FLAGS: FlagNames = DESTINATION_PUT_FLAG_TABLE.fields;

export function parseDestinationPutOptions(raw: RawFlags): DestinationPutOptions {
  const f = DESTINATION_PUT_FLAG_TABLE.read(raw);
  const { id, address } = f;
  const network = choiceFlag('--network', f.network, CRYPTO_NETWORKS);
  if (id !== undefined && (network !== undefined || address !== undefined))
    throw usageError('--id and --network/--address: give one (--id finds the address by its id)');
  if (network !== undefined && address !== undefined) {
    const issues = addressIssues(network, address);
    if (issues.length) throw usageError(issueMessage(issues, { destination_address: '--address' }));
  }
  const { nickname } = f;
  if (nickname !== undefined && (nickname.trim() === '' || nickname.length > DESTINATION_NICKNAME_MAX_LENGTH))
    throw usageError(`--nickname: must be 1 to ${DESTINATION_NICKNAME_MAX_LENGTH} characters`);
  return {
    id,
    network,
    address,
    nickname,
    bookmark: f.bookmark,
    identityId: f.identityId,
    travelRule: jsonObjectFlag('--travel-rule', f.travelRule, '{"custodian_type":"PRIVATE"}'),
  };
}
