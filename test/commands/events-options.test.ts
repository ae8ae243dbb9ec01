// coinop events list, get, watch and listen: raw flags to checked options, and raw flags to the usage error, in
// process.
import { describe, expect, it } from 'vitest';
import {
  parseEventGetOptions,
  parseEventsListenOptions,
  parseEventsListOptions,
  parseEventsWatchOptions,
} from '../../src/commands/events/options.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('events list options', () => {
  it.each([
    { raw: {}, want: { query: {}, all: false } },
    {
      raw: {
        type: 'transfer.crypto_withdrawal.completed',
        createdAfter: '24h',
        createdBefore: 'now',
        createdAt: '2026-02-01T00:00:00Z',
        createdFrom: '2h',
        createdUntil: '1h',
        limit: '50',
        order: 'DESC',
        cursor: 'c1',
        all: true,
      },
      want: {
        query: {
          type: 'transfer.crypto_withdrawal.completed',
          'created_at.gt': '2026-02-28T12:00:00Z',
          'created_at.lt': '2026-03-01T12:00:00Z',
          'created_at.eq': '2026-02-01T00:00:00Z',
          'created_at.gte': '2026-03-01T10:00:00Z',
          'created_at.lte': '2026-03-01T11:00:00Z',
          limit: 50,
          order: 'DESC',
          page_cursor: 'c1',
        },
        all: true,
      },
    },
  ])('$raw', ({ raw, want }) => {
    expect(plain(parseEventsListOptions(raw, NOW))).toEqual(want);
  });

  it.each([
    [{ limit: '101' }, '--limit: must be from 1 to 100'],
    [
      { type: 'Transfer Completed' },
      '--type: "Transfer Completed" is not an event type (lower-case words joined by dots, such as transfer.crypto_withdrawal.completed)',
    ],
    [
      { createdAfter: 'yesterday' },
      '--created-after: "yesterday" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)',
    ],
    [{ order: 'UP' }, '--order: must be one of DESC, ASC'],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseEventsListOptions(raw, NOW))).toBe(message);
  });
});

describe('events get options', () => {
  it('takes an id, or none (asked for on a terminal)', () => {
    expect(parseEventGetOptions('e1')).toEqual({ id: 'e1' });
    expect(parseEventGetOptions(undefined)).toEqual({ id: undefined });
    expect(usageMessage(() => parseEventGetOptions(''))).toBe('ID: must not be empty');
  });
});

describe('events watch options', () => {
  it.each([
    { raw: {}, want: { types: [] } },
    {
      raw: { type: ['transfer.crypto_deposit.completed', 'deposit_address.created', 'deposit_address.created'] },
      want: { types: ['transfer.crypto_deposit.completed', 'deposit_address.created'] },
    },
    { raw: { since: '1h', count: '10' }, want: { types: [], since: '2026-03-01T11:00:00Z', count: 10 } },
    { raw: { since: '2026-02-01T10:00:00.123Z' }, want: { types: [], since: '2026-02-01T10:00:00.123Z' } },
  ])('$raw', ({ raw, want }) => {
    expect(plain(parseEventsWatchOptions(raw, NOW))).toEqual(want);
  });

  it.each([
    [
      { type: ['Transfer'] },
      '--type: "Transfer" is not an event type (lower-case words joined by dots, such as transfer.crypto_withdrawal.completed)',
    ],
    [
      { since: 'yesterday' },
      '--since: "yesterday" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)',
    ],
    [
      { since: '2026-02-31T25:00:00Z' },
      '--since: "2026-02-31T25:00:00Z" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)',
    ],
    [{ count: '0' }, '--count: must be from 1 to 1000000000'],
    [{ count: 'ten' }, '--count: must be a whole number from 1 to 1000000000'],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseEventsWatchOptions(raw, NOW))).toBe(message);
  });
});

describe('events listen options', () => {
  it.each([
    {
      raw: { forwardTo: 'http://localhost:4242/hooks' },
      want: { types: [], url: 'http://localhost:4242/hooks', printSecret: false, concurrency: 8, timeoutMs: 10_000 },
    },
    {
      raw: {
        forwardTo: 'https://example.com/in?x=1',
        type: ['transfer.crypto_withdrawal.failed'],
        since: '30m',
        count: '3',
        concurrency: '16',
        timeout: '2.5s',
      },
      want: {
        types: ['transfer.crypto_withdrawal.failed'],
        since: '2026-03-01T11:30:00Z',
        count: 3,
        url: 'https://example.com/in?x=1',
        printSecret: false,
        concurrency: 16,
        timeoutMs: 2500,
      },
    },
    { raw: { printSecret: true }, want: { types: [], printSecret: true, concurrency: 8, timeoutMs: 10_000 } },
  ])('$raw', ({ raw, want }) => {
    expect(plain(parseEventsListenOptions(raw, NOW))).toEqual(want);
  });

  it.each([
    [{}, 'missing --forward-to URL'],
    [{ forwardTo: 'localhost:4242' }, '--forward-to: must be an http:// or https:// URL, not localhost:'],
    [{ forwardTo: 'not a url' }, '--forward-to: "not a url" is not a URL (such as http://localhost:4242/webhooks)'],
    [{ forwardTo: 'ftp://x/y' }, '--forward-to: must be an http:// or https:// URL, not ftp:'],
    [
      { forwardTo: 'http://x', printSecret: true },
      '--print-secret and --forward-to: give one (--print-secret only prints)',
    ],
    [{ forwardTo: 'http://x', concurrency: '17' }, '--concurrency: must be from 1 to 16'],
    [{ forwardTo: 'http://x', timeout: '0' }, '--timeout: must be a positive time such as 30, 30s, 5m or 1h'],
    [{ forwardTo: 'http://x', timeout: '6m' }, '--timeout: must be at most 5 minutes'],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseEventsListenOptions(raw, NOW))).toBe(message);
  });
});
