import { describe, expect, it } from 'vitest';
import { operations, requestIssues, formatIssues } from '../../src/contract/index.js';
import { midPrice, averagePrice } from '../../src/market-data/price-model.js';

describe('contract validation', () => {
  const base = {
    profile_id: 'p1',
    destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
    asset: 'BTC',
    crypto_network: 'BITCOIN',
  };

  it('accepts a valid withdrawal', () => {
    expect(requestIssues(operations.createCryptoWithdrawal, { body: { ...base, amount: '0.01' } }).issues).toEqual([]);
  });

  it('names the field and rule of each problem', () => {
    const { issues } = requestIssues(operations.createCryptoWithdrawal, {
      body: {
        ...base,
        amount: '-1',
        crypto_network: 'DOGE',
        colour: 'red',
        metadata: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6', g: '7' },
      },
    });
    const text = formatIssues(issues);
    expect(text).toContain('amount: must be a plain decimal number');
    expect(text).toContain('crypto_network: "DOGE" is not one of the 16 choices (did you mean DOGECOIN?)');
    expect(text).toContain('colour: is not a known field');
    expect(text).toContain('metadata: must have at most 6 pairs');
  });

  it('requires exactly one of amount and total', () => {
    expect(
      formatIssues(
        requestIssues(operations.createCryptoWithdrawal, { body: { ...base, amount: '1', total: '1' } }).issues,
      ),
    ).toMatch(/not both/);
    expect(formatIssues(requestIssues(operations.createCryptoWithdrawal, { body: base }).issues)).toMatch(
      /exactly one of amount and total/,
    );
  });

  it('rejects more decimals than the asset has', () => {
    expect(
      formatIssues(
        requestIssues(operations.createCryptoWithdrawal, { body: { ...base, amount: '0.000000001' } }).issues,
      ),
    ).toMatch(/8 decimals/);
  });

  it('coerces and checks query strings', () => {
    const ok = requestIssues(operations.listDepositAddresses, { query: { limit: '10', networks: 'BITCOIN' } });
    expect(ok.issues).toEqual([]);
    expect(ok.query).toEqual({ limit: 10, networks: ['BITCOIN'] });
    expect(formatIssues(requestIssues(operations.listDepositAddresses, { query: { limit: '1001' } }).issues)).toBe(
      'limit: must be at most 1000',
    );
    expect(
      formatIssues(requestIssues(operations.listDepositAddresses, { query: { 'created_at.lt': 'yesterday' } }).issues),
    ).toMatch(/created_at.lt: must be an RFC 3339/);
    const many = Array.from({ length: 101 }, (_, i) => `id${i}`);
    expect(formatIssues(requestIssues(operations.listDepositAddresses, { query: { ids: many } }).issues)).toBe(
      'ids: must have at most 100 entries',
    );
  });

  it('requires exactly one of increment and max_data_points', () => {
    const op = operations.listHistoricalPrices;
    expect(requestIssues(op, { params: { market: 'BTCUSD' }, query: { increment: 'ONE_HOUR' } }).issues).toEqual([]);
    expect(
      formatIssues(
        requestIssues(op, { params: { market: 'BTCUSD' }, query: { increment: 'ONE_HOUR', max_data_points: '5' } })
          .issues,
      ),
    ).toMatch(/must not be combined/);
    expect(formatIssues(requestIssues(op, { params: { market: 'BTCUSD' }, query: {} }).issues)).toMatch(/exactly one/);
    expect(
      formatIssues(requestIssues(op, { params: { market: 'XXXUSD' }, query: { increment: 'ONE_HOUR' } }).issues),
    ).toMatch(/market: "XXXUSD" is not one of the \d+ choices \(did you mean XLMUSD\?\)/);
    expect(
      formatIssues(requestIssues(op, { params: { market: 'QQQQQQ' }, query: { increment: 'ONE_HOUR' } }).issues),
    ).toMatch(/market: must be one of ETHEUR, /);
  });
});

describe('price model', () => {
  it('is a pure function of seed, market and time', () => {
    const t = Date.UTC(2026, 0, 1);
    expect(midPrice(1, 'BTCUSD', t)).toBe(midPrice(1, 'BTCUSD', t));
    expect(midPrice(1, 'BTCUSD', t)).not.toBe(midPrice(2, 'BTCUSD', t));
    expect(midPrice(1, 'BTCUSD', t)).toMatch(/^\d+\.\d{2}$/);
    expect(averagePrice(1, 'USDPUSD', t, 3_600_000)).toMatch(/^[01]\.\d{4}$/);
  });
});
