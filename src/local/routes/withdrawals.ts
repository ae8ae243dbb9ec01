// POST /v2/transfer/crypto-withdrawals and POST /v2/transfer/fees/crypto-withdrawal.
import type { Router } from '../router.js';
import { operations, type Issue } from '../../contract/index.js';
import { serve, type Service } from '../route-helpers.js';
import { createFeeQuote, createWithdrawal, precisionProblem } from '../ledger.js';

/**
 * Too many decimals has its own named problem when it is the only thing wrong; other issues stay a plain 400 (also
 * for internal transfers).
 */
export function throwPrecision(body: unknown, issues: Issue[]): void {
  if (!issues.every((i) => (i.field === 'amount' || i.field === 'total') && /decimals/.test(i.rule))) return;
  const p = body && typeof body === 'object' ? precisionProblem(body as Record<string, unknown>) : undefined;
  if (p) throw p;
}

export function registerWithdrawals(app: Router, svc: Service): void {
  serve(app, svc, operations.createCryptoWithdrawal, async ({ body }) => createWithdrawal(svc, body), throwPrecision);

  serve(
    app,
    svc,
    operations.createCryptoWithdrawalFee,
    async ({ body, clientId }) => createFeeQuote(svc, body, clientId),
    throwPrecision,
  );
}
