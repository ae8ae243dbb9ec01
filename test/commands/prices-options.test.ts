// coinop prices: a real argv to checked options, and to the usage error, in process.
import { describe, expect, it } from 'vitest';
import { PRICE_INCREMENTS } from '../../src/contract/enums.js';
import { declarePrices } from '../../src/commands/prices/flags.js';
import { parsePricesOptions as parseRaw } from '../../src/commands/prices/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const parsePricesOptions = (market: string | undefined, argv: string[], now: number) =>
  parseRaw(market, parseArgv(declarePrices, argv), now);

describe('prices options', () => {
  it.each([
    {
      market: undefined,
      argv: [],
      want: { all: false },
    },
    {
      market: 'btcusd',
      argv: ['--increment', 'ONE_DAY', '--from', '30d', '--to', 'now', '--limit', '24', '--offset', '5', '--all'],
      want: {
        market: 'BTCUSD',
        increment: 'ONE_DAY',
        from: '2026-01-30T12:00:00Z',
        to: '2026-03-01T12:00:00Z',
        limit: 24,
        offset: 5,
        all: true,
      },
    },
    {
      market: ' ETHEUR ',
      argv: ['--max-points', '50', '--from', '2026-01-01T00:00:00Z', '--to', '90m ago'],
      want: { market: 'ETHEUR', maxPoints: 50, from: '2026-01-01T00:00:00Z', to: '2026-03-01T10:30:00Z', all: false },
    },
    {
      market: 'SOLEUR',
      argv: ['--offset', '0', '--from', '2026-01-01', '--increment', 'five_minutes'],
      want: { market: 'SOLEUR', offset: 0, from: '2026-01-01T00:00:00Z', increment: 'FIVE_MINUTES', all: false },
    },
  ])('$market $argv', ({ market, argv, want }) => {
    const o = parsePricesOptions(market, argv, NOW);
    expect(JSON.parse(JSON.stringify(o))).toEqual(want);
  });

  it.each([
    [undefined, ['--increment', 'ONE_DAY', '--max-points', '5'], '--increment and --max-points: give one, not both'],
    [undefined, ['--increment', 'HOURLY'], `--increment: must be one of ${PRICE_INCREMENTS.join(', ')}`],
    [undefined, ['--max-points', '0'], '--max-points: must be from 1 to 1000000'],
    [undefined, ['--max-points', 'many'], '--max-points: must be a whole number from 1 to 1000000'],
    [undefined, ['--limit', '1001'], '--limit: must be from 1 to 1000'],
    [undefined, ['--limit', '0'], '--limit: must be from 1 to 1000'],
    [undefined, ['--offset=-1'], '--offset: must be a whole number from 0 to 100000000'],
    // By its shape only: whether the service has it is the run's (src/cli/market-check.ts).
    ['BTC-USD', [], 'MARKET: "BTC-USD" is not a market symbol (capital letters and digits, such as BTCUSD)'],
    // The flags are checked before the market.
    ['BTC-USD', ['--limit', '0'], '--limit: must be from 1 to 1000'],
  ])('%s %o: %s', (market, argv, message) => {
    expect(usageMessage(() => parsePricesOptions(market, argv, NOW))).toBe(message);
  });
});
