// GET /v2/markets, /v2/markets/{market}/ticker, /order-book, /recent-executions and /v2/all-markets/prices: public
// market data (no scope; a token is welcome but not needed), from the simulated markets the stream serves.
import {
  formatIssues,
  MARKETS,
  operations,
  problems,
  type ListPricesQuery,
  type Market,
} from '../../contract/index.js';
import { marketsJson, orderBookJson, pricesJson, recentExecutionsJson, tickerJson } from '../market-data.js';
import { accept, serve, type Service } from '../route-helpers.js';
import type { Router } from '../router.js';

const MARKET_SET = new Set<string>(MARKETS);

/** The contract takes any market symbol (the hosted service lists its own); this service serves its catalogue. */
function served(field: string, market: string): Market {
  if (MARKET_SET.has(market)) return market as Market;
  const issues = [{ field, rule: `${market} is not a market of this service (one of ${MARKETS.join(', ')})` }];
  throw problems.badRequest(formatIssues(issues), { issues });
}

export function registerMarkets(app: Router, svc: Service): void {
  serve(app, operations.listMarkets, async (req) => {
    accept(svc, operations.listMarkets, req);
    return marketsJson();
  });

  serve(app, operations.getOrderBook, async (req) => {
    const { params } = accept<never, never, { market: string }>(svc, operations.getOrderBook, req);
    return orderBookJson(svc.exchange.current(served('market', params.market)));
  });

  serve(app, operations.getTicker, async (req) => {
    const { params } = accept<never, never, { market: string }>(svc, operations.getTicker, req);
    const sim = svc.exchange.current(served('market', params.market));
    return tickerJson(sim, svc.seed, svc.clock.now());
  });

  serve(app, operations.listRecentExecutions, async (req) => {
    const { params } = accept<never, never, { market: string }>(svc, operations.listRecentExecutions, req);
    return recentExecutionsJson(svc.exchange.current(served('market', params.market)));
  });

  serve(app, operations.listPrices, async (req) => {
    const { query } = accept<ListPricesQuery>(svc, operations.listPrices, req);
    const markets = query.markets.map((m) => served('markets', m));
    return pricesJson(svc.exchange, svc.seed, markets, svc.clock.now());
  });
}
