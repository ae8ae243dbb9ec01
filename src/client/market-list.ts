// The markets a command may name: the CLI's catalogue, plus what GET /v2/markets lists. A service other than the local
// one may list markets the catalogue lacks; its list is kept per service in the data directory and fetched again once
// it is a day old (should that fail, the old list still serves, and says so).
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { catalogueMarket } from '../contract/catalogue.js';
import { MARKETS } from '../contract/enums.js';
import type { ListMarketsResponse, MarketDetails } from '../contract/schemas.js';
import { writeFileAtomic } from '../config/lock.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { ServiceClient } from './service-client.js';

/** How long a service's market list is used before it is fetched again. */
export const MARKET_LIST_MAX_AGE_MS = 24 * 3600_000;

export interface ServiceMarkets {
  markets: MarketDetails[];
  /** When the service answered with this list. */
  fetchedAt: number;
  /** Where the list came from now: the service itself, the cache, or an old cache because the service failed. */
  from: 'service' | 'cache' | 'stale cache';
}

interface CacheFile {
  service_id: string;
  fetched_at: number;
  markets: MarketDetails[];
}

/** The cache file of one service: named by a hash of its id (an address is no file name). */
export function marketCacheFile(dataDir: string, serviceId: string): string {
  // @noble/hashes (which the address codecs load anyway): node:crypto would cost every `coinop prices` its load.
  const name = bytesToHex(sha256(utf8ToBytes(serviceId))).slice(0, 32);
  return join(dataDir, 'markets', `${name}.json`);
}

/** The entries of an answer that name a market; the rest of an entry is kept as the service sent it. */
function marketsOf(data: ListMarketsResponse): MarketDetails[] {
  return (Array.isArray(data.markets) ? data.markets : []).filter(
    (m): m is MarketDetails => !!m && typeof m === 'object' && typeof m.market === 'string' && m.market !== '',
  );
}

function readCache(file: string, serviceId: string): CacheFile | undefined {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    if (c?.service_id !== serviceId || typeof c.fetched_at !== 'number' || !Array.isArray(c.markets)) return undefined;
    return { ...c, markets: marketsOf(c) };
  } catch {
    // Missing, unreadable or damaged: as if there were none (it is only a cache).
    return undefined;
  }
}

/** GET /v2/markets, fresh. */
export async function fetchMarkets(client: ServiceClient): Promise<MarketDetails[]> {
  return marketsOf((await client.call('listMarkets')).data);
}

/** A service's market list: the cache while it is younger than a day (unless `refresh`), else fetched and kept. */
export async function serviceMarkets(options: {
  client: ServiceClient;
  serviceId: string;
  dataDir: string;
  now: number;
  refresh?: boolean;
}): Promise<ServiceMarkets> {
  const file = marketCacheFile(options.dataDir, options.serviceId);
  const cached = readCache(file, options.serviceId);
  const age = cached ? options.now - cached.fetched_at : Infinity;
  if (cached && !options.refresh && age >= 0 && age < MARKET_LIST_MAX_AGE_MS)
    return { markets: cached.markets, fetchedAt: cached.fetched_at, from: 'cache' };
  let markets: MarketDetails[];
  try {
    markets = await fetchMarkets(options.client);
  } catch (e) {
    if (cached) return { markets: cached.markets, fetchedAt: cached.fetched_at, from: 'stale cache' };
    throw e;
  }
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const body: CacheFile = { service_id: options.serviceId, fetched_at: options.now, markets };
    writeFileAtomic(file, `${JSON.stringify(body)}\n`);
  } catch {
    // A read-only data directory costs a fetch next time, nothing more.
  }
  return { markets, fetchedAt: options.now, from: 'service' };
}

/** The catalogue's markets, each with the service's details where it lists it, then the markets only it lists. */
export function mergeMarkets(service: MarketDetails[] = []): MarketDetails[] {
  const listed = new Map(service.map((m) => [m.market, m]));
  const out: MarketDetails[] = MARKETS.map((m) => ({ ...catalogueMarket(m), ...listed.get(m) }));
  const known = new Set<string>(MARKETS);
  for (const m of listed.values()) {
    if (known.has(m.market)) continue;
    known.add(m.market);
    out.push(m);
  }
  return out;
}
