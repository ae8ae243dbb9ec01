// coinop statements list and coinop statements payments: the service's monthly statements (USDG rewards: what is
// owed and what was paid) and the payments that settle them. Reads only.
import type { Statement } from '../../contract/index.js';
import { listFooter } from '../../cli/list-flags.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import type { Paging } from '../../client/service-client.js';
import { PAYMENT_COLUMNS, STATEMENT_COLUMNS } from '../../render/columns.js';
import type { Column } from '../../render/table.js';
import { PAYMENTS_FLAGS, STATEMENTS_FLAGS, type StatementListOptions } from './options.js';

/** A statement with its month and first balance flat, for the table and CSV. */
const flat = (statement: Statement) => {
  const b = statement.statement_balances?.[0];
  return {
    ...statement,
    period: statement.period_start.slice(0, 7),
    asset: b?.asset,
    owed: b?.total_amount_owed,
    paid: b?.amount_paid,
  };
};

async function* flatItems(items: AsyncIterable<Statement>) {
  for await (const item of items) yield flat(item);
}

/** One list, a page or every page, in the chosen format, with its footer. */
async function listOf<T extends object>(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: StatementListOptions,
  read: (conn: Connection, paging: Paging) => AsyncIterable<T>,
  view: {
    columns: Column[];
    empty: string;
    names: [string, string];
    shape?: (items: AsyncIterable<T>) => AsyncIterable<object>;
  },
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = read(conn, paging);
  const rows = view.shape && (out.format === 'table' || out.format === 'csv') ? view.shape(items) : items;
  const n = await out.list(rows, view.columns, { empty: view.empty });
  listFooter(display, out, n, view.names, options.all ? undefined : paging.next);
}

export function listStatements(
  ports: Pick<Ports, 'display' | 'service'>,
  options: StatementListOptions,
): Promise<void> {
  return listOf(
    ports,
    options,
    (conn, paging) =>
      conn.client.items('listStatements', { query: options.query }, STATEMENTS_FLAGS, options.all, paging),
    {
      columns: STATEMENT_COLUMNS,
      empty: 'no statements match (a month is stated once it is over)',
      names: ['statement', 'statements'],
      shape: flatItems,
    },
  );
}

export function listPayments(ports: Pick<Ports, 'display' | 'service'>, options: StatementListOptions): Promise<void> {
  return listOf(
    ports,
    options,
    (conn, paging) => conn.client.items('listPayments', { query: options.query }, PAYMENTS_FLAGS, options.all, paging),
    { columns: PAYMENT_COLUMNS, empty: 'no payments match', names: ['payment', 'payments'] },
  );
}
