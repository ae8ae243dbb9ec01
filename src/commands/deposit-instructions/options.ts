// coinop deposit-instructions create and list: the raw flags, checked once. create's network and profile, when left
// out, are asked for on a terminal by the run (and the whole request is checked there again).
import { FIAT_NETWORKS, FIAT_ROUTING_NUMBER_TYPES, type FiatNetwork, operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { choiceFlag, keyValues, type RawFlags, readFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
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

export const CREATE_FLAGS: FlagNames = {
  profile_id: '--profile-id',
  fiat_network: '--network',
  routing_number_type: '--routing-type',
  identity_id: '--identity-id',
  account_id: '--account-id',
  ref_id: '--ref-id',
  metadata: '--meta',
};

export function parseInstructionsCreateOptions(raw: RawFlags): InstructionsCreateOptions {
  const f = readFlags(raw);
  const network = choiceFlag('--network', f.text('network'), FIAT_NETWORKS);
  const routingType = choiceFlag('--routing-type', f.text('routingType'), FIAT_ROUTING_NUMBER_TYPES);
  if (routingType !== undefined && network !== undefined && network !== 'WIRE')
    throw usageError(`--routing-type: is for --network WIRE only, not ${network}`);
  return {
    network,
    routingType,
    profileId: f.text('profileId'),
    identityId: f.text('identityId'),
    accountId: f.text('accountId'),
    refId: f.text('refId'),
    metadata: keyValues('--meta', f.list('meta')),
  };
}

export interface InstructionsListOptions {
  /** The request's query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export const LIST_FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ids: '--id', ref_ids: '--ref-id' };

export function parseInstructionsListOptions(raw: RawFlags, now: number): InstructionsListOptions {
  const f = readFlags(raw);
  const { query, all } = readListFlags(f, now);
  const ids = f.list('id');
  const refIds = f.list('refId');
  if (ids) query.ids = ids;
  if (refIds) query.ref_ids = refIds;
  checkRequest(operations.listFiatDepositInstructions, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(f, DEPOSIT_INSTRUCTIONS_COLUMNS) };
}
