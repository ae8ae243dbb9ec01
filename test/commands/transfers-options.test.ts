// coinop transfers list, get and watch: a real argv, parsed by the commands' declared flags, to checked options and
// to the usage error, in process.
import { describe, expect, it } from 'vitest';
import {
  parseTransferGetOptions,
  parseTransfersListOptions,
  parseTransfersWatchOptions,
} from '../../src/commands/transfers/options.js';
import { TIME_FORMS } from '../../src/cli/options.js';
import {
  declareTransfersList,
  declareTransfersWatch,
  TRANSFER_GET_FLAG_TABLE,
} from '../../src/commands/transfers/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const list = (argv: string[]) => parseTransfersListOptions(parseArgv(declareTransfersList, argv), NOW);
const get = (id: string | undefined, argv: string[]) =>
  parseTransferGetOptions(id, parseArgv(TRANSFER_GET_FLAG_TABLE, argv));
const watch = (ids: string[], argv: string[]) =>
  parseTransfersWatchOptions(ids, parseArgv(declareTransfersWatch, argv));

describe('transfers list options', () => {
  it.each([
    { argv: [], want: { query: {}, all: false } },
    {
      argv: [
        '--id',
        't1',
        '--ref-id',
        'r1',
        '--profile-id',
        'p1',
        '--identity-id',
        'i1',
        '--identity-id',
        'i2',
        '--account-id',
        'a1',
        '--type',
        'crypto_withdrawal',
        '--type',
        'PAXOS_TRANSFER_DEBIT',
        '--type',
        'PLATFORM_TRANSFER_CREDIT',
        '--status',
        'pending',
        '--status',
        'FAILED',
        '--secondary-status',
        'travel_rule_info_requested',
        '--secondary-status',
        'PENDING_CUSTOMER_APPROVAL',
        '--tx-hash',
        '0xabc',
        '--group-id',
        'g1',
        '--limit',
        '5',
        '--order',
        'ASC',
        '--order-by',
        'CREATED_AT',
        '--cursor',
        'c1',
        '--all',
      ],
      // The OpenAPI: ids (like ref_ids, profile_ids, identity_ids, account_ids and type) goes with the time filters
      // only. The ids are sent; every other filter is applied here, to each page.
      want: {
        query: { ids: ['t1'], limit: '5', order: 'ASC', order_by: 'CREATED_AT', page_cursor: 'c1' },
        all: true,
        filter: {
          api: {
            ref_ids: ['r1'],
            account_ids: ['a1'],
            identity_ids: ['i1', 'i2'],
            profile_ids: ['p1'],
            // spec/SERVICE.md's name of a platform transfer by the OpenAPI's.
            type: ['CRYPTO_WITHDRAWAL', 'PAXOS_TRANSFER_DEBIT', 'PAXOS_TRANSFER_CREDIT'],
            crypto_tx_hashes: ['0xabc'],
            group_ids: ['g1'],
            statuses: ['PENDING', 'FAILED'],
            secondary_statuses: ['TRAVEL_RULE_INFO_REQUESTED', 'PENDING_CUSTOMER_APPROVAL'],
          },
        },
      },
    },
    // Without ids or ref_ids: the transaction hashes and group ids go with the statuses, the lone filters stay here.
    {
      argv: ['--profile-id', 'p1', '--tx-hash', '0xabc', '--status', 'pending', '--created-after', '1h'],
      want: {
        query: { crypto_tx_hashes: ['0xabc'], statuses: ['PENDING'], 'created_at.gt': '2026-03-01T11:00:00Z' },
        all: false,
        filter: { api: { profile_ids: ['p1'] } },
      },
    },
    // Else the first lone filter is sent (an account before an identity, a profile, a type), with the time filters.
    {
      argv: [
        '--type',
        'platform_transfer_debit',
        '--profile-id',
        'p1',
        '--status',
        'completed',
        '--updated-from',
        '1d',
      ],
      want: {
        query: { profile_ids: ['p1'], 'updated_at.gte': '2026-02-28T12:00:00Z' },
        all: false,
        filter: { api: { type: ['PAXOS_TRANSFER_DEBIT'], statuses: ['COMPLETED'] } },
      },
    },
    // Filters that go together are all sent; a lone one with time filters alone is sent as it is.
    {
      argv: ['--status', 'pending', '--secondary-status', 'customer_rejected', '--group-id', 'g1'],
      want: {
        query: { statuses: ['PENDING'], secondary_statuses: ['CUSTOMER_REJECTED'], group_ids: ['g1'] },
        all: false,
      },
    },
    {
      argv: ['--type', 'PLATFORM_TRANSFER_CREDIT', '--type', 'PAXOS_TRANSFER_CREDIT', '--created-after', '1h'],
      want: { query: { type: ['PAXOS_TRANSFER_CREDIT'], 'created_at.gt': '2026-03-01T11:00:00Z' }, all: false },
    },
    {
      argv: [
        '--created-after',
        '24h',
        '--created-before',
        'now',
        '--updated-from',
        '30m',
        '--updated-until',
        '2026-02-01T00:00:00Z',
      ],
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
      argv: ['--created-at', '2026-02-01T00:00:00Z', '--updated-before', '2d', '--updated-after', '3d'],
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
      argv: ['--created-until', '1h', '--created-from', '2h', '--updated-at', '1d'],
      want: {
        query: {
          'created_at.lte': '2026-03-01T11:00:00Z',
          'created_at.gte': '2026-03-01T10:00:00Z',
          'updated_at.eq': '2026-02-28T12:00:00Z',
        },
        all: false,
      },
    },
  ])('$argv', ({ argv, want }) => {
    expect(JSON.parse(JSON.stringify(list(argv)))).toEqual(want);
  });

  it.each([
    [['--status', 'done'], '--status: must be one of PENDING, COMPLETED, FAILED'],
    [
      ['--secondary-status', 'held'],
      '--secondary-status: must be one of TRAVEL_RULE_INFO_REQUESTED, TRAVEL_RULE_REJECTED, CUSTOMER_REJECTED, PENDING_CUSTOMER_APPROVAL',
    ],
    [
      [
        '--identity-id',
        'i0',
        '--identity-id',
        'i1',
        '--identity-id',
        'i2',
        '--identity-id',
        'i3',
        '--identity-id',
        'i4',
        '--identity-id',
        'i5',
        '--identity-id',
        'i6',
        '--identity-id',
        'i7',
        '--identity-id',
        'i8',
        '--identity-id',
        'i9',
        '--identity-id',
        'i10',
        '--identity-id',
        'i11',
        '--identity-id',
        'i12',
        '--identity-id',
        'i13',
        '--identity-id',
        'i14',
        '--identity-id',
        'i15',
        '--identity-id',
        'i16',
        '--identity-id',
        'i17',
        '--identity-id',
        'i18',
        '--identity-id',
        'i19',
        '--identity-id',
        'i20',
        '--identity-id',
        'i21',
        '--identity-id',
        'i22',
        '--identity-id',
        'i23',
        '--identity-id',
        'i24',
        '--identity-id',
        'i25',
        '--identity-id',
        'i26',
        '--identity-id',
        'i27',
        '--identity-id',
        'i28',
        '--identity-id',
        'i29',
        '--identity-id',
        'i30',
        '--identity-id',
        'i31',
        '--identity-id',
        'i32',
        '--identity-id',
        'i33',
        '--identity-id',
        'i34',
        '--identity-id',
        'i35',
        '--identity-id',
        'i36',
        '--identity-id',
        'i37',
        '--identity-id',
        'i38',
        '--identity-id',
        'i39',
        '--identity-id',
        'i40',
        '--identity-id',
        'i41',
        '--identity-id',
        'i42',
        '--identity-id',
        'i43',
        '--identity-id',
        'i44',
        '--identity-id',
        'i45',
        '--identity-id',
        'i46',
        '--identity-id',
        'i47',
        '--identity-id',
        'i48',
        '--identity-id',
        'i49',
        '--identity-id',
        'i50',
        '--identity-id',
        'i51',
        '--identity-id',
        'i52',
        '--identity-id',
        'i53',
        '--identity-id',
        'i54',
        '--identity-id',
        'i55',
        '--identity-id',
        'i56',
        '--identity-id',
        'i57',
        '--identity-id',
        'i58',
        '--identity-id',
        'i59',
        '--identity-id',
        'i60',
        '--identity-id',
        'i61',
        '--identity-id',
        'i62',
        '--identity-id',
        'i63',
        '--identity-id',
        'i64',
        '--identity-id',
        'i65',
        '--identity-id',
        'i66',
        '--identity-id',
        'i67',
        '--identity-id',
        'i68',
        '--identity-id',
        'i69',
        '--identity-id',
        'i70',
        '--identity-id',
        'i71',
        '--identity-id',
        'i72',
        '--identity-id',
        'i73',
        '--identity-id',
        'i74',
        '--identity-id',
        'i75',
        '--identity-id',
        'i76',
        '--identity-id',
        'i77',
        '--identity-id',
        'i78',
        '--identity-id',
        'i79',
        '--identity-id',
        'i80',
        '--identity-id',
        'i81',
        '--identity-id',
        'i82',
        '--identity-id',
        'i83',
        '--identity-id',
        'i84',
        '--identity-id',
        'i85',
        '--identity-id',
        'i86',
        '--identity-id',
        'i87',
        '--identity-id',
        'i88',
        '--identity-id',
        'i89',
        '--identity-id',
        'i90',
        '--identity-id',
        'i91',
        '--identity-id',
        'i92',
        '--identity-id',
        'i93',
        '--identity-id',
        'i94',
        '--identity-id',
        'i95',
        '--identity-id',
        'i96',
        '--identity-id',
        'i97',
        '--identity-id',
        'i98',
        '--identity-id',
        'i99',
        '--identity-id',
        'i100',
      ],
      '--identity-id: must have at most 100 entries',
    ],
    [['--updated-from', 'yesterday'], `--updated-from: "yesterday" is not a time; give ${TIME_FORMS}`],
    [['--created-at', 'noon'], `--created-at: "noon" is not a time; give ${TIME_FORMS}`],
    [['--limit', '5000'], '--limit: must be at most 1000'],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => list(argv))).toBe(message);
  });

  it('drops empty values of a list flag, as commander hands them over (no empty id is ever sent)', () => {
    expect(list(['--account-id', '', '--id', 'a,,b']).query).toEqual({ account_ids: [], ids: ['a', 'b'] });
  });
});

describe('transfers get options', () => {
  it.each([
    { id: 't1', argv: [], want: { id: 't1' } },
    { id: undefined as string | undefined, argv: ['--ref-id', 'r1'], want: { refId: 'r1' } },
    { id: undefined, argv: [], want: {} },
  ])('$id $argv', ({ id, argv, want }) => {
    expect(JSON.parse(JSON.stringify(get(id, argv)))).toEqual(want);
  });

  it('refuses an id and a ref_id together', () => {
    expect(usageMessage(() => get('t1', ['--ref-id', 'r1']))).toBe('ID and --ref-id: give one');
  });
});

describe('transfers watch options', () => {
  it.each([
    { ids: ['t1'], argv: [], want: { ids: ['t1'], timeoutSeconds: 600 } },
    { ids: ['t1'], argv: ['--wait-timeout', '10m'], want: { ids: ['t1'], timeoutSeconds: 600 } },
    { ids: ['t1'], argv: ['--wait-timeout', '90'], want: { ids: ['t1'], timeoutSeconds: 90 } },
    // The old name is still taken, with a note that says the new one.
    {
      ids: ['t1', 't2'],
      argv: ['--timeout', '30'],
      want: {
        ids: ['t1', 't2'],
        timeoutSeconds: 30,
        renamed: 'note: --timeout is now --wait-timeout (as withdraw names it); it is taken as such',
      },
    },
  ])('$ids $argv', ({ ids, argv, want }) => {
    expect(watch(ids, argv)).toEqual(want);
  });

  it.each([
    [['t1'], ['--wait-timeout', '0'], '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
    [['t1'], ['--timeout', 'soon'], '--timeout: must be a positive time such as 30, 30s, 5m or 1h'],
    [['t1'], ['--wait-timeout', '25h'], '--wait-timeout: must be at most 24 h'],
    [[''], [], 'ID: must not be empty'],
  ])('%o %o: %s', (ids, argv, message) => {
    expect(usageMessage(() => watch(ids, argv))).toBe(message);
  });
});
