// GET /v2/statements and GET /v2/statements/payments: the monthly statements (statements.ts makes them from the
// ledger as their months end) and the payments that settle them.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { bringStatementsUpToDate, paymentResource, statementResource } from '../statements.js';
import { listPage, one, serve, type Service } from '../route-helpers.js';

export function registerStatements(app: Router, svc: Service): void {
  serve(app, svc, operations.listStatements, async ({ query: q }) => {
    bringStatementsUpToDate(svc);
    const { items, next_page_cursor } = listPage(
      'statements',
      q,
      {
        inFilters: {
          customer_id: one(q.customer_id),
          ref_id: q.ref_ids,
          id: q.statement_ids,
          status: q.statuses,
        },
        timeFilters: {},
        // Generated the 2nd of the month after their period: creation orders them as their period starts do.
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listStatements(lq),
      statementResource,
    );
    return { statements: items, ...(next_page_cursor ? { next_page_cursor } : {}) };
  });

  serve(app, svc, operations.listPayments, async ({ query: q }) => {
    bringStatementsUpToDate(svc);
    const { items, next_page_cursor } = listPage(
      'statement-payments',
      q,
      {
        inFilters: {
          ref_id: q.ref_ids,
          id: q.payment_ids,
          customer_id: one(q.customer_id),
          product: one(q.product),
          status: one(q.payment_status),
        },
        timeFilters: {},
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listStatementPayments(lq),
      paymentResource,
    );
    return { payments: items, ...(next_page_cursor ? { next_page_cursor } : {}) };
  });
}
