// POST /v2/transfer/crypto-withdrawals and POST /v2/transfer/fees/crypto-withdrawal.
import type { FastifyInstance } from 'fastify';
import { operations, type CreateCryptoWithdrawalFeeRequest, type CreateCryptoWithdrawalRequest } from '../../api/index.js';
import { accept, type Service } from '../http.js';
import { createFeeQuote, createWithdrawal, precisionProblem } from '../ledger.js';

/** Too many decimals has its own named problem; other issues stay a plain 400. */
function throwPrecision(body: unknown): void {
  const p = body && typeof body === 'object' ? precisionProblem(body as Record<string, unknown>) : undefined;
  if (p) throw p;
}

export function registerWithdrawals(app: FastifyInstance, svc: Service): void {
  app.post('/v2/transfer/crypto-withdrawals', async (req) => {
    const { body } = accept<never, CreateCryptoWithdrawalRequest>(svc, operations.createCryptoWithdrawal, req, throwPrecision);
    return createWithdrawal(svc, body);
  });

  app.post('/v2/transfer/fees/crypto-withdrawal', async (req) => {
    const { body, clientId } = accept<never, CreateCryptoWithdrawalFeeRequest>(svc, operations.createCryptoWithdrawalFee, req, throwPrecision);
    return createFeeQuote(svc, body, clientId);
  });
}
