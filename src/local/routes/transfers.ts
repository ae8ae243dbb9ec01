// GET /v2/transfer/transfers and GET /v2/transfer/transfers/{id}.
import type { Router } from '../router.js';
import { operations, problems } from '../../contract/index.js';
import { accept, listPage, serve, timeComparison, type Service } from '../route-helpers.js';
import { settleDue, transferResource } from '../ledger.js';

export function registerTransfers(app: Router, svc: Service): void {
  serve(app, operations.listTransfers, async (req) => {
    const { query: q } = accept<Record<string, unknown>>(svc, operations.listTransfers, req);
    settleDue(svc);
    const arr = (k: string) => q[k] as string[] | undefined;
    return listPage(
      'transfers',
      q,
      {
        inFilters: {
          id: arr('ids'),
          ref_id: arr('ref_ids'),
          profile_id: arr('profile_ids'),
          identity_id: arr('identity_ids'),
          // Kept in the transfer's body only: filtered on the stored resource.
          "json_extract(body, '$.account_id')": arr('account_ids'),
          type: arr('type'),
          status: arr('statuses'),
          "json_extract(body, '$.secondary_status.name')": arr('secondary_statuses'),
          crypto_tx_hash: arr('crypto_tx_hashes'),
          group_id: arr('group_ids'),
        },
        timeFilters: { created_ms: timeComparison(q, 'created_at'), updated_ms: timeComparison(q, 'updated_at') },
        sortColumn: q.order_by === 'UPDATED_AT' ? 'updated_ms' : 'created_ms',
        // The OpenAPI: ascending by default when ordered by update time (the polling order), else descending.
        defaultOrder: q.order_by === 'UPDATED_AT' ? 'ASC' : 'DESC',
      },
      (lq) => svc.store.listTransfers(lq),
      transferResource,
    );
  });

  serve(app, operations.getTransfer, async (req) => {
    const { params } = accept<never, never, { id: string }>(svc, operations.getTransfer, req);
    settleDue(svc);
    const row = svc.store.transfer(params.id);
    if (!row) throw problems.notFound(`transfer not found with id ${params.id}`);
    return transferResource(row);
  });
}
