// coinop destinations list and put: raw flags (as commander hands them over) to checked options, and every flag
// rule's message.
import { describe, expect, it } from 'vitest';
import {
  parseDestinationListOptions,
  parseDestinationPutOptions,
  type DestinationPutOptions,
} from '../../src/commands/destinations/options.js';
import { usageMessage } from './support.js';
import { ETH_ADDRESS as ETH } from '../support/addresses.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('parseDestinationListOptions', () => {
  it.each([
    ['no flags: the whole book', {}, {}],
    [
      'every filter, networks upper-cased',
      {
        nickname: ['treasury', 'cold'],
        network: ['ethereum', 'BASE'],
        address: [ETH],
        id: ['a'],
        identityId: ['i'],
        bookmarked: true,
      },
      {
        nicknames: ['treasury', 'cold'],
        crypto_networks: ['ETHEREUM', 'BASE'],
        addresses: [ETH],
        ids: ['a'],
        identity_ids: ['i'],
        bookmarked_status: true,
      },
    ],
    ['--not-bookmarked', { notBookmarked: true }, { bookmarked_status: false }],
    [
      'the shared list flags',
      { createdAfter: '24h', createdBefore: 'now', limit: '10', order: 'ASC', orderBy: 'CREATED_AT', cursor: 'c' },
      {
        'created_at.gt': '2026-11-19T12:00:00Z',
        'created_at.lt': '2026-11-20T12:00:00Z',
        limit: 10,
        order: 'ASC',
        order_by: 'CREATED_AT',
        page_cursor: 'c',
      },
    ],
  ])('%s', (_name, raw, query) => {
    expect(parseDestinationListOptions(raw, NOW)).toEqual({ query, all: false });
  });

  it('--created-at goes with the other comparisons (the OpenAPI allows it): all of them are sent', () => {
    expect(parseDestinationListOptions({ createdAt: 'now', createdAfter: '1h' }, NOW).query).toEqual({
      'created_at.eq': '2026-11-20T12:00:00Z',
      'created_at.gt': '2026-11-20T11:00:00Z',
    });
  });

  it('--all follows every page', () => {
    expect(parseDestinationListOptions({ all: true }, NOW).all).toBe(true);
  });

  it.each([
    [{ bookmarked: true, notBookmarked: true }, '--bookmarked and --not-bookmarked: give one, not both'],
    // By its shape only: the catalogue is the run's, once it knows the service.
    [{ network: ['moon-x'] }, '--network: "moon-x" must be letters, digits and _ only'],
    [{ limit: '0' }, '--limit: must be from 1 to 1000'],
    [{ limit: 'lots' }, '--limit: must be a whole number from 1 to 1000'],
    [{ createdAt: 'yesterday' }, '--created-at: "yesterday" is not a time; give an RFC 3339'],
    [{ nickname: Array.from({ length: 101 }, (_, i) => `n${i}`) }, '--nickname: must have at most 100 entries'],
    [{ nickname: ['x'.repeat(101)] }, '--nickname: must be at most 100 characters'],
  ])('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseDestinationListOptions(raw, NOW))).toContain(message);
  });
});

describe('parseDestinationPutOptions', () => {
  const NONE: DestinationPutOptions = {
    id: undefined,
    network: undefined,
    address: undefined,
    nickname: undefined,
    bookmark: undefined,
    identityId: undefined,
    travelRule: undefined,
  };

  it.each([
    ['no flags: network and address left to ask for', {}, {}],
    [
      'a new address, bookmarked',
      { network: 'ethereum', address: ETH, nickname: 'treasury', bookmark: true, identityId: 'i-1' },
      { network: 'ETHEREUM', address: ETH, nickname: 'treasury', bookmark: true, identityId: 'i-1' },
    ],
    ['--no-bookmark', { id: 'a-1', bookmark: false }, { id: 'a-1', bookmark: false }],
    [
      '--travel-rule as an object',
      { id: 'a-1', travelRule: '{"custodian_type":"PRIVATE"}' },
      { id: 'a-1', travelRule: { custodian_type: 'PRIVATE' } },
    ],
  ])('%s', (_name, raw, expected) => {
    expect(parseDestinationPutOptions(raw)).toEqual({ ...NONE, ...expected });
  });

  it.each([
    [{ id: 'a-1', network: 'ETHEREUM' }, '--id and --network/--address: give one (--id finds the address by its id)'],
    [{ id: 'a-1', address: ETH }, '--id and --network/--address: give one (--id finds the address by its id)'],
    [{ network: 'MOON' }, '--network: must be one of BITCOIN, ETHEREUM'],
    [{ network: 'BITCOIN', address: ETH }, `--address: ${ETH} is not a BITCOIN address (it looks like an EVM address)`],
    [{ nickname: ' ' }, '--nickname: must be 1 to 100 characters'],
    [{ nickname: 'x'.repeat(101) }, '--nickname: must be 1 to 100 characters'],
    [{ travelRule: '{oops' }, '--travel-rule: must be a JSON object such as {"custodian_type":"PRIVATE"}'],
    [{ travelRule: '[]' }, '--travel-rule: must be a JSON object'],
  ])('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseDestinationPutOptions(raw))).toContain(message);
  });

  it('takes flag values of the declared types only', () => {
    expect(() => parseDestinationPutOptions({ bookmark: 'yes' })).toThrow(/internal: the flag value bookmark/);
  });
});
