// POST and GET /v2/transfer/fiat-deposit-instructions, GET /v2/transfer/fiat-deposit-instructions/{id}.
import type { Router } from '../router.js';
import { operations, problems, type CreateFiatDepositInstructionsRequest } from '../../contract/index.js';
import { createDepositInstructions, depositInstructionsOf } from '../deposit-instructions.js';
import { accept, serve, listPage, timeComparison, type Service } from '../route-helpers.js';

export function registerDepositInstructions(app: Router, svc: Service): void {
  serve(app, operations.createFiatDepositInstructions, async (req) => {
    const { body } = accept<never, CreateFiatDepositInstructionsRequest>(
      svc,
      operations.createFiatDepositInstructions,
      req,
    );
    return createDepositInstructions(svc, body);
  });

  serve(app, operations.listFiatDepositInstructions, async (req) => {
    const { query: q } = accept<Record<string, unknown>>(svc, operations.listFiatDepositInstructions, req);
    return listPage(
      'fiat-deposit-instructions',
      q,
      {
        inFilters: { id: q.ids as string[] | undefined, ref_id: q.ref_ids as string[] | undefined },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listDepositInstructions(lq),
      (row) => depositInstructionsOf(svc, row),
    );
  });

  serve(app, operations.getFiatDepositInstructions, async (req) => {
    const { params } = accept<never, never, { id: string }>(svc, operations.getFiatDepositInstructions, req);
    const row = svc.store.depositInstructions(params.id);
    if (!row) throw problems.notFound(`fiat deposit instructions with id ${params.id} not found`);
    return depositInstructionsOf(svc, row);
  });
}
