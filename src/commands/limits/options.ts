// coinop limits: the raw flags, checked once.
import { TRANSFER_LIMIT_TYPES, type TransferLimitType } from '../../api/index.js';
import { usageError } from '../../cli/errors.js';
import { type RawFlags, readFlags } from '../../cli/options.js';

export interface LimitsOptions {
  type: TransferLimitType;
}

export function parseLimitsOptions(raw: RawFlags): LimitsOptions {
  const type = readFlags(raw).defaulted('type');
  if (!(TRANSFER_LIMIT_TYPES as readonly string[]).includes(type))
    throw usageError(`--type: must be one of ${TRANSFER_LIMIT_TYPES.join(', ')}`);
  return { type: type as TransferLimitType };
}
