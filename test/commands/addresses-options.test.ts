// coinop addresses list and create: a real argv, parsed by the commands' declared flags, to checked options and to
// the usage error, in process.
import { describe, expect, it } from 'vitest';
import { parseAddressCreateOptions, parseAddressesListOptions } from '../../src/commands/addresses/options.js';
import { TIME_FORMS } from '../../src/cli/options.js';
import { ADDRESS_CREATE_FLAG_TABLE, declareAddressesList } from '../../src/commands/addresses/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const list = (argv: string[]) => parseAddressesListOptions(parseArgv(declareAddressesList, argv), NOW);
const create = (argv: string[]) => parseAddressCreateOptions(parseArgv(ADDRESS_CREATE_FLAG_TABLE, argv));

/** The owner flags both commands take. */
const OWNER = ['--profile-id', 'p1', '--identity-id', 'i1', '--account-id', 'a1'];

describe('addresses list options', () => {
  it.each([
    { argv: [], want: { query: {}, all: false } },
    {
      argv: ['--network', 'bitcoin,ETHEREUM', '--limit', '10', '--order', 'ASC', '--order-by', 'created_at', '--all'],
      want: {
        query: { networks: ['BITCOIN', 'ETHEREUM'], limit: '10', order: 'ASC', order_by: 'CREATED_AT' },
        all: true,
      },
    },
    {
      argv: [...OWNER, '--id', 'd1', '--id', 'd2', '--ref-id', 'r1', '--cursor', 'c1'],
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
      argv: ['--created-before', 'now', '--created-until', '1h', '--created-from', '7d ago', '--created-after', '1w'],
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
      argv: ['--created-at', '2026-02-01T00:00:00Z'],
      want: { query: { 'created_at.eq': '2026-02-01T00:00:00Z' }, all: false },
    },
    // --created-at goes with the other comparisons (the OpenAPI allows it): all of them are sent.
    {
      argv: ['--created-at', 'now', '--created-from', '1h'],
      want: {
        query: { 'created_at.eq': '2026-03-01T12:00:00Z', 'created_at.gte': '2026-03-01T11:00:00Z' },
        all: false,
      },
    },
  ])('$argv', ({ argv, want }) => {
    expect(JSON.parse(JSON.stringify(list(argv)))).toEqual(want);
  });

  it.each([
    [['--created-before', 'yesterday'], `--created-before: "yesterday" is not a time; give ${TIME_FORMS}`],
    [['--created-after', 'soon'], `--created-after: "soon" is not a time; give ${TIME_FORMS}`],
    [['--limit', '0'], '--limit: must be at least 1'],
    // By their shape only (upper-cased): the catalogue is the run's, once it knows the service.
    [
      ['--network', 'doge-coin'],
      '--network: "doge-coin" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)',
    ],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => list(argv))).toBe(message);
  });
});

describe('addresses create options', () => {
  it.each([
    { argv: [], want: {} },
    {
      argv: [
        '--network',
        'bitcoin',
        ...OWNER,
        '--ref-id',
        'customer-42',
        '--conversion',
        'usd',
        '--meta',
        'customer=42',
        '--meta',
        'note=a=b',
      ],
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
  ])('$argv', ({ argv, want }) => {
    expect(JSON.parse(JSON.stringify(create(argv)))).toEqual(want);
  });

  it.each([
    [['--meta', 'customer'], '--meta: "customer" must be key=value'],
    [['--meta', '=42'], '--meta: "=42" must be key=value'],
    [['--meta', 'a=1', '--meta', 'a=2'], '--meta: key "a" is given twice'],
    [['--meta', '__proto__=x'], '--meta: "__proto__" cannot be a key'],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => create(argv))).toBe(message);
  });
});
