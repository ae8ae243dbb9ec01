// coinop limits: the raw flags, checked once.
import { TRANSFER_LIMIT_TYPES, type TransferLimitType } from '../../contract/index.js';
import { readTableView } from '../../cli/list-flags.js';
import { choiceFlag, type RawFlags, readFlags } from '../../cli/options.js';
import { TRANSFER_LIMIT_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface LimitsOptions {
  type: TransferLimitType;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseLimitsOptions(raw: RawFlags): LimitsOptions {
  const f = readFlags(raw);
  const type = choiceFlag('--type', f.defaulted('type'), TRANSFER_LIMIT_TYPES) as TransferLimitType;
  return { type, view: readTableView(f, TRANSFER_LIMIT_COLUMNS) };
}
