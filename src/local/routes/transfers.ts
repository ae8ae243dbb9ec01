// GET /v2/transfer/transfers and GET /v2/transfer/transfers/{id}.
import type { Router } from '../router.js';
import { openApiTransferType, operations, problems } from '../../contract/index.js';
import { listPage, serve, timeComparison, type Service } from '../route-helpers.js';
import { settleDue, transferResource } from '../ledger.js';

export function registerTransfers(app: Router, svc: Service): void {
  serve(app, svc, operations.listTransfers, async ({ query: q }) => {
    settleDue(svc);
    return listPage(
      'transfers',
      q,
      {
        inFilters: {
          id: q.ids,
          ref_id: q.ref_ids,
          profile_id: q.profile_ids,
          identity_id: q.identity_ids,
          // Kept in the transfer's body only: the store filters on the stored resource.
          account_id: q.account_ids,
          // spec/SERVICE.md's PLATFORM_TRANSFER_* are the OpenAPI's PAXOS_TRANSFER_*, which transfers to another customer are.
          type: q.type && [...new Set(q.type.map(openApiTransferType))],
          status: q.statuses,
          secondary_status: q.secondary_statuses,
          crypto_tx_hash: q.crypto_tx_hashes,
          group_id: q.group_ids,
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

  serve(app, svc, operations.getTransfer, async ({ params }) => {
    settleDue(svc);
    const row = svc.store.transfer(params.id);
    if (!row) throw problems.notFound(`transfer not found with id ${params.id}`);
    return transferResource(row);
  });
}
