// POST /v2/transfer/crypto-withdrawals and POST /v2/transfer/fees/crypto-withdrawal.
import type { Router } from '../router.js';
import { operations, type CreateCryptoWithdrawalFeeRequest, type CreateCryptoWithdrawalRequest, type Issue } from '../../api/index.js';
import { accept, type Service } from '../http.js';
import { createFeeQuote, createWithdrawal, precisionProblem } from '../ledger.js';

/** Too many decimals has its own named problem when it is the only thing wrong; other issues stay a plain 400. */
function throwPrecision(body: unknown, issues: Issue[]): void {
  if (!issues.every((i) => (i.field === 'amount' || i.field === 'total') && /decimals/.test(i.rule))) return;
  const p = body && typeof body === 'object' ? precisionProblem(body as Record<string, unknown>) : undefined;
  if (p) throw p;
}

export function registerWithdrawals(app: Router, svc: Service): void {
  app.post('/v2/transfer/crypto-withdrawals', async (req) => {
    const { body } = accept<never, CreateCryptoWithdrawalRequest>(svc, operations.createCryptoWithdrawal, req, throwPrecision);
    return createWithdrawal(svc, body);
  });

  app.post('/v2/transfer/fees/crypto-withdrawal', async (req) => {
    const { body, clientId } = accept<never, CreateCryptoWithdrawalFeeRequest>(svc, operations.createCryptoWithdrawalFee, req, throwPrecision);
    return createFeeQuote(svc, body, clientId);
  });
}
