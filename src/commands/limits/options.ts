// coinop limits: the raw flags, checked once.
import type { TransferLimitType } from '../../contract/index.js';
import { readTableView } from '../../cli/list-flags.js';
import type { RawFlags } from '../../cli/options.js';
import { LIMITS_FLAG_TABLE } from './flags.js';
import { TRANSFER_LIMIT_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface LimitsOptions {
  type: TransferLimitType;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseLimitsOptions(raw: RawFlags): LimitsOptions {
  const { type } = LIMITS_FLAG_TABLE.read(raw);
  return { type: type as TransferLimitType, view: readTableView(raw, TRANSFER_LIMIT_COLUMNS) };
}
