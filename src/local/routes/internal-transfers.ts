// POST /v2/transfer/internal: money between two profiles of one customer; POST /v2/transfer/paxos: to a profile of
// another customer of the service.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { createInternalTransfer, createPaxosTransfer } from '../internal-transfers.js';
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
  serve(app, svc, operations.createPaxosTransfer, async ({ body }) => createPaxosTransfer(svc, body), throwPrecision);
}
