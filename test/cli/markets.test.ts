// coinop markets, ticker, book and trades against the local service: public requests (no token is fetched), every
// output format, the side-by-side book, newest trades first, and bad input refused before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETS } from '../../src/contract/enums.js';
import { sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb?.close());

describe('market data commands', () => {
  it('markets: the catalogue with the service details, as JSON, CSV and a table', async () => {
    await sb.sent();
    const r = await sb.runIn(['markets']);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout);
    expect(list.map((m: any) => m.market)).toEqual([...MARKETS]);
    expect(list.find((m: any) => m.market === 'USDPUSD')).toMatchObject({
      base_asset: 'USDP',
      quote_asset: 'USD',
      tick_rate: '0.0001',
      min_base_amount: '0.01',
      market_status: { buy_status: 'AVAILABLE', sell_status: 'AVAILABLE' },
    });
    // Public: no token was asked for, the service was asked for nothing else.
    expect((await sb.sent()).map((e) => `${e.method} ${e.url}`)).toEqual(['GET /v2/markets']);
    const csv = await sb.runIn(['markets', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'market,base_asset,quote_asset,tick_rate,min_base_amount,market_status.buy_status,market_status.sell_status',
    );
    const table = await sb.runIn(['markets', '-o', 'table']);
    expect(table.stdout.split('\n')[0].split(/\s+/)).toEqual([
      'MARKET',
      'BASE',
      'QUOTE',
      'TICK',
      'MIN',
      'AMOUNT',
      'BUY',
      'SELL',
    ]);
    expect(table.stderr).toContain(`${MARKETS.length} markets`);
  });

  it('ticker: best prices, last trade and the windows; a key/value table for people', async () => {
    const r = await sb.runIn(['ticker', 'ethusd']);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t.market).toBe('ETHUSD');
    expect(Number(t.best_bid.price)).toBeLessThan(Number(t.best_ask.price));
    expect(t.last_execution.price).toMatch(/^\d+\.\d{2}$/);
    expect(Object.keys(t.last_day)).toEqual(
      expect.arrayContaining(['open', 'high', 'low', 'volume', 'volume_weighted_average_price', 'range']),
    );
    const table = await sb.runIn(['ticker', 'ETHUSD', '-o', 'table']);
    const keys = table.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s{2,}/)[0]);
    expect(keys).toEqual(['market', 'bid', 'ask', 'spread', 'last', '24 h', 'today', 'as of']);
    expect(table.stdout).toMatch(/^spread\s+\d+\.\d+ \(\d+\.\d{2} bp\)$/m);
    expect(table.stdout).toMatch(
      /^24 h\s+open \d+\.\d{2} · high \d+\.\d{2} · low \d+\.\d{2} · [+-]\d+\.\d{2}% to last/m,
    );
    const csv = await sb.runIn(['ticker', 'ETHUSD', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^market,best_bid.price,best_bid.amount,best_ask.price,/);
  });

  it('book: --depth levels per side, best first; bids and asks side by side, labelled', async () => {
    const r = await sb.runIn(['book', 'BTCUSD', '--depth', '3']);
    expect(r.code, r.stderr).toBe(0);
    const b = JSON.parse(r.stdout);
    expect(b.market).toBe('BTCUSD');
    expect(b.bids).toHaveLength(3);
    expect(b.asks).toHaveLength(3);
    const bids = b.bids.map((l: any) => Number(l.price));
    const asks = b.asks.map((l: any) => Number(l.price));
    expect([...bids].sort((x, y) => y - x)).toEqual(bids);
    expect([...asks].sort((x, y) => x - y)).toEqual(asks);
    expect(bids[0]).toBeLessThan(asks[0]);
    const table = await sb.runIn(['book', 'BTCUSD', '--depth', '2', '-o', 'table']);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['LEVEL', 'BID AMOUNT', 'BID PRICE', 'ASK PRICE', 'ASK AMOUNT']);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^1\s+[\d,]+\.\d{8}\s+\d{1,3}(,\d{3})*\.\d{2}\s+\d{1,3}(,\d{3})*\.\d{2}\s+[\d,]+\.\d{8}$/);
    expect(table.stderr).toMatch(
      /BTCUSD · spread \d+\.\d+ \(\d+\.\d{2} bp\) · 2 of \d+ bids, 2 of \d+ asks · --depth for more/,
    );
    const csv = await sb.runIn(['book', 'BTCUSD', '--depth', '1', '-o', 'csv']);
    expect(csv.stdout.split('\r\n').map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      'market,side,level',
      'BTCUSD,bid,1',
      'BTCUSD,ask,1',
      '',
    ]);
    const nd = await sb.runIn(['book', 'BTCUSD', '--depth', '1', '-o', 'ndjson']);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('trades: the latest --limit trades, newest first, in every format', async () => {
    const r = await sb.runIn(['trades', 'SOLEUR', '--limit', '5']);
    expect(r.code, r.stderr).toBe(0);
    const items = JSON.parse(r.stdout);
    expect(items).toHaveLength(5);
    for (let i = 1; i < items.length; i++) expect(items[i - 1].executed_at >= items[i].executed_at).toBe(true);
    for (const t of items) expect(Object.keys(t).sort()).toEqual(['amount', 'executed_at', 'match_number', 'price']);
    const nd = await sb.runIn(['trades', 'SOLEUR', '--limit', '3', '-o', 'ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => Object.keys(JSON.parse(l)).length),
    ).toEqual([4, 4, 4]);
    const csv = await sb.runIn(['trades', 'SOLEUR', '--limit', '2', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('executed_at,price,amount,match_number');
    const table = await sb.runIn(['trades', 'SOLEUR', '--limit', '2', '-o', 'table']);
    expect(table.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['EXECUTED', 'PRICE', 'AMOUNT', 'MATCH']);
    expect(table.stderr).toMatch(/SOLEUR · the 2 latest of \d+ recent trades, newest first/);
  });

  it('bad input: exit 2, one line naming the argument or flag, nothing sent', async () => {
    await sb.sent();
    const cases: [string[], RegExp][] = [
      [['ticker', 'NOPEUSD'], /^error: MARKET: NOPEUSD is not a market of this service \(such as ETHEUR/],
      [['book', 'BTC-USD'], /^error: MARKET: "BTC-USD" is not a market symbol/],
      [['book', 'BTCUSD', '--depth', '0'], /^error: --depth: must be from 1 to 1000/],
      [['trades', 'BTCUSD', '--limit', 'all'], /^error: --limit: must be a whole number from 1 to 2000/],
      [['trades'], /^error: missing MARKET/],
    ];
    for (const [args, message] of cases) {
      const r = await sb.runIn(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    expect(await sb.sent()).toEqual([]);
  });
});
