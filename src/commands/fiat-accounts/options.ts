// coinop fiat-accounts create, update, list, get and delete: the raw flags, checked once. Values create leaves out are
// asked for on a terminal by the run (and the whole request is checked there again).
import { accountNumberRule, routingNumberRule } from '../../cli/bank-rules.js';
import { operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { parseJsonText, readTextFile } from '../../cli/files.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { keyValues, type RawFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { FIAT_ACCOUNT_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import {
  FIAT_ACCOUNT_CREATE_FLAG_TABLE,
  FIAT_ACCOUNT_DELETE_FLAG_TABLE,
  FIAT_ACCOUNT_LIST_FLAG_TABLE,
  FIAT_ACCOUNT_UPDATE_FLAG_TABLE,
  type FIAT_ACCOUNT_NETWORK_NAMES,
} from './flags.js';

/** The owner as the flags name it: an institution by its name, or a person by first and last name. */
export type OwnerFlags = { institution: string } | { person: { first: string; last: string } } | Record<string, never>;

export interface FiatAccountCreateOptions {
  /** The whole request from --file: nothing is asked. */
  file?: Record<string, unknown>;
  network?: (typeof FIAT_ACCOUNT_NETWORK_NAMES)[number];
  owner: OwnerFlags;
  accountNumber?: string;
  routingNumber?: string;
  routingType?: 'ABA' | 'SWIFT';
  bankName?: string;
  bankCountry?: string;
  ownerCountry?: string;
  ownerAddress?: string;
  ownerCity?: string;
  cubixAccountId?: string;
  walletAddress?: string;
  identityId?: string;
  accountId?: string;
  refId?: string;
  metadata?: Record<string, string>;
}

export const CREATE_FLAGS: FlagNames = { ...FIAT_ACCOUNT_CREATE_FLAG_TABLE.fields, '': '--file' };
export const UPDATE_FLAGS: FlagNames = { ...FIAT_ACCOUNT_UPDATE_FLAG_TABLE.fields, '': '--file' };

/** --owner-name, or --first-name with --last-name: one owner, never both kinds. */
function ownerOf(names: { ownerName?: string; firstName?: string; lastName?: string }): OwnerFlags {
  const person = names.firstName !== undefined || names.lastName !== undefined;
  if (names.ownerName !== undefined && person)
    throw usageError('--owner-name: an institution or a person owns the account, not both (--first-name, --last-name)');
  if (names.ownerName !== undefined) return { institution: names.ownerName };
  if (!person) return {};
  if (names.firstName === undefined || names.lastName === undefined)
    throw usageError(
      `missing ${names.firstName === undefined ? '--first-name' : '--last-name'}: a person needs both names`,
    );
  return { person: { first: names.firstName, last: names.lastName } };
}

/** --file's JSON object; no flag that gives a value of the request goes with it. */
function fileBody(file: string | undefined, given: string[]): Record<string, unknown> | undefined {
  if (file === undefined) return undefined;
  if (given.length) throw usageError(`--file: gives the whole request; ${given.join(', ')} cannot go with it`);
  const parsed = parseJsonText('--file', file, readTextFile('--file', file), 'the request as a JSON object');
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw usageError(`--file: ${file} must hold one JSON object`);
  return parsed as Record<string, unknown>;
}

/** The value flags given (by their spelling), of a table's keys other than `except`. */
function valueFlagsGiven(
  table: { keys: readonly string[]; specs: Record<string, { flag: string }> },
  values: Record<string, unknown>,
  except: string[],
): string[] {
  return table.keys
    .filter((k) => !except.includes(k) && values[k] !== undefined && values[k] !== false)
    .map((k) => table.specs[k].flag.split(' ')[0]);
}

export function parseFiatAccountCreateOptions(raw: RawFlags): FiatAccountCreateOptions {
  const f = FIAT_ACCOUNT_CREATE_FLAG_TABLE.read(raw);
  const file = fileBody(f.file, valueFlagsGiven(FIAT_ACCOUNT_CREATE_FLAG_TABLE, f, ['file']));
  if (file) {
    checkRequest(operations.createFiatAccount, { body: file }, CREATE_FLAGS, SHAPE_ONLY);
    return { file, owner: {} };
  }
  checkBankNumbers(f.accountNumber, f.routingType, f.routingNumber, f.network);
  return {
    network: f.network,
    owner: ownerOf(f),
    accountNumber: f.accountNumber,
    routingNumber: f.routingNumber,
    routingType: f.routingType as 'ABA' | 'SWIFT' | undefined,
    bankName: f.bankName,
    bankCountry: f.bankCountry,
    ownerCountry: f.ownerCountry,
    ownerAddress: f.ownerAddress,
    ownerCity: f.ownerCity,
    cubixAccountId: f.cubixAccountId,
    walletAddress: f.walletAddress,
    identityId: f.identityId,
    accountId: f.accountId,
    refId: f.refId,
    metadata: keyValues('--meta', f.meta),
  };
}

export interface FiatAccountUpdateOptions {
  id: string;
  /** The request's body, checked against the contract. */
  body: Record<string, unknown>;
}

export function parseFiatAccountUpdateOptions(id: string, raw: RawFlags): FiatAccountUpdateOptions {
  const f = FIAT_ACCOUNT_UPDATE_FLAG_TABLE.read(raw);
  const file = fileBody(f.file, valueFlagsGiven(FIAT_ACCOUNT_UPDATE_FLAG_TABLE, f, ['file']));
  const body: Record<string, unknown> = file ?? {};
  if (!file) {
    const owner = ownerOf(f);
    if ('institution' in owner) body.fiat_account_owner = { institution_details: { name: owner.institution } };
    if ('person' in owner)
      body.fiat_account_owner = { person_details: { first_name: owner.person.first, last_name: owner.person.last } };
    if (f.bankName !== undefined)
      body.fiat_network_instructions = { wire: { routing_details: { bank_name: f.bankName } } };
    const metadata = keyValues('--meta', f.meta);
    if (metadata) body.metadata = metadata;
    if (!Object.keys(body).length)
      throw usageError(
        'nothing to update',
        'give --owner-name, --first-name and --last-name, --bank-name, --meta or --file',
      );
  }
  checkRequest(operations.updateFiatAccount, { params: { id }, body }, { ...UPDATE_FLAGS, id: 'ID' }, SHAPE_ONLY);
  return { id, body };
}

export interface FiatAccountDeleteOptions {
  id: string;
  yes: boolean;
}

export function parseFiatAccountDeleteOptions(id: string, raw: RawFlags): FiatAccountDeleteOptions {
  const { yes } = FIAT_ACCOUNT_DELETE_FLAG_TABLE.read(raw);
  checkRequest(operations.deleteFiatAccount, { params: { id } }, { id: 'ID' }, SHAPE_ONLY);
  return { id, yes };
}

export interface FiatAccountListOptions {
  /** The request's query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export const LIST_FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ...FIAT_ACCOUNT_LIST_FLAG_TABLE.fields };

export function parseFiatAccountListOptions(raw: RawFlags, now: number): FiatAccountListOptions {
  const { query, all } = readListFlags(raw, now);
  const { id: ids, refId: refIds, includeDeleted } = FIAT_ACCOUNT_LIST_FLAG_TABLE.read(raw);
  if (ids) query.ids = ids;
  if (refIds) query.ref_ids = refIds;
  if (includeDeleted) query.include_deleted = true;
  checkRequest(operations.listFiatAccounts, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, FIAT_ACCOUNT_COLUMNS) };
}

/**
 * The account and routing numbers by the rules their prompts keep (src/cli/bank-rules.ts), before anything is asked:
 * the routing number's form is known for a wire (ABA unless --routing-type says SWIFT).
 */
function checkBankNumbers(
  account: string | undefined,
  type: string | undefined,
  routing: string | undefined,
  network: string | undefined,
): void {
  const bad = accountNumberRule(account);
  if (bad) throw usageError(`--account-number: ${bad}`);
  const routingBad = network === 'WIRE' ? routingNumberRule(type ?? 'ABA', routing) : undefined;
  if (routingBad) throw usageError(`--routing-number: ${routingBad}`);
}
