// coinop withdraw fiat: the raw flags, checked once into the options the run works with. Values left out are asked
// for on a terminal by the run (and the whole request is checked there).
import { usageError } from '../../../cli/errors.js';
import {
  amountFlag,
  amountXorTotal,
  keyValues,
  type RawFlags,
  type SendSwitches,
  sendSwitches,
} from '../../../cli/options.js';
import type { FlagNames } from '../../../client/service-client.js';
import { FIAT_WITHDRAW_FLAG_TABLE } from './flags.js';

export interface FiatWithdrawOptions extends SendSwitches {
  fiatAccountId?: string;
  /** At most one of amount and total, each a plain decimal string. */
  amount?: string;
  total?: string;
  asset: string;
  refId?: string;
  profileId?: string;
  identityId?: string;
  accountId?: string;
  memo?: string;
  metadata?: Record<string, string>;
}

/** The flag that gives each field of the request, for messages about the request. */
export const FIAT_WITHDRAW_FLAGS: FlagNames = { ...FIAT_WITHDRAW_FLAG_TABLE.fields, '': 'body' };

export function parseFiatWithdrawOptions(raw: RawFlags): FiatWithdrawOptions {
  const f = FIAT_WITHDRAW_FLAG_TABLE.read(raw);
  amountXorTotal(f.amount, f.total);
  amountFlag('--amount', f.amount);
  amountFlag('--total', f.total);
  const asset = f.asset.toUpperCase();
  if (asset !== 'USD')
    throw usageError(`--asset: must be USD (the only asset fiat withdrawals support), not ${f.asset}`);
  return {
    fiatAccountId: f.fiatAccountId,
    amount: f.amount,
    total: f.total,
    asset,
    refId: f.refId,
    profileId: f.profileId,
    identityId: f.identityId,
    accountId: f.accountId,
    memo: f.memo,
    metadata: keyValues('--meta', f.meta),
    ...sendSwitches(f),
  };
}
