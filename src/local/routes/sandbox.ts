// POST /v2/sandbox/fiat-deposits: a simulated incoming wire, credited to the profile that owns memo_id.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { serve, type Service } from '../route-helpers.js';
import { sandboxDeposit } from '../ledger.js';

export function registerSandbox(app: Router, svc: Service): void {
  serve(app, svc, operations.initiateSandboxFiatDeposit, async ({ body }) => {
    sandboxDeposit(svc, body);
    return {};
  });
}
