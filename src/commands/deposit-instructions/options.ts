// coinop deposit-instructions create and list: the raw flags, checked once. create's network and profile, when left
// out, are asked for on a terminal by the run (and the whole request is checked there again).
import { type FiatNetwork, operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { keyValues, type RawFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { INSTRUCTIONS_CREATE_FLAG_TABLE, INSTRUCTIONS_LIST_FLAG_TABLE } from './flags.js';
import { DEPOSIT_INSTRUCTIONS_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface InstructionsCreateOptions {
  network?: FiatNetwork;
  routingType?: string;
  profileId?: string;
  identityId?: string;
  accountId?: string;
  refId?: string;
  metadata?: Record<string, string>;
}

export const CREATE_FLAGS: FlagNames = INSTRUCTIONS_CREATE_FLAG_TABLE.fields;

export function parseInstructionsCreateOptions(raw: RawFlags): InstructionsCreateOptions {
  const f = INSTRUCTIONS_CREATE_FLAG_TABLE.read(raw);
  const { network, routingType } = f;
  if (routingType !== undefined && network !== undefined && network !== 'WIRE')
    throw usageError(`--routing-type: is for --network WIRE only, not ${network}`);
  return {
    network,
    routingType,
    profileId: f.profileId,
    identityId: f.identityId,
    accountId: f.accountId,
    refId: f.refId,
    metadata: keyValues('--meta', f.meta),
  };
}

export interface InstructionsListOptions {
  /** The request's query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export const LIST_FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ...INSTRUCTIONS_LIST_FLAG_TABLE.fields };

export function parseInstructionsListOptions(raw: RawFlags, now: number): InstructionsListOptions {
  const { query, all } = readListFlags(raw, now);
  const { id: ids, refId: refIds } = INSTRUCTIONS_LIST_FLAG_TABLE.read(raw);
  if (ids) query.ids = ids;
  if (refIds) query.ref_ids = refIds;
  checkRequest(operations.listFiatDepositInstructions, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, DEPOSIT_INSTRUCTIONS_COLUMNS) };
}
