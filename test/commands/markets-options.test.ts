// coinop markets, ticker, book and trades: a real argv and the MARKET argument to checked options, and each rule's message.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { BOOK_FLAG_TABLE, declareMarkets, TRADES_FLAG_TABLE } from '../../src/commands/markets/flags.js';
import * as raw from '../../src/commands/markets/options.js';
import { tableOptions } from '../../src/cli/list-flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const SYMBOL = 'is not a market symbol (letters and digits such as BTCUSD)';

const parseBookOptions = (market: string | undefined, argv: string[]) =>
  raw.parseBookOptions(market, parseArgv(BOOK_FLAG_TABLE, argv));
const parseTradesOptions = (market: string | undefined, argv: string[]) =>
  raw.parseTradesOptions(
    market,
    parseArgv((c: Command) => TRADES_FLAG_TABLE.declare(tableOptions(c)), argv),
  );
// ticker has no flags of its own.
const parseTickerOptions = (market: string | undefined, argv: string[]) =>
  raw.parseTickerOptions(
    market,
    parseArgv((c: Command) => c, argv),
  );
const parseMarketsOptions = (argv: string[]) => raw.parseMarketsOptions(parseArgv(declareMarkets, argv));

describe('parseBookOptions', () => {
  it.each([
    ['no market, no depth: asked for later, 10 levels', undefined, [], { market: undefined, depth: 10 }],
    ['a market in any case, upper-cased', 'btcUsd', [], { market: 'BTCUSD', depth: 10 }],
    ['a depth', 'ETHEUR', ['--depth', '25'], { market: 'ETHEUR', depth: 25 }],
    ['the deepest', 'ETHEUR', ['--depth', '1000'], { market: 'ETHEUR', depth: 1000 }],
    ['a market the catalogue lacks (the service may list it)', 'PEPEUSD', [], { market: 'PEPEUSD', depth: 10 }],
  ])('%s', (_name, market, raw, expected) => {
    expect(parseBookOptions(market, raw)).toEqual(expected);
  });

  it.each([
    ['BTC-USD', [], `MARKET: "BTC-USD" ${SYMBOL}`],
    ['', [], `MARKET: "" ${SYMBOL}`],
    ['B', [], `MARKET: "B" ${SYMBOL}`],
    ['BTCUSD', ['--depth', '0'], '--depth: must be from 1 to 1000'],
    ['BTCUSD', ['--depth', '1001'], '--depth: must be from 1 to 1000'],
    ['BTCUSD', ['--depth', 'ten'], '--depth: must be a whole number from 1 to 1000'],
    ['BTCUSD', ['--depth', '-1'], '--depth: must be a whole number from 1 to 1000'],
  ])('%s %j is refused', (market, raw, message) => {
    expect(usageMessage(() => parseBookOptions(market, raw))).toBe(message);
  });
});

describe('parseTradesOptions', () => {
  it('defaults to the 20 latest, takes up to 2000', () => {
    expect(parseTradesOptions('solEUR', [])).toEqual({ market: 'SOLEUR', limit: 20 });
    expect(parseTradesOptions(undefined, ['--limit', '2000'])).toEqual({ market: undefined, limit: 2000 });
  });

  it.each([
    [['--limit', '0'], '--limit: must be from 1 to 2000'],
    [['--limit', '2001'], '--limit: must be from 1 to 2000'],
    [['--limit', '1.5'], '--limit: must be a whole number from 1 to 2000'],
  ])('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseTradesOptions('BTCUSD', raw))).toBe(message);
  });
});

describe('parseTickerOptions and parseMarketsOptions', () => {
  it('the market, upper-cased; --refresh', () => {
    expect(parseTickerOptions(' ltcusd ', [])).toEqual({ market: 'LTCUSD' });
    expect(parseTickerOptions(undefined, [])).toEqual({ market: undefined });
    expect(usageMessage(() => parseTickerOptions('BTC/USD', []))).toBe(`MARKET: "BTC/USD" ${SYMBOL}`);
    expect(parseMarketsOptions([])).toEqual({ refresh: false });
    expect(parseMarketsOptions(['--refresh', '--columns', 'market'])).toEqual({
      refresh: true,
      view: { names: ['market'] },
    });
  });
});
