// coinop destinations list and put: the raw flags, checked once into the options the runs work with. put's network and
// address, when left out, are asked for on a terminal by the run (and the whole request is checked there again).
import { addressIssues, CRYPTO_NETWORKS, DESTINATION_NICKNAME_MAX_LENGTH, operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { choiceFlag, jsonObjectFlag, nameList, type RawFlags } from '../../cli/options.js';
import { beneficiaryBody, partyOf } from '../../cli/travel-rule.js';
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
  /** --custodian-type VASP without a VASP: picked from the directory on a terminal. */
  pickVasp?: boolean;
}

/** --travel-rule's JSON, or the travel rule details the Travel Rule flags give (never both). */
function travelRuleFlags(flags: ReturnType<typeof DESTINATION_PUT_FLAG_TABLE.read>): {
  travelRule?: Record<string, unknown>;
  pickVasp?: boolean;
} {
  const json = jsonObjectFlag('--travel-rule', flags.travelRule, '{"custodian_type":"PRIVATE"}');
  const party = partyOf('--beneficiary', {
    firstName: flags.beneficiaryFirstName,
    lastName: flags.beneficiaryLastName,
    institution: flags.beneficiaryInstitution,
  });
  if (party && flags.beneficiarySelf)
    throw usageError('--beneficiary-self: the identity itself, or a person or an institution, not both');
  const custom = flags.vaspName !== undefined || flags.vaspWebsite !== undefined;
  if (flags.vaspId !== undefined && custom)
    throw usageError(
      '--vasp-id and --vasp-name: give one (--vasp-name with --vasp-website is a VASP not in the directory)',
    );
  if (custom && (flags.vaspName === undefined || flags.vaspWebsite === undefined))
    throw usageError(
      `missing ${flags.vaspName === undefined ? '--vasp-name' : '--vasp-website'}: a VASP not in the directory needs both`,
    );
  const vasp =
    flags.vaspId !== undefined
      ? { id: flags.vaspId }
      : custom
        ? { custom_vasp_name: flags.vaspName, custom_vasp_website: flags.vaspWebsite }
        : undefined;
  if (vasp && flags.custodianType === 'PRIVATE')
    throw usageError('--vasp-id, --vasp-name: only with --custodian-type VASP (a PRIVATE wallet has no VASP)');
  const beneficiary = party ? beneficiaryBody(party) : flags.beneficiarySelf ? { self: true } : undefined;
  const meta: Record<string, unknown> = {
    ...(flags.custodianType !== undefined
      ? { custodian_type: flags.custodianType }
      : vasp
        ? { custodian_type: 'VASP' }
        : {}),
    ...(vasp ? { vasp } : {}),
    ...(beneficiary ? { beneficiary } : {}),
    ...(flags.transferPurpose !== undefined ? { transfer_purpose: flags.transferPurpose } : {}),
  };
  const given = Object.keys(meta).length > 0;
  if (json && given)
    throw usageError('--travel-rule and the Travel Rule flags (--custodian-type, --vasp-*, --beneficiary-*): give one');
  return {
    travelRule: json ?? (given ? meta : undefined),
    ...(meta.custodian_type === 'VASP' && !vasp ? { pickVasp: true } : {}),
  };
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
    ...travelRuleFlags(f),
  };
}
