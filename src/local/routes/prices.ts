// GET /v2/markets/{market}/historical-prices.
import type { Router } from '../router.js';
import { operations, type ListHistoricalPricesQuery, type Market } from '../../contract/index.js';
import { accept, serve, type Service } from '../route-helpers.js';
import { historicalPricesJson } from '../prices.js';

export function registerPrices(app: Router, svc: Service): void {
  serve(app, operations.listHistoricalPrices, async (req, reply) => {
    const { query, params } = accept<ListHistoricalPricesQuery, never, { market: Market }>(
      svc,
      operations.listHistoricalPrices,
      req,
    );
    reply.type('application/json; charset=utf-8');
    return historicalPricesJson(svc.seed, params.market, query, svc.clock.now());
  });
}
