// coinop statements list and coinop statements payments: the raw flags, checked once into the list's query.
import { operations, PAYMENT_STATUSES, STATEMENT_STATUSES } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../cli/list-flags.js';
import type { RawFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { PAYMENT_COLUMNS, STATEMENT_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import { PAYMENTS_LIST_FLAG_TABLE, STATEMENTS_LIST_FLAG_TABLE } from './flags.js';

export const STATEMENTS_FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ...STATEMENTS_LIST_FLAG_TABLE.fields };
export const PAYMENTS_FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ...PAYMENTS_LIST_FLAG_TABLE.fields };

export interface StatementListOptions {
  query: Record<string, unknown>;
  all: boolean;
  view?: TableView;
}

/** A status as the service names it, or its last word (PAID for STATEMENT_STATUS_PAID), any case. */
function statusName(flag: string, value: string, names: readonly string[], prefix: string): string {
  const upper = value.toUpperCase();
  const name = names.find((n) => n === upper || n === `${prefix}${upper}`);
  if (!name) throw usageError(`${flag}: must be one of ${names.join(', ')} (or their last word)`);
  return name;
}

const pruned = (query: Record<string, unknown>) => {
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  return query;
};

export function parseStatementListOptions(raw: RawFlags, now: number): StatementListOptions {
  const f = STATEMENTS_LIST_FLAG_TABLE.read(raw);
  const { query: page, all } = readListFlags(raw, now);
  const query = pruned({
    customer_id: f.customerId,
    statuses: f.status?.map((s) => statusName('--status', s, STATEMENT_STATUSES, 'STATEMENT_STATUS_')),
    statement_ids: f.id,
    ref_ids: f.refId,
    ...page,
  });
  checkRequest(operations.listStatements, { query }, STATEMENTS_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, STATEMENT_COLUMNS) };
}

export function parsePaymentListOptions(raw: RawFlags, now: number): StatementListOptions {
  const f = PAYMENTS_LIST_FLAG_TABLE.read(raw);
  const { query: page, all } = readListFlags(raw, now);
  const query = pruned({
    customer_id: f.customerId,
    product: f.product,
    payment_status:
      f.status === undefined ? undefined : statusName('--status', f.status, PAYMENT_STATUSES, 'PAYMENT_STATUS_'),
    payment_ids: f.id,
    ref_ids: f.refId,
    ...page,
  });
  checkRequest(operations.listPayments, { query }, PAYMENTS_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, PAYMENT_COLUMNS) };
}
