// coinop limits: the raw flags, checked once.
import { TRANSFER_LIMIT_TYPES, type TransferLimitType } from '../../api/index.js';
import { usageError } from '../../cli/errors.js';
import { readTableView } from '../../cli/list-flags.js';
import { type RawFlags, readFlags } from '../../cli/options.js';
import { TRANSFER_LIMIT_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface LimitsOptions {
  type: TransferLimitType;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseLimitsOptions(raw: RawFlags): LimitsOptions {
  const f = readFlags(raw);
  const type = f.defaulted('type');
  if (!(TRANSFER_LIMIT_TYPES as readonly string[]).includes(type))
    throw usageError(`--type: must be one of ${TRANSFER_LIMIT_TYPES.join(', ')}`);
  return { type: type as TransferLimitType, view: readTableView(f, TRANSFER_LIMIT_COLUMNS) };
}
