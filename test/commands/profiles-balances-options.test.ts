// coinop profiles list|get|create and coinop balances: raw flags (and arguments) to checked options, and every rule's
// message naming the flag.
import { describe, expect, it } from 'vitest';
import { parseBalancesOptions } from '../../src/commands/balances/options.js';
import {
  parseProfilesCreateOptions,
  parseProfilesGetOptions,
  parseProfilesListOptions,
} from '../../src/commands/profiles/options.js';
import { TIME_FORMS } from '../../src/cli/options.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('parseProfilesListOptions', () => {
  it('no flags: the first page of every profile', () => {
    expect(parseProfilesListOptions({}, NOW)).toEqual({ query: {}, all: false });
  });

  it('every flag into the query, times read back from now', () => {
    const o = parseProfilesListOptions(
      {
        id: ['a', 'b'],
        nickname: 'ops',
        createdAfter: '24h',
        createdUntil: '2026-11-01T00:00:00Z',
        limit: '10',
        order: 'DESC',
        cursor: 'c',
        all: true,
      },
      NOW,
    );
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
    expect(parseProfilesListOptions({ createdAt: 'now', createdAfter: '1h' }, NOW).query).toEqual({
      'created_at.eq': '2026-11-23T12:00:00Z',
      'created_at.gt': '2026-11-23T11:00:00Z',
    });
  });

  it.each([
    [{ limit: '0' }, '--limit: must be at least 1'],
    [{ limit: 'ten' }, '--limit: must be a whole number'],
    [{ createdAt: 'yesterday' }, `--created-at: "yesterday" is not a time; give ${TIME_FORMS}`],
    [{ id: Array.from({ length: 101 }, (_, i) => `p${i}`) }, '--id: must have at most 100 entries'],
  ])('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseProfilesListOptions(raw, NOW))).toBe(message);
  });
});

describe('parseProfilesGetOptions and parseProfilesCreateOptions', () => {
  it('an id, default, or none (the coinop profile then)', () => {
    expect(parseProfilesGetOptions('default', { includeDeactivated: true })).toEqual({
      id: 'default',
      includeDeactivated: true,
    });
    expect(parseProfilesGetOptions(undefined, {})).toEqual({ id: undefined, includeDeactivated: false });
    expect(usageMessage(() => parseProfilesGetOptions('x'.repeat(129), {}))).toBe('ID: must be at most 128 characters');
  });

  it('a nickname (asked for when missing) and a description, each within its rules', () => {
    expect(parseProfilesCreateOptions({ nickname: 'payroll', description: 'salaries' })).toEqual({
      nickname: 'payroll',
      description: 'salaries',
    });
    expect(parseProfilesCreateOptions({})).toEqual({ nickname: undefined, description: undefined });
    expect(usageMessage(() => parseProfilesCreateOptions({ nickname: '  ' }))).toBe('--nickname: must not be blank');
    expect(usageMessage(() => parseProfilesCreateOptions({ nickname: 'n'.repeat(129) }))).toBe(
      '--nickname: must be at most 128 characters',
    );
    expect(usageMessage(() => parseProfilesCreateOptions({ description: 'd'.repeat(1001) }))).toBe(
      '--description: must be at most 1000 characters',
    );
  });
});

describe('parseBalancesOptions', () => {
  it('assets upper-cased, each once, comma separated or not; the switches', () => {
    expect(parseBalancesOptions(['btc,usd', 'BTC'], { profileId: 'p', includeZero: true })).toEqual({
      assets: ['BTC', 'USD'],
      profileId: 'p',
      allProfiles: false,
      includeZero: true,
    });
    expect(parseBalancesOptions([], { allProfiles: true })).toEqual({
      assets: undefined,
      profileId: undefined,
      allProfiles: true,
      includeZero: false,
    });
  });

  it.each([
    // By their shape only (upper-cased): the catalogue is the run's, once it knows the service.
    [['BTC', 'no-pe'], {}, 'ASSET: "no-pe" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)'],
    [[], { profileId: 'p', allProfiles: true }, '--profile-id and --all-profiles: give one'],
    [[], { profileId: '' }, '--profile-id: must not be empty'],
  ])('%j %j is refused', (args, raw, message) => {
    expect(usageMessage(() => parseBalancesOptions(args as string[], raw))).toBe(message);
  });
});
