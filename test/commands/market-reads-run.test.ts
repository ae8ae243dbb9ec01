// The market reads', the fee quote's and deposit-instructions' runs with fakes of their ports (test/commands/ports.ts)
// against a local service in this process: what the operator sees on stdout and stderr, what the audit trail keeps,
// the usage errors before anything is sent.
import { describe, expect, it } from 'vitest';
import * as instructions from '../../src/commands/deposit-instructions/run.js';
import { quote } from '../../src/commands/fee/run.js';
import * as market from '../../src/commands/markets/run.js';
import { prices } from '../../src/commands/prices/run.js';
import { DEMO } from '../../src/embedded/demo.js';
import { sharedLocalFixture, NOW, readPorts } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();

function deps(displayOptions: Parameters<typeof readPorts>[1] = {}) {
  return { ...readPorts(local, displayOptions), audit: local.audit().port };
}

describe('markets runs', () => {
  it('markets on a terminal: the catalogue, and what the local service lists, on stderr', async () => {
    const d = deps({ tty: true });
    await market.markets(d, { refresh: false });
    expect(d.display.stdout).toMatch(/BTCUSD/);
    expect(d.display.stderr).toMatch(/^\d+ markets · the local service lists \d+\n$/);
  });

  it('ticker on a terminal: bid, ask and spread of the market', async () => {
    const d = deps({ tty: true });
    await market.ticker(d, { market: 'BTCUSD' });
    expect(d.display.stdout).toMatch(/^market\s+BTCUSD$/m);
    expect(d.display.stdout).toMatch(/^spread\s+\S+ \(\d+\.\d\d bp\)$/m);
  });

  it('book as CSV: a row per level and side, no more levels than --depth', async () => {
    const d = deps({ format: 'csv' });
    await market.book(d, { market: 'ETHUSD', depth: 3 });
    const rows = d.display.stdout.trim().split('\n').slice(1);
    expect(rows.filter((r) => r.startsWith('ETHUSD,bid,')).length).toBeLessThanOrEqual(3);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('trades, a market the catalogue has not: a usage error naming it', async () => {
    expect(await usageMessageOf(market.trades(deps(), { market: 'NOPEUSD', limit: 5 }))).toMatch(
      /^MARKET: NOPEUSD is not a market of this service/,
    );
  });

  it('ticker with no market and nobody to ask: a usage error', async () => {
    expect(await usageMessageOf(market.ticker(deps(), {}))).toBe('missing MARKET');
  });
});

describe('prices run', () => {
  it('as JSON: --limit points of the market, ending at the clock', async () => {
    const d = deps();
    await prices(d, 'BTCUSD', { limit: '5', increment: 'ONE_HOUR' });
    const points = JSON.parse(d.display.stdout) as { timestamp: string; average_price: string }[];
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThanOrEqual(5);
    for (const p of points) expect(Date.parse(p.timestamp)).toBeLessThanOrEqual(NOW);
  });

  it('on a terminal: the table, a summary line on stderr and the chart on stdout', async () => {
    const d = deps({ tty: true });
    await prices(d, 'ETHUSD', { limit: '10' });
    expect(d.display.stderr).toMatch(/^ETHUSD · \d+( of \d+)? prices · ONE_HOUR/);
    expect(d.display.stdout).toMatch(/average_price|AVERAGE PRICE/i);
  });

  it('a market outside the catalogue: a usage error, nothing sent', async () => {
    const d = deps();
    expect(await usageMessageOf(prices(d, 'NOPEUSD', {}))).toMatch(/^MARKET: "NOPEUSD" is not a market/);
    expect(d.service.connections).toEqual([]);
  });
});

describe('fee quote run', () => {
  const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

  it('on a terminal: the quote, how to use it, and a quote entry in the audit trail', async () => {
    const d = deps({ tty: true });
    const before = local.audit().entries().length;
    await quote(d, { asset: 'BTC', network: 'BITCOIN', address, amount: '0.01' });
    const feeId = /^fee id\s+(\S+)$/m.exec(d.display.stdout)?.[1];
    expect(feeId).toBeDefined();
    expect(d.display.stdout).toMatch(/^amount\s+0\.01 BTC$/m);
    expect(d.display.stderr).toBe(`use it: coinop withdraw ... --fee-id ${feeId}\n`);
    const [entry, ...more] = local.audit().entries().slice(before);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      kind: 'quote',
      what: { asset: 'BTC', network: 'BITCOIN', amount: '0.01', destination: address, profile_id: DEMO.profileId },
      outcome: { result: 'sent', fee_id: feeId },
    });
  });

  it('neither amount nor total and nobody to ask: a usage error, nothing sent or kept', async () => {
    const d = deps();
    const before = local.audit().entries().length;
    await expect(quote(d, { asset: 'BTC', network: 'BITCOIN', address })).rejects.toThrow(/--amount/);
    expect(d.service.connections).toEqual([]);
    expect(local.audit().entries().length).toBe(before);
  });
});

describe('deposit-instructions runs', () => {
  it('create, then list and get: the same instructions, the memo said on stderr', async () => {
    const made = deps({ tty: true });
    await instructions.create(made, { network: 'WIRE', refId: 'run-ports-wire' });
    expect(made.display.stderr).toMatch(/^✓ deposits that carry memo \S+ credit profile 5d1f2a3b-/);
    expect(made.interrupt.note()).toBe(
      'interrupted: the instructions may have been made; see coinop deposit-instructions list --ref-id run-ports-wire',
    );
    const listed = deps();
    await instructions.list(listed, { query: { ref_ids: ['run-ports-wire'] }, all: false });
    const [one, ...rest] = JSON.parse(listed.display.stdout) as { id: string; memo_id: string }[];
    expect(rest).toEqual([]);
    const got = deps();
    await instructions.get(got, one.id);
    expect(JSON.parse(got.display.stdout)).toMatchObject({ id: one.id, memo_id: one.memo_id });
  });

  it('create again with the same ref_id: the instructions kept, said to exist already', async () => {
    const again = deps({ tty: true });
    await instructions.create(again, { network: 'WIRE', refId: 'run-ports-wire' });
    expect(again.display.stderr).toMatch(/^already exists: ref_id run-ports-wire was used before/);
  });

  it('get with no id and nobody to ask: a usage error', async () => {
    expect(await usageMessageOf(instructions.get(deps(), undefined))).toBe('missing ID');
  });
});
