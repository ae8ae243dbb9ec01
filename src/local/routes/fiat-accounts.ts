// GET, POST /v2/transfer/fiat-accounts; GET, PUT, DELETE /v2/transfer/fiat-accounts/{id};
// POST /v2/transfer/fiat-withdrawals.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import {
  createFiatAccount,
  createFiatWithdrawal,
  deleteFiatAccount,
  fiatAccountResource,
  getFiatAccount,
  updateFiatAccount,
} from '../fiat-accounts.js';
import { listPage, serve, timeComparison, type Service } from '../route-helpers.js';

export function registerFiatAccounts(app: Router, svc: Service): void {
  serve(app, svc, operations.createFiatAccount, async ({ body }) => createFiatAccount(svc, body));

  serve(app, svc, operations.listFiatAccounts, async ({ query: q }) => {
    const now = svc.clock.now();
    return listPage(
      'fiat-accounts',
      q,
      {
        inFilters: { id: q.ids, ref_id: q.ref_ids, ...(q.include_deleted ? {} : { deleted: [0] }) },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listFiatAccounts(lq),
      (row) => fiatAccountResource(row, now, false),
    );
  });

  serve(app, svc, operations.getFiatAccount, async ({ params, query }) =>
    getFiatAccount(svc, params.id, query.include_deleted === true),
  );

  serve(app, svc, operations.updateFiatAccount, async ({ params, body }) => updateFiatAccount(svc, params.id, body));

  serve(app, svc, operations.deleteFiatAccount, async ({ params }) => deleteFiatAccount(svc, params.id));

  serve(app, svc, operations.createFiatWithdrawal, async ({ body }) => createFiatWithdrawal(svc, body));
}
