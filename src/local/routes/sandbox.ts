// POST /v2/sandbox/fiat-deposits: a simulated incoming wire, credited to the profile that owns memo_id.
import type { Router } from '../router.js';
import { operations, type InitiateSandboxFiatDepositRequest } from '../../contract/index.js';
import { accept, serve, type Service } from '../route-helpers.js';
import { sandboxDeposit } from '../ledger.js';

export function registerSandbox(app: Router, svc: Service): void {
  serve(app, operations.initiateSandboxFiatDeposit, async (req) => {
    const { body } = accept<never, InitiateSandboxFiatDepositRequest>(svc, operations.initiateSandboxFiatDeposit, req);
    sandboxDeposit(svc, body);
    return {};
  });
}
