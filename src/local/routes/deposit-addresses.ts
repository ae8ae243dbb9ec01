// GET and POST /v2/transfer/deposit-addresses.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { createDepositAddress, depositAddressResource } from '../addresses.js';
import { listPage, serve, timeComparison, type Service } from '../route-helpers.js';

export function registerDepositAddresses(app: Router, svc: Service): void {
  serve(app, svc, operations.listDepositAddresses, async ({ query: q }) =>
    listPage(
      'deposit-addresses',
      q,
      {
        inFilters: {
          profile_id: q.profile_ids,
          identity_id: q.identity_ids,
          account_id: q.account_ids,
          id: q.ids,
          ref_id: q.ref_ids,
          crypto_network: q.networks,
        },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listDepositAddresses(lq),
      depositAddressResource,
    ),
  );

  serve(app, svc, operations.createDepositAddress, async ({ body }) => createDepositAddress(svc, body));
}
