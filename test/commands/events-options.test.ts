// coinop events list, get, watch and listen: a real argv to checked options, and to the usage error, in
// process.
import { describe, expect, it } from 'vitest';
import { declareEventsList, declareEventsListen, FOLLOW_FLAG_TABLE } from '../../src/commands/events/flags.js';
import * as raw from '../../src/commands/events/options.js';
import { parseEventGetOptions } from '../../src/commands/events/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const parseEventsListOptions = (argv: string[], now: number) =>
  raw.parseEventsListOptions(parseArgv(declareEventsList, argv), now);
const parseEventsWatchOptions = (argv: string[], now: number) =>
  raw.parseEventsWatchOptions(parseArgv(FOLLOW_FLAG_TABLE, argv), now);
const parseEventsListenOptions = (argv: string[], now: number) =>
  raw.parseEventsListenOptions(parseArgv(declareEventsListen, argv), now);
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('events list options', () => {
  it.each([
    { argv: [], want: { query: {}, all: false } },
    {
      argv: [
        '--type',
        'transfer.crypto_withdrawal.completed',
        '--created-after',
        '24h',
        '--created-before',
        'now',
        '--created-at',
        '2026-02-01T00:00:00Z',
        '--created-from',
        '2h',
        '--created-until',
        '1h',
        '--limit',
        '50',
        '--order',
        'DESC',
        '--cursor',
        'c1',
        '--all',
      ],
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
  ])('$argv', ({ argv, want }) => {
    expect(plain(parseEventsListOptions(argv, NOW))).toEqual(want);
  });

  it.each([
    [['--limit', '101'], '--limit: must be from 1 to 100'],
    [
      ['--type', 'Transfer Completed'],
      '--type: "Transfer Completed" is not an event type (lower-case words joined by dots, such as transfer.crypto_withdrawal.completed)',
    ],
    [
      ['--created-after', 'yesterday'],
      '--created-after: "yesterday" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)',
    ],
    [['--order', 'UP'], '--order: must be one of DESC, ASC'],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => parseEventsListOptions(argv, NOW))).toBe(message);
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
    { argv: [], want: { types: [] } },
    {
      argv: [
        '--type',
        'transfer.crypto_deposit.completed',
        '--type',
        'deposit_address.created',
        '--type',
        'deposit_address.created',
      ],
      want: { types: ['transfer.crypto_deposit.completed', 'deposit_address.created'] },
    },
    { argv: ['--since', '1h', '--count', '10'], want: { types: [], since: '2026-03-01T11:00:00Z', count: 10 } },
    { argv: ['--since', '2026-02-01T10:00:00.123Z'], want: { types: [], since: '2026-02-01T10:00:00.123Z' } },
  ])('$argv', ({ argv, want }) => {
    expect(plain(parseEventsWatchOptions(argv, NOW))).toEqual(want);
  });

  it.each([
    [
      ['--type', 'Transfer'],
      '--type: "Transfer" is not an event type (lower-case words joined by dots, such as transfer.crypto_withdrawal.completed)',
    ],
    [
      ['--since', 'yesterday'],
      '--since: "yesterday" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)',
    ],
    [
      ['--since', '2026-02-31T25:00:00Z'],
      '--since: "2026-02-31T25:00:00Z" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)',
    ],
    [['--count', '0'], '--count: must be from 1 to 1000000000'],
    [['--count', 'ten'], '--count: must be a whole number from 1 to 1000000000'],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => parseEventsWatchOptions(argv, NOW))).toBe(message);
  });
});

describe('events listen options', () => {
  it.each([
    {
      argv: ['--forward-to', 'http://localhost:4242/hooks'],
      want: { types: [], url: 'http://localhost:4242/hooks', printSecret: false, concurrency: 8, timeoutMs: 10_000 },
    },
    {
      argv: [
        '--forward-to',
        'https://example.com/in?x=1',
        '--type',
        'transfer.crypto_withdrawal.failed',
        '--since',
        '30m',
        '--count',
        '3',
        '--concurrency',
        '16',
        '--timeout',
        '2.5s',
      ],
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
    { argv: ['--print-secret'], want: { types: [], printSecret: true, concurrency: 8, timeoutMs: 10_000 } },
  ])('$argv', ({ argv, want }) => {
    expect(plain(parseEventsListenOptions(argv, NOW))).toEqual(want);
  });

  it.each([
    [[], 'missing --forward-to URL'],
    [['--forward-to', 'localhost:4242'], '--forward-to: must be an http:// or https:// URL, not localhost:'],
    [['--forward-to', 'not a url'], '--forward-to: "not a url" is not a URL (such as http://localhost:4242/webhooks)'],
    [['--forward-to', 'ftp://x/y'], '--forward-to: must be an http:// or https:// URL, not ftp:'],
    [
      ['--forward-to', 'http://x', '--print-secret'],
      '--print-secret and --forward-to: give one (--print-secret only prints)',
    ],
    [['--forward-to', 'http://x', '--concurrency', '17'], '--concurrency: must be from 1 to 16'],
    [['--forward-to', 'http://x', '--timeout', '0'], '--timeout: must be a positive time such as 30, 30s, 5m or 1h'],
    [['--forward-to', 'http://x', '--timeout', '6m'], '--timeout: must be at most 5 minutes'],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => parseEventsListenOptions(argv, NOW))).toBe(message);
  });
});
