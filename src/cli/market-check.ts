// Markets named on the command line (prices, stream), held to the catalogue the way the service's policy says: the
// local service has exactly the catalogue's; another service has what it lists itself (GET /markets, kept a day in
// the data directory), and when it does not say, the market is sent with a note, for the service to decide.
import { MARKET_INFO } from '../contract/catalogue.js';
import { MARKETS } from '../contract/enums.js';
import { marketIssues } from '../contract/validate.js';
import { didYouMean } from '../contract/suggest.js';
import { checkUnlisted } from '../client/service-client.js';
import { serviceMarkets } from '../client/market-list.js';
import type { Ports } from './ports.js';
import { usageError } from './errors.js';
import { SEE_MARKETS } from './options.js';

const known = (m: string) => !!MARKET_INFO[m as keyof typeof MARKET_INFO];

/**
 * Refuses a market outside the catalogue against the local service, before anything is sent. Against another service
 * it connects and asks the service's list: a market it does not list is refused, one it lists is taken (no note).
 * `what` names the argument or flag (MARKET, --channel); `quiet` is connect()'s. The hint names coinop markets, which
 * lists them.
 */
export async function checkMarkets(
  { service, clock }: Pick<Ports, 'service' | 'clock'>,
  what: string,
  markets: string[],
  options: { quiet?: boolean; live?: boolean } = {},
): Promise<void> {
  const unknown = [...new Set(markets.filter((m) => !known(m)))];
  if (!unknown.length) return;
  const policy = service.catalogue();
  if (policy.authoritative)
    throw usageError(
      `${what}: "${unknown[0]}" is not a market${didYouMean(unknown[0], MARKETS) || ` (such as ${MARKETS.slice(0, 4).join(', ')})`}`,
      SEE_MARKETS,
    );
  const conn = await service.connect(options);
  // A service that does not answer the list (a custom server without it, a network error) leaves the market to it.
  const listed = await serviceMarkets({
    client: conn.client,
    serviceId: conn.serviceId,
    dataDir: service.dataDir(),
    now: clock.now(),
  }).then(
    (l) => ({ ...l, markets: l.markets.map((m) => m.market) }),
    () => undefined,
  );
  if (listed) {
    const missing = unknown.find((m) => !listed.markets.includes(m));
    if (missing)
      throw usageError(
        `${what}: "${missing}" is not a market of this service${didYouMean(missing, listed.markets) || ` (it lists ${listed.markets.length}: ${listed.markets.slice(0, 6).join(', ')}${listed.markets.length > 6 ? ', ...' : ''})`}`,
        `coinop markets lists them (the service's GET /markets${listed.from === 'service' ? '' : ` of ${new Date(listed.fetchedAt).toISOString()}`})`,
      );
    for (const m of unknown) policy.listed.add(m);
    return;
  }
  checkUnlisted(
    policy,
    unknown.flatMap((m) => marketIssues('market', m)),
    { market: what },
  );
}
