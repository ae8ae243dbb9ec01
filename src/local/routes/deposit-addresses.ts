// GET and POST /v2/transfer/deposit-addresses.
import type { Router } from '../router.js';
import { operations, type CreateDepositAddressRequest } from '../../contract/index.js';
import { createDepositAddress, depositAddressResource } from '../addresses.js';
import { accept, listPage, serve, timeComparison, type Service } from '../route-helpers.js';

export function registerDepositAddresses(app: Router, svc: Service): void {
  serve(app, operations.listDepositAddresses, async (req) => {
    const { query: q } = accept<Record<string, unknown>>(svc, operations.listDepositAddresses, req);
    const arr = (k: string) => q[k] as string[] | undefined;
    return listPage(
      'deposit-addresses',
      q,
      {
        inFilters: {
          profile_id: arr('profile_ids'),
          identity_id: arr('identity_ids'),
          account_id: arr('account_ids'),
          id: arr('ids'),
          ref_id: arr('ref_ids'),
          crypto_network: arr('networks'),
        },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listDepositAddresses(lq),
      depositAddressResource,
    );
  });

  serve(app, operations.createDepositAddress, async (req) => {
    const { body } = accept<never, CreateDepositAddressRequest>(svc, operations.createDepositAddress, req);
    return createDepositAddress(svc, body);
  });
}
