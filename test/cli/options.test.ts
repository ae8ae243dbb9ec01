// The flag rules commands share (src/cli/options.ts): one duration grammar for --duration and the time flags,
// markets, time filters, and times in whole seconds.
import { describe, expect, it } from 'vitest';
import { durationFlag, durationMs, marketFlag, parseTime, timeFilterFlags } from '../../src/cli/options.js';
import { timeFilters } from '../../src/cli/flags.js';
import { isoSeconds } from '../../src/client/prices.js';
import { usageMessage } from '../commands/support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('shared flag rules', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['90m', 5_400_000],
    ['1.5h', 5_400_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
    [' 5m ', 300_000],
    ['0s', 0],
  ])('the duration %s is %d ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it('a bare number is a duration only where the flag gives it a unit', () => {
    expect(durationMs('30')).toBeUndefined();
    expect(durationMs('30', 's')).toBe(30_000);
    for (const v of ['', 'm', '5 m', '5x', '-5m', '1e3s', '5m ago']) expect(durationMs(v, 's')).toBeUndefined();
  });

  it('a duration flag is positive, a bare number seconds, and bounded', () => {
    expect(durationFlag('--wait', undefined, 1000, 'too long')).toBeUndefined();
    expect(durationFlag('--wait', '0.5', 1000, 'too long')).toBe(500);
    expect(usageMessage(() => durationFlag('--wait', '0s', 1000, 'too long'))).toBe(
      '--wait: must be a positive time such as 30, 30s, 5m or 1h',
    );
    expect(usageMessage(() => durationFlag('--wait', '2s', 1000, 'too long'))).toBe('--wait: too long');
  });

  it.each([
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ['2026-01-01T09:30:00.250+02:00', '2026-01-01T09:30:00.250+02:00'],
    // A date alone is its midnight UTC.
    ['2026-01-01', '2026-01-01T00:00:00Z'],
    [' 2024-02-29 ', '2024-02-29T00:00:00Z'],
    ['now', '2026-03-01T12:00:00Z'],
    ['NOW', '2026-03-01T12:00:00Z'],
    ['90m', '2026-03-01T10:30:00Z'],
    ['1.5h', '2026-03-01T10:30:00Z'],
    ['7d', '2026-02-22T12:00:00Z'],
    ['7d ago', '2026-02-22T12:00:00Z'],
    ['1w', '2026-02-22T12:00:00Z'],
    ['2w', '2026-02-15T12:00:00Z'],
    // A year is 365 days, in the one duration grammar.
    ['1y', '2025-03-01T12:00:00Z'],
    ['10y', '2016-03-03T12:00:00Z'],
    ['500ms', '2026-03-01T11:59:59Z'],
  ])('the time %s is %s', (text, want) => {
    expect(parseTime('--from', text, NOW)).toBe(want);
  });

  it.each([
    '30',
    'yesterday',
    '999999999w',
    '2026-02-30',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01 10:00',
    '',
  ])('the time %j is refused, naming the flag and every form a time takes', (text) => {
    expect(usageMessage(() => parseTime('--to', text, NOW))).toBe(
      `--to: "${text}" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)`,
    );
  });

  it('a duration flag takes years too, in the same grammar', () => {
    expect(durationMs('1y')).toBe(365 * 86_400_000);
    expect(usageMessage(() => durationFlag('--duration', '1y', 1000, 'too long'))).toBe('--duration: too long');
  });

  it('times are in whole seconds', () => {
    expect(isoSeconds(Date.parse('2026-03-01T12:00:00.999Z'))).toBe('2026-03-01T12:00:00Z');
  });

  it('a market is upper-cased and trimmed, and anything not shaped as a symbol is named', () => {
    expect(marketFlag('MARKET', ' btcusd ')).toBe('BTCUSD');
    // A market outside the catalogue passes by its shape: whether the service has it is checked once it is known.
    expect(marketFlag('MARKET', 'ethsgd')).toBe('ETHSGD');
    expect(usageMessage(() => marketFlag('--market', 'BTC-USD'))).toBe(
      '--market: "BTC-USD" is not a market symbol (capital letters and digits, such as BTCUSD)',
    );
    // The hint names the command that lists the markets.
    expect(() => marketFlag('--market', 'BTC-USD')).toThrow(
      expect.objectContaining({ hint: 'coinop markets lists them' }),
    );
  });

  it('time filters map each flag to its operator', () => {
    expect(timeFilterFlags('updated', 'updated_at')).toEqual({
      'updated_at.lt': '--updated-before',
      'updated_at.lte': '--updated-until',
      'updated_at.eq': '--updated-at',
      'updated_at.gte': '--updated-from',
      'updated_at.gt': '--updated-after',
    });
    // Another field's filters are not this one's.
    const values = { updatedAfter: '1h', updatedUntil: 'now', createdAt: 'now' };
    expect(timeFilters(values, 'updated', 'updated_at', NOW)).toEqual({
      'updated_at.lte': '2026-03-01T12:00:00Z',
      'updated_at.gt': '2026-03-01T11:00:00Z',
    });
  });
});
