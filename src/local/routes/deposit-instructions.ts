// POST and GET /v2/transfer/fiat-deposit-instructions, GET /v2/transfer/fiat-deposit-instructions/{id}.
import type { Router } from '../router.js';
import { operations, problems } from '../../contract/index.js';
import { createDepositInstructions, depositInstructionsOf } from '../deposit-instructions.js';
import { serve, listPage, timeComparison, type Service } from '../route-helpers.js';

export function registerDepositInstructions(app: Router, svc: Service): void {
  serve(app, svc, operations.createFiatDepositInstructions, async ({ body }) => createDepositInstructions(svc, body));

  serve(app, svc, operations.listFiatDepositInstructions, async ({ query: q }) =>
    listPage(
      'fiat-deposit-instructions',
      q,
      {
        inFilters: { id: q.ids, ref_id: q.ref_ids },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listDepositInstructions(lq),
      (row) => depositInstructionsOf(svc, row),
    ),
  );

  serve(app, svc, operations.getFiatDepositInstructions, async ({ params }) => {
    const row = svc.store.depositInstructions(params.id);
    if (!row) throw problems.notFound(`fiat deposit instructions with id ${params.id} not found`);
    return depositInstructionsOf(svc, row);
  });
}
