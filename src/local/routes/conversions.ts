// GET, POST /v2/conversion/stablecoins; GET, DELETE /v2/conversion/stablecoins/{id}.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { cancelConversion, createConversion, getConversion } from '../conversions.js';
import { conversionResource } from '../conversion-states.js';
import { settleDue } from '../ledger.js';
import { listPage, serve, type Service } from '../route-helpers.js';
import type { TimeComparison } from '../store.js';

/** The OpenAPI's .begin and .end filters of a time (both inclusive). */
function between(query: Record<string, unknown>, prefix: string): TimeComparison | undefined {
  const begin = query[`${prefix}.begin`];
  const end = query[`${prefix}.end`];
  if (typeof begin !== 'string' && typeof end !== 'string') return undefined;
  return {
    ...(typeof begin === 'string' ? { gte: Date.parse(begin) } : {}),
    ...(typeof end === 'string' ? { lte: Date.parse(end) } : {}),
  };
}

export function registerConversions(app: Router, svc: Service): void {
  serve(app, svc, operations.createStablecoinConversion, async ({ body }) => createConversion(svc, body));

  serve(app, svc, operations.listStablecoinConversions, async ({ query: q }) => {
    settleDue(svc);
    return listPage(
      'conversions',
      q,
      {
        inFilters: {
          profile_id: q.profile_id !== undefined ? [q.profile_id] : undefined,
          ref_id: q.ref_id !== undefined ? [q.ref_id] : undefined,
        },
        timeFilters: { created_ms: between(q, 'created_at'), updated_ms: between(q, 'updated_at') },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listConversions(lq),
      conversionResource,
    );
  });

  serve(app, svc, operations.getStablecoinConversion, async ({ params }) => getConversion(svc, params.id));

  serve(app, svc, operations.cancelStablecoinConversion, async ({ params }) => cancelConversion(svc, params.id));
}
