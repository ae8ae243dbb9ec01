// The market data answers of the local service against the hosted service's OpenAPI, checked by openapi-backend (an
// independent validator): every answer of GET /markets, ticker, order-book, recent-executions and all-markets/prices
// validates. One documented difference: the OpenAPI's `market` enumerations (three different lists across these
// paths) lack some markets of spec/SERVICE.md's Market enumeration, which the local service serves (ETHGBP...).
// For those, the one error allowed is that enum at a `market` field; markets the OpenAPI lists validate outright.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETS } from '../../src/contract/enums.js';
import { operationOf, requestViolations, responseViolations } from '../support/openapi.js';
import { harness, type Harness } from './helpers.js';

const SERVICE_MARKETS = new Set<string>(MARKETS);

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** The value at a JSON pointer of the body. */
function at(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<any>((v, k) => (v === undefined ? undefined : v[k]), body);
}

const ENUM = / (\/\S*) must be equal to one of the allowed values$/;

/** The one allowed violation: a spec/SERVICE.md market that the OpenAPI's enumeration at a `market` field omits. */
function outsideEnum(violation: string, valueAt: (pointer: string) => unknown): boolean {
  const pointer = ENUM.exec(violation)?.[1];
  return pointer !== undefined && /(^|\/)market$/.test(pointer) && SERVICE_MARKETS.has(String(valueAt(pointer)));
}

/**
 * GETs a path without a token (read directly: the harness would hold a spec/SERVICE.md-only market to the OpenAPI's
 * enumeration); the request must match the OpenAPI's parameters and the answer its 200 schema, but for that enum.
 */
async function check(path: string): Promise<{ body: any; errors: string[] }> {
  expect(operationOf('GET', path), path).toBeTruthy();
  const market = /^\/v2\/markets\/([^/?]+)/.exec(path)?.[1];
  const reqAll = requestViolations('GET', path);
  const req = reqAll.filter((v) => !outsideEnum(v.replace('/path/', '/'), () => market));
  expect(req, `request ${path}`).toEqual([]);
  const r = await fetch(h.svc.baseUrl + path);
  expect(r.status, path).toBe(200);
  const body = await r.json();
  const resAll = responseViolations('GET', path, 200, body, r.headers.get('content-type'));
  const res = resAll.filter((v) => !outsideEnum(v, (pointer) => at(body, pointer)));
  expect(res, path).toEqual([]);
  return { body, errors: [...reqAll, ...resAll] };
}

describe('market data answers validate against the OpenAPI (openapi-backend)', () => {
  it('the checker catches a broken answer', () => {
    const book = { market: 'BTCUSD', bids: [{ price: 1 }] };
    expect(responseViolations('GET', '/v2/markets/BTCUSD/order-book', 200, book)).not.toEqual([]);
    expect(responseViolations('GET', '/v2/markets/BTCUSD/recent-executions', 200, { items: 'none' })).not.toEqual([]);
    expect(responseViolations('GET', '/v2/markets/BTCUSD/ticker', 200, { snapshot_at: 'today' })).not.toEqual([]);
    expect(requestViolations('GET', '/v2/all-markets/prices')).not.toEqual([]);
    // A market outside the OpenAPI's enumeration is the one exception, and only at a `market` field.
    const other = responseViolations('GET', '/v2/markets/BTCUSD/order-book', 200, { market: 'MATICUSD' });
    expect(other.length).toBeGreaterThan(0);
    expect(other.every((v) => outsideEnum(v, () => 'MATICUSD'))).toBe(true);
  });

  it('GET /markets', async () => {
    const { body } = await check('/v2/markets');
    expect(body.markets).toHaveLength(MARKETS.length);
  });

  it('order book, ticker and recent executions of markets the OpenAPI lists validate without exception', async () => {
    for (const m of ['BTCUSD', 'ETHUSD', 'PAXGUSD', 'USDPUSD']) {
      for (const p of ['order-book', 'ticker', 'recent-executions']) {
        const { errors } = await check(`/v2/markets/${m}/${p}`);
        expect(errors, `${m} ${p}`).toEqual([]);
      }
    }
  });

  it('every market of the service: order book, ticker, recent executions', async () => {
    for (const m of MARKETS)
      for (const p of ['order-book', 'ticker', 'recent-executions']) await check(`/v2/markets/${m}/${p}`);
  });

  it('all-markets prices', async () => {
    const { body, errors } = await check('/v2/all-markets/prices?markets=BTCUSD&markets=ETHUSD&markets=LINKUSD');
    expect(errors).toEqual([]);
    expect(body.items).toHaveLength(3);
  });
});
