// coinop transfers list, get and watch: raw flags to checked options, and raw flags to the usage error, in process.
import { describe, expect, it } from 'vitest';
import {
  parseTransferGetOptions,
  parseTransfersListOptions,
  parseTransfersWatchOptions,
} from '../../src/commands/transfers/options.js';
import { TIME_FORMS } from '../../src/cli/options.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('transfers list options', () => {
  it.each([
    { raw: {}, want: { query: {}, all: false } },
    {
      raw: {
        id: ['t1'],
        refId: ['r1'],
        profileId: ['p1'],
        identityId: ['i1', 'i2'],
        accountId: ['a1'],
        type: ['crypto_withdrawal', 'PAXOS_TRANSFER_DEBIT', 'PLATFORM_TRANSFER_CREDIT'],
        status: ['pending', 'FAILED'],
        secondaryStatus: ['travel_rule_info_requested', 'PENDING_CUSTOMER_APPROVAL'],
        txHash: ['0xabc'],
        groupId: ['g1'],
        limit: '5',
        order: 'ASC',
        orderBy: 'CREATED_AT',
        cursor: 'c1',
        all: true,
      },
      want: {
        query: {
          ids: ['t1'],
          ref_ids: ['r1'],
          profile_ids: ['p1'],
          identity_ids: ['i1', 'i2'],
          account_ids: ['a1'],
          // The OpenAPI's names of the platform transfers and spec/SERVICE.md's, both.
          type: ['CRYPTO_WITHDRAWAL', 'PAXOS_TRANSFER_DEBIT', 'PLATFORM_TRANSFER_CREDIT'],
          statuses: ['PENDING', 'FAILED'],
          secondary_statuses: ['TRAVEL_RULE_INFO_REQUESTED', 'PENDING_CUSTOMER_APPROVAL'],
          crypto_tx_hashes: ['0xabc'],
          group_ids: ['g1'],
          limit: '5',
          order: 'ASC',
          order_by: 'CREATED_AT',
          page_cursor: 'c1',
        },
        all: true,
      },
    },
    {
      raw: { createdAfter: '24h', createdBefore: 'now', updatedFrom: '30m', updatedUntil: '2026-02-01T00:00:00Z' },
      want: {
        query: {
          'created_at.gt': '2026-02-28T12:00:00Z',
          'created_at.lt': '2026-03-01T12:00:00Z',
          'updated_at.gte': '2026-03-01T11:30:00Z',
          'updated_at.lte': '2026-02-01T00:00:00Z',
        },
        all: false,
      },
    },
    {
      raw: { createdAt: '2026-02-01T00:00:00Z', updatedBefore: '2d', updatedAfter: '3d' },
      want: {
        query: {
          'created_at.eq': '2026-02-01T00:00:00Z',
          'updated_at.lt': '2026-02-27T12:00:00Z',
          'updated_at.gt': '2026-02-26T12:00:00Z',
        },
        all: false,
      },
    },
    {
      raw: { createdUntil: '1h', createdFrom: '2h', updatedAt: '1d' },
      want: {
        query: {
          'created_at.lte': '2026-03-01T11:00:00Z',
          'created_at.gte': '2026-03-01T10:00:00Z',
          'updated_at.eq': '2026-02-28T12:00:00Z',
        },
        all: false,
      },
    },
  ])('$raw', ({ raw, want }) => {
    expect(JSON.parse(JSON.stringify(parseTransfersListOptions(raw, NOW)))).toEqual(want);
  });

  it.each([
    [{ status: ['done'] }, '--status: must be one of PENDING, COMPLETED, FAILED'],
    [
      { secondaryStatus: ['held'] },
      '--secondary-status: must be one of TRAVEL_RULE_INFO_REQUESTED, TRAVEL_RULE_REJECTED, CUSTOMER_REJECTED, PENDING_CUSTOMER_APPROVAL',
    ],
    [{ identityId: Array.from({ length: 101 }, (_, i) => `i${i}`) }, '--identity-id: must have at most 100 entries'],
    [{ accountId: [''] }, '--account-id: must not be empty'],
    [{ updatedFrom: 'yesterday' }, `--updated-from: "yesterday" is not a time; give ${TIME_FORMS}`],
    [{ createdAt: 'noon' }, `--created-at: "noon" is not a time; give ${TIME_FORMS}`],
    [{ limit: '5000' }, '--limit: must be at most 1000'],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseTransfersListOptions(raw, NOW))).toBe(message);
  });
});

describe('transfers get options', () => {
  it.each([
    { id: 't1', raw: {}, want: { id: 't1' } },
    { id: undefined, raw: { refId: 'r1' }, want: { refId: 'r1' } },
    { id: undefined, raw: {}, want: {} },
  ])('$id $raw', ({ id, raw, want }) => {
    expect(JSON.parse(JSON.stringify(parseTransferGetOptions(id, raw)))).toEqual(want);
  });

  it('refuses an id and a ref_id together', () => {
    expect(usageMessage(() => parseTransferGetOptions('t1', { refId: 'r1' }))).toBe('ID and --ref-id: give one');
  });
});

describe('transfers watch options', () => {
  it.each([
    { ids: ['t1'], raw: {}, want: { ids: ['t1'], timeoutSeconds: 600 } },
    { ids: ['t1'], raw: { waitTimeout: '10m' }, want: { ids: ['t1'], timeoutSeconds: 600 } },
    { ids: ['t1'], raw: { waitTimeout: '90' }, want: { ids: ['t1'], timeoutSeconds: 90 } },
    // The old name is still taken, with a note that says the new one.
    {
      ids: ['t1', 't2'],
      raw: { timeout: '30' },
      want: {
        ids: ['t1', 't2'],
        timeoutSeconds: 30,
        renamed: 'note: --timeout is now --wait-timeout (as withdraw names it); it is taken as such',
      },
    },
  ])('$ids $raw', ({ ids, raw, want }) => {
    expect(parseTransfersWatchOptions(ids, raw)).toEqual(want);
  });

  it.each([
    [['t1'], { waitTimeout: '0' }, '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
    [['t1'], { timeout: 'soon' }, '--timeout: must be a positive time such as 30, 30s, 5m or 1h'],
    [['t1'], { waitTimeout: '25h' }, '--wait-timeout: must be at most 24 h'],
    [[''], {}, 'ID: must not be empty'],
  ])('%o %o: %s', (ids, raw, message) => {
    expect(usageMessage(() => parseTransfersWatchOptions(ids, raw))).toBe(message);
  });
});
