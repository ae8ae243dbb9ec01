// POST /v2/transfer/internal: money between two profiles of one customer.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { createInternalTransfer } from '../internal-transfers.js';
import { serve, type Service } from '../route-helpers.js';
import { throwPrecision } from './withdrawals.js';

export function registerInternalTransfers(app: Router, svc: Service): void {
  serve(
    app,
    svc,
    operations.createInternalTransfer,
    async ({ body }) => createInternalTransfer(svc, body),
    throwPrecision,
  );
}
