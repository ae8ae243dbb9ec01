// coinop limits: the raw flags, checked once.
import { TRANSFER_LIMIT_TYPES, type TransferLimitType } from '../../api/index.js';
import { choiceFlag, type RawFlags, readFlags } from '../../cli/options.js';

export interface LimitsOptions {
  type: TransferLimitType;
}

export function parseLimitsOptions(raw: RawFlags): LimitsOptions {
  return { type: choiceFlag('--type', readFlags(raw).defaulted('type'), TRANSFER_LIMIT_TYPES) as TransferLimitType };
}
