// GET /v2/transfer/limits/utilizations, and the rules behind it in the control API: GET and PUT /_local/limits; the
// network fees in the control API: GET and PUT /_local/fees.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { putFees, setFees } from '../fees.js';
import { limitRules, limitUtilizations, setLimitRules } from '../transfer-limits.js';
import { settleDue } from '../ledger.js';
import { serve, type Service } from '../route-helpers.js';

export function registerLimits(app: Router, svc: Service): void {
  serve(app, svc, operations.listTransferLimits, async ({ query }) => {
    // A withdrawal that failed since is refunded and no longer counts.
    settleDue(svc);
    return { items: limitUtilizations(svc, query.transfer_type) };
  });

  app.get('/_local/limits', async () => ({ rules: limitRules(svc) }));
  app.put('/_local/limits', async (req) => ({ rules: setLimitRules(svc, req.body) }));
  // The network fees quotes and withdrawals pay: the catalogue's, unless set here (fees.ts).
  app.get('/_local/fees', async () => ({ fees: setFees(svc) }));
  app.put('/_local/fees', async (req) => ({ fees: putFees(svc, req.body) }));
}
