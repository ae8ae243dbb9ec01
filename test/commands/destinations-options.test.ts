// coinop destinations list and put: a real argv, parsed by the commands' declared flags, to checked options, and every
// flag rule's message.
import { describe, expect, it } from 'vitest';
import {
  parseDestinationListOptions,
  parseDestinationPutOptions,
  type DestinationPutOptions,
} from '../../src/commands/destinations/options.js';
import { DESTINATION_PUT_FLAG_TABLE, declareDestinationList } from '../../src/commands/destinations/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const ETH = '0xF0Aa84466e353E5390be37FE2934301c07c19a55';
const list = (argv: string[]) => parseDestinationListOptions(parseArgv(declareDestinationList, argv), NOW);
const put = (argv: string[]) => parseDestinationPutOptions(parseArgv(DESTINATION_PUT_FLAG_TABLE, argv));

describe('parseDestinationListOptions', () => {
  it.each([
    ['no flags: the whole book', [], {}],
    [
      'every filter, networks upper-cased, lists repeated or comma separated',
      [
        '--nickname',
        'treasury',
        '--nickname',
        'cold',
        '--network',
        'ethereum,BASE',
        '--address',
        ETH,
        '--id',
        'a',
        '--identity-id',
        'i',
        '--bookmarked',
      ],
      {
        nicknames: ['treasury', 'cold'],
        crypto_networks: ['ETHEREUM', 'BASE'],
        addresses: [ETH],
        ids: ['a'],
        identity_ids: ['i'],
        bookmarked_status: true,
      },
    ],
    ['--not-bookmarked', ['--not-bookmarked'], { bookmarked_status: false }],
    [
      'the shared list flags',
      [
        '--created-after',
        '24h',
        '--created-before',
        'now',
        '--limit',
        '10',
        '--order',
        'asc',
        '--order-by',
        'CREATED_AT',
        '--cursor',
        'c',
      ],
      {
        'created_at.gt': '2026-11-19T12:00:00Z',
        'created_at.lt': '2026-11-20T12:00:00Z',
        limit: 10,
        order: 'ASC',
        order_by: 'CREATED_AT',
        page_cursor: 'c',
      },
    ],
  ])('%s', (_name, argv, query) => {
    expect(list(argv)).toEqual({ query, all: false });
  });

  it('--created-at goes with the other comparisons (the OpenAPI allows it): all of them are sent', () => {
    expect(list(['--created-at', 'now', '--created-after', '1h']).query).toEqual({
      'created_at.eq': '2026-11-20T12:00:00Z',
      'created_at.gt': '2026-11-20T11:00:00Z',
    });
  });

  it('--all follows every page', () => {
    expect(list(['--all']).all).toBe(true);
  });

  it.each([
    [['--bookmarked', '--not-bookmarked'], '--bookmarked and --not-bookmarked: give one, not both'],
    // By its shape only: the catalogue is the run's, once it knows the service.
    [['--network', 'moon-x'], '--network: "moon-x" must be letters, digits and _ only'],
    [['--limit', '0'], '--limit: must be from 1 to 1000'],
    [['--limit', 'lots'], '--limit: must be a whole number from 1 to 1000'],
    [['--created-at', 'yesterday'], '--created-at: "yesterday" is not a time; give an RFC 3339'],
    [
      ['--nickname', Array.from({ length: 101 }, (_, i) => `n${i}`).join(',')],
      '--nickname: must have at most 100 entries',
    ],
    [['--nickname', 'x'.repeat(101)], '--nickname: must be at most 100 characters'],
  ])('%j is refused', (argv, message) => {
    expect(usageMessage(() => list(argv))).toContain(message);
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
    ['no flags: network and address left to ask for', [], {}],
    [
      'a new address, bookmarked',
      ['--network', 'ethereum', '--address', ETH, '--nickname', 'treasury', '--bookmark', '--identity-id', 'i-1'],
      { network: 'ETHEREUM', address: ETH, nickname: 'treasury', bookmark: true, identityId: 'i-1' },
    ],
    ['--no-bookmark', ['--id', 'a-1', '--no-bookmark'], { id: 'a-1', bookmark: false }],
    [
      '--travel-rule as an object',
      ['--id', 'a-1', '--travel-rule', '{"custodian_type":"PRIVATE"}'],
      { id: 'a-1', travelRule: { custodian_type: 'PRIVATE' } },
    ],
  ])('%s', (_name, argv, expected) => {
    expect(put(argv)).toEqual({ ...NONE, ...expected });
  });

  it.each([
    [
      ['--id', 'a-1', '--network', 'ETHEREUM'],
      '--id and --network/--address: give one (--id finds the address by its id)',
    ],
    [['--id', 'a-1', '--address', ETH], '--id and --network/--address: give one (--id finds the address by its id)'],
    [['--network', 'MOON'], '--network: must be one of BITCOIN, ETHEREUM'],
    [
      ['--network', 'BITCOIN', '--address', ETH],
      `--address: ${ETH} is not a BITCOIN address (it looks like an EVM address)`,
    ],
    [['--nickname', ' '], '--nickname: must be 1 to 100 characters'],
    [['--nickname', 'x'.repeat(101)], '--nickname: must be 1 to 100 characters'],
    [['--travel-rule', '{oops'], '--travel-rule: must be a JSON object such as {"custodian_type":"PRIVATE"}'],
    [['--travel-rule', '[]'], '--travel-rule: must be a JSON object'],
  ])('%j is refused', (argv, message) => {
    expect(usageMessage(() => put(argv))).toContain(message);
  });

  it('takes flag values of the declared types only', () => {
    expect(() => parseDestinationPutOptions({ bookmark: 'yes' })).toThrow(/internal: the flag value bookmark/);
  });
});
