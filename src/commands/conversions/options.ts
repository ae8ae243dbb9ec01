// coinop convert and coinop conversions list|cancel: the raw flags, checked once into the options the runs work with.
// Values convert leaves out are asked for on a terminal by the run (and the whole request is checked there).
import { operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import { amountFlag, keyValues, type RawFlags, type SendSwitches, sendSwitches } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { CONVERSION_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import { CONVERSION_CANCEL_FLAG_TABLE, CONVERSION_LIST_FLAG_TABLE, CONVERT_FLAG_TABLE } from './flags.js';

export interface ConvertOptions extends SendSwitches {
  amount?: string;
  /** Upper case; USD unless --from says (or --to names USD: then it is asked for, or must be given). */
  from?: string;
  to?: string;
  refId?: string;
  profileId?: string;
  recipientProfileId?: string;
  identityId?: string;
  accountId?: string;
  metadata?: Record<string, string>;
}

/** The flag that gives each field of the request, for messages about the request. */
export const CONVERT_FLAGS: FlagNames = { ...CONVERT_FLAG_TABLE.fields, '': 'body' };

export function parseConvertOptions(raw: RawFlags): ConvertOptions {
  const f = CONVERT_FLAG_TABLE.read(raw);
  amountFlag('--amount', f.amount);
  const from = f.from?.toUpperCase();
  const to = f.to?.toUpperCase();
  if (from !== undefined && from === to)
    throw usageError(`--from and --to: both are ${from}; convert to another asset`);
  return {
    amount: f.amount,
    from,
    to,
    refId: f.refId,
    profileId: f.profileId,
    recipientProfileId: f.recipientProfileId,
    identityId: f.identityId,
    accountId: f.accountId,
    metadata: keyValues('--meta', f.meta),
    ...sendSwitches(f),
  };
}

export interface ConversionListOptions {
  /** The request's query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  view?: TableView;
}

export const LIST_FLAGS: FlagNames = {
  ...LIST_FLAG_NAMES,
  ...CONVERSION_LIST_FLAG_TABLE.fields,
  'created_at.begin': '--created-from',
  'created_at.end': '--created-until',
};

/**
 * The shared list flags, as this list takes them: the OpenAPI's conversions filter on created_at.begin and .end
 * (both inclusive), so --created-from and --created-until; the strict comparisons it has no parameter for are refused.
 */
export function parseConversionListOptions(raw: RawFlags, now: number): ConversionListOptions {
  const { query: shared, all } = readListFlags(raw, now);
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(shared)) {
    if (k === 'created_at.gte') query['created_at.begin'] = v;
    else if (k === 'created_at.lte') query['created_at.end'] = v;
    else if (k.startsWith('created_at.'))
      throw usageError(
        `${LIST_FLAG_NAMES[k] ?? k}: conversions are filtered by --created-from and --created-until only (both inclusive)`,
      );
    else query[k] = v;
  }
  const { profileId, refId } = CONVERSION_LIST_FLAG_TABLE.read(raw);
  if (profileId) query.profile_id = profileId;
  if (refId) query.ref_id = refId;
  checkRequest(operations.listStablecoinConversions, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, CONVERSION_COLUMNS) };
}

export interface ConversionCancelOptions {
  id?: string;
  yes: boolean;
}

export function parseConversionCancelOptions(id: string | undefined, raw: RawFlags): ConversionCancelOptions {
  const { yes } = CONVERSION_CANCEL_FLAG_TABLE.read(raw);
  if (id !== undefined)
    checkRequest(operations.cancelStablecoinConversion, { params: { id } }, { id: 'ID' }, SHAPE_ONLY);
  return { id, yes };
}
