// POST /v2/transfer/internal: money between two profiles of one customer.
import type { Router } from '../router.js';
import { operations, type CreateInternalTransferRequest } from '../../contract/index.js';
import { createInternalTransfer } from '../internal-transfers.js';
import { accept, serve, type Service } from '../route-helpers.js';
import { throwPrecision } from './withdrawals.js';

export function registerInternalTransfers(app: Router, svc: Service): void {
  serve(app, operations.createInternalTransfer, async (req) => {
    const { body } = accept<never, CreateInternalTransferRequest>(
      svc,
      operations.createInternalTransfer,
      req,
      throwPrecision,
    );
    return createInternalTransfer(svc, body);
  });
}
