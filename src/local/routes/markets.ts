// GET /v2/markets, /v2/markets/{market}/ticker, /order-book, /recent-executions and /v2/all-markets/prices: public
// market data (no scope; a token is welcome but not needed), from the simulated markets the stream serves.
import { formatIssues, MARKETS, operations, problems, type Market } from '../../contract/index.js';
import { marketsJson, orderBookJson, pricesJson, recentExecutionsJson, tickerJson } from '../market-data.js';
import { serve, type Service } from '../route-helpers.js';
import type { Router } from '../router.js';

const MARKET_SET = new Set<string>(MARKETS);

/** The contract takes any market symbol (the hosted service lists its own); this service serves its catalogue. */
function served(field: string, market: string): Market {
  if (MARKET_SET.has(market)) return market as Market;
  const issues = [{ field, rule: `${market} is not a market of this service (one of ${MARKETS.join(', ')})` }];
  throw problems.badRequest(formatIssues(issues), { issues });
}

export function registerMarkets(app: Router, svc: Service): void {
  serve(app, svc, operations.listMarkets, async () => marketsJson());

  serve(app, svc, operations.getOrderBook, async ({ params }) =>
    orderBookJson(svc.exchange.current(served('market', params.market))),
  );

  serve(app, svc, operations.getTicker, async ({ params }) => {
    const sim = svc.exchange.current(served('market', params.market));
    return tickerJson(sim, svc.seed, svc.clock.now());
  });

  serve(app, svc, operations.listRecentExecutions, async ({ params }) =>
    recentExecutionsJson(svc.exchange.current(served('market', params.market))),
  );

  serve(app, svc, operations.listPrices, async ({ query }) => {
    const markets = query.markets.map((m) => served('markets', m));
    return pricesJson(svc.exchange, svc.seed, markets, svc.clock.now());
  });
}
