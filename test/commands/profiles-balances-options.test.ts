// coinop profiles list|get|create and coinop balances: a real argv, parsed by the commands' declared flags (and
// arguments), to checked options, and every rule's message naming the flag.
import { describe, expect, it } from 'vitest';
import { parseBalancesOptions } from '../../src/commands/balances/options.js';
import {
  parseProfilesCreateOptions,
  parseProfilesGetOptions,
  parseProfilesListOptions,
} from '../../src/commands/profiles/options.js';
import { TIME_FORMS } from '../../src/cli/options.js';
import { declareBalances } from '../../src/commands/balances/flags.js';
import {
  declareProfilesList,
  PROFILES_CREATE_FLAG_TABLE,
  PROFILES_GET_FLAG_TABLE,
} from '../../src/commands/profiles/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const list = (argv: string[]) => parseProfilesListOptions(parseArgv(declareProfilesList, argv), NOW);
const get = (id: string | undefined, argv: string[]) =>
  parseProfilesGetOptions(id, parseArgv(PROFILES_GET_FLAG_TABLE, argv));
const create = (argv: string[]) => parseProfilesCreateOptions(parseArgv(PROFILES_CREATE_FLAG_TABLE, argv));
const balances = (args: string[], argv: string[]) => parseBalancesOptions(args, parseArgv(declareBalances, argv));

describe('parseProfilesListOptions', () => {
  it('no flags: the first page of every profile', () => {
    expect(list([])).toEqual({ query: {}, all: false });
  });

  it('every flag into the query, times read back from now', () => {
    const o = list([
      '--id',
      'a,b',
      '--nickname',
      'ops',
      '--created-after',
      '24h',
      '--created-until',
      '2026-11-01T00:00:00Z',
      '--limit',
      '10',
      '--order',
      'desc',
      '--cursor',
      'c',
      '--all',
    ]);
    expect(o).toEqual({
      query: {
        ids: ['a', 'b'],
        nickname: 'ops',
        'created_at.gt': '2026-11-22T12:00:00Z',
        'created_at.lte': '2026-11-01T00:00:00Z',
        limit: '10',
        order: 'DESC',
        page_cursor: 'c',
      },
      all: true,
    });
  });

  it('--created-at goes with the other comparisons (the OpenAPI allows it): all of them are sent', () => {
    expect(list(['--created-at', 'now', '--created-after', '1h']).query).toEqual({
      'created_at.eq': '2026-11-23T12:00:00Z',
      'created_at.gt': '2026-11-23T11:00:00Z',
    });
  });

  it.each([
    [['--limit', '0'], '--limit: must be at least 1'],
    [['--limit', 'ten'], '--limit: must be a whole number'],
    [['--created-at', 'yesterday'], `--created-at: "yesterday" is not a time; give ${TIME_FORMS}`],
    [['--id', Array.from({ length: 101 }, (_, i) => `p${i}`).join(',')], '--id: must have at most 100 entries'],
  ])('%j is refused', (argv, message) => {
    expect(usageMessage(() => list(argv))).toBe(message);
  });
});

describe('parseProfilesGetOptions and parseProfilesCreateOptions', () => {
  it('an id, default, or none (the coinop profile then)', () => {
    expect(get('default', ['--include-deactivated'])).toEqual({
      id: 'default',
      includeDeactivated: true,
    });
    expect(get(undefined, [])).toEqual({ id: undefined, includeDeactivated: false });
    expect(usageMessage(() => get('x'.repeat(129), []))).toBe('ID: must be at most 128 characters');
  });

  it('a nickname (asked for when missing) and a description, each within its rules', () => {
    expect(create(['--nickname', 'payroll', '--description', 'salaries'])).toEqual({
      nickname: 'payroll',
      description: 'salaries',
    });
    expect(create([])).toEqual({ nickname: undefined, description: undefined });
    expect(usageMessage(() => create(['--nickname', '  ']))).toBe('--nickname: must not be blank');
    expect(usageMessage(() => create(['--nickname', 'n'.repeat(129)]))).toBe(
      '--nickname: must be at most 128 characters',
    );
    expect(usageMessage(() => create(['--description', 'd'.repeat(1001)]))).toBe(
      '--description: must be at most 1000 characters',
    );
  });
});

describe('parseBalancesOptions', () => {
  it('assets upper-cased, each once, comma separated or not; the switches', () => {
    expect(balances(['btc,usd', 'BTC'], ['--profile-id', 'p', '--include-zero'])).toEqual({
      assets: ['BTC', 'USD'],
      profileId: 'p',
      allProfiles: false,
      includeZero: true,
    });
    expect(balances([], ['--all-profiles'])).toEqual({
      assets: undefined,
      profileId: undefined,
      allProfiles: true,
      includeZero: false,
    });
  });

  it.each([
    // By their shape only (upper-cased): the catalogue is the run's, once it knows the service.
    [['BTC', 'no-pe'], [], 'ASSET: "no-pe" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)'],
    [[], ['--profile-id', 'p', '--all-profiles'], '--profile-id and --all-profiles: give one'],
    [[], ['--profile-id', ''], '--profile-id: must not be empty'],
  ])('%j %j is refused', (args, argv, message) => {
    expect(usageMessage(() => balances(args as string[], argv))).toBe(message);
  });
});
