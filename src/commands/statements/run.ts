// coinop statements list and coinop statements payments: the service's monthly statements (USDG rewards: what is
// owed and what was paid) and the payments that settle them. Reads only.
import type { Statement } from '../../contract/index.js';
import { listFooter } from '../../cli/list-flags.js';
import type { Ports } from '../../cli/ports.js';
import type { Paging } from '../../client/service-client.js';
import { PAYMENT_COLUMNS, STATEMENT_COLUMNS } from '../../render/columns.js';
import { PAYMENTS_FLAGS, STATEMENTS_FLAGS, type StatementListOptions } from './options.js';

/** A statement with its month and first balance flat, for the table and CSV. */
const flat = (s: Statement) => {
  const b = s.statement_balances?.[0];
  return {
    ...s,
    period: s.period_start.slice(0, 7),
    asset: b?.asset,
    owed: b?.total_amount_owed,
    paid: b?.amount_paid,
  };
};

async function* flatItems(items: AsyncIterable<Statement>) {
  for await (const item of items) yield flat(item);
}

export async function listStatements(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: StatementListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = conn.client.items('listStatements', { query: options.query }, STATEMENTS_FLAGS, options.all, paging);
  const rows = out.format === 'table' || out.format === 'csv' ? flatItems(items) : items;
  const n = await out.list(rows, STATEMENT_COLUMNS, {
    empty: 'no statements match (a month is stated once it is over)',
  });
  listFooter(display, out, n, ['statement', 'statements'], options.all ? undefined : paging.next);
}

export async function listPayments(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: StatementListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = conn.client.items('listPayments', { query: options.query }, PAYMENTS_FLAGS, options.all, paging);
  const n = await out.list(items, PAYMENT_COLUMNS, { empty: 'no payments match' });
  listFooter(display, out, n, ['payment', 'payments'], options.all ? undefined : paging.next);
}
