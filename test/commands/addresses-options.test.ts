// coinop addresses list and create: raw flags to checked options, and raw flags to the usage error, in process.
import { describe, expect, it } from 'vitest';
import { parseAddressCreateOptions, parseAddressesListOptions } from '../../src/commands/addresses/options.js';
import { TIME_FORMS } from '../../src/cli/options.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('addresses list options', () => {
  it.each([
    { raw: {}, want: { query: {}, all: false } },
    {
      raw: { network: ['bitcoin', 'ETHEREUM'], limit: '10', order: 'ASC', orderBy: 'CREATED_AT', all: true },
      want: {
        query: { networks: ['BITCOIN', 'ETHEREUM'], limit: '10', order: 'ASC', order_by: 'CREATED_AT' },
        all: true,
      },
    },
    {
      raw: {
        profileId: ['p1'],
        identityId: ['i1'],
        accountId: ['a1'],
        id: ['d1', 'd2'],
        refId: ['r1'],
        cursor: 'c1',
      },
      want: {
        query: {
          profile_ids: ['p1'],
          identity_ids: ['i1'],
          account_ids: ['a1'],
          ids: ['d1', 'd2'],
          ref_ids: ['r1'],
          page_cursor: 'c1',
        },
        all: false,
      },
    },
    {
      raw: {
        createdBefore: 'now',
        createdUntil: '1h',
        createdFrom: '7d ago',
        createdAfter: '1w',
      },
      want: {
        query: {
          'created_at.lt': '2026-03-01T12:00:00Z',
          'created_at.lte': '2026-03-01T11:00:00Z',
          'created_at.gte': '2026-02-22T12:00:00Z',
          'created_at.gt': '2026-02-22T12:00:00Z',
        },
        all: false,
      },
    },
    {
      raw: { createdAt: '2026-02-01T00:00:00Z' },
      want: { query: { 'created_at.eq': '2026-02-01T00:00:00Z' }, all: false },
    },
    // --created-at goes with the other comparisons (the OpenAPI allows it): all of them are sent.
    {
      raw: { createdAt: 'now', createdFrom: '1h' },
      want: {
        query: { 'created_at.eq': '2026-03-01T12:00:00Z', 'created_at.gte': '2026-03-01T11:00:00Z' },
        all: false,
      },
    },
  ])('$raw', ({ raw, want }) => {
    expect(JSON.parse(JSON.stringify(parseAddressesListOptions(raw, NOW)))).toEqual(want);
  });

  it.each([
    [{ createdBefore: 'yesterday' }, `--created-before: "yesterday" is not a time; give ${TIME_FORMS}`],
    [{ createdAfter: 'soon' }, `--created-after: "soon" is not a time; give ${TIME_FORMS}`],
    [{ limit: '0' }, '--limit: must be at least 1'],
    // By their shape only (upper-cased): the catalogue is the run's, once it knows the service.
    [
      { network: ['doge-coin'] },
      '--network: "doge-coin" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)',
    ],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseAddressesListOptions(raw, NOW))).toBe(message);
  });
});

describe('addresses create options', () => {
  it.each([
    { raw: {}, want: {} },
    {
      raw: {
        network: 'bitcoin',
        profileId: 'p1',
        identityId: 'i1',
        accountId: 'a1',
        refId: 'customer-42',
        conversion: 'USD',
        meta: ['customer=42', 'note=a=b'],
      },
      want: {
        network: 'BITCOIN',
        profileId: 'p1',
        identityId: 'i1',
        accountId: 'a1',
        refId: 'customer-42',
        conversion: 'USD',
        metadata: { customer: '42', note: 'a=b' },
      },
    },
  ])('$raw', ({ raw, want }) => {
    expect(JSON.parse(JSON.stringify(parseAddressCreateOptions(raw)))).toEqual(want);
  });

  it.each([
    [{ meta: ['customer'] }, '--meta: "customer" must be key=value'],
    [{ meta: ['=42'] }, '--meta: "=42" must be key=value'],
    [{ meta: ['a=1', 'a=2'] }, '--meta: key "a" is given twice'],
    [{ meta: ['__proto__=x'] }, '--meta: "__proto__" cannot be a key'],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseAddressCreateOptions(raw))).toBe(message);
  });
});
