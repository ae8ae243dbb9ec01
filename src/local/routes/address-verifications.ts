// GET, POST /v2/addresses/verifications; POST /v2/addresses/verifications/signature; GET .../{id}.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import {
  createVerification,
  expireDue,
  getVerification,
  submitSignature,
  verificationResource,
} from '../address-verifications.js';
import { listPage, one, serve, timeComparison, type Service } from '../route-helpers.js';

export function registerAddressVerifications(app: Router, svc: Service): void {
  serve(app, svc, operations.createVerification, async ({ body }) => createVerification(svc, body));

  serve(app, svc, operations.submitVerificationSignature, async ({ body }) => submitSignature(svc, body));

  serve(app, svc, operations.listVerifications, async ({ query: q }) => {
    expireDue(svc);
    return listPage(
      'address-verifications',
      q,
      {
        inFilters: {
          method: one(q.verification_method),
          status: one(q.status),
          network: one(q.network),
          address: one(q.address),
          // The local service's verifications prove by signature: none names a deposit address it was paid to.
          ...(q.deposit_address !== undefined ? { id: [] } : {}),
        },
        timeFilters: {
          created_ms: timeComparison(q, 'created_at'),
          updated_ms: timeComparison(q, 'updated_at'),
        },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listVerifications(lq),
      verificationResource,
    );
  });

  serve(app, svc, operations.getVerification, async ({ params }) => getVerification(svc, params.id));
}
