// GET /v2/markets/{market}/historical-prices.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { serve, type Service } from '../route-helpers.js';
import { historicalPricesJson } from '../prices.js';

export function registerPrices(app: Router, svc: Service): void {
  serve(app, svc, operations.listHistoricalPrices, async ({ query, params }, _req, reply) => {
    reply.type('application/json; charset=utf-8');
    return historicalPricesJson(svc.seed, params.market, query, svc.clock.now(), svc.store);
  });
}
