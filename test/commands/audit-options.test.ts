// coinop audit list, verify and export: a real argv to checked options.
import { describe, expect, it } from 'vitest';
import {
  AUDIT_EXPORT_FLAG_TABLE,
  AUDIT_LIST_FLAG_TABLE,
  AUDIT_VERIFY_FLAG_TABLE,
} from '../../src/commands/audit/flags.js';
import * as raw from '../../src/commands/audit/options.js';
import { timeBound } from '../../src/commands/audit/options.js';
import type { Format } from '../../src/render/output.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-11-23T12:34:56.789Z');
const parseAuditListOptions = (argv: string[], now: number) =>
  raw.parseAuditListOptions(parseArgv(AUDIT_LIST_FLAG_TABLE, argv), now);
const parseAuditVerifyOptions = (argv: string[]) =>
  raw.parseAuditVerifyOptions(parseArgv(AUDIT_VERIFY_FLAG_TABLE, argv));
const parseAuditExportOptions = (argv: string[], output: Format | undefined, now: number) =>
  raw.parseAuditExportOptions(parseArgv(AUDIT_EXPORT_FLAG_TABLE, argv), output, now);

describe('time bounds', () => {
  it.each([
    ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T01:00:00+01:00', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T00:00:00.25Z', '2026-11-01T00:00:00.250Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['now', '2026-11-23T12:34:56.789Z'],
    ['24h', '2026-11-22T12:34:56.000Z'],
    ['7d ago', '2026-11-16T12:34:56.000Z'],
  ])('%s is %s', (value, iso) => {
    expect(timeBound('--from', value, NOW)).toBe(iso);
  });

  it.each(['yesterday', '2026-13-01', '2026-02-30', '2026-11-01T25:00:00Z', '1700000000', ''])(
    '%s is refused',
    (value) => {
      expect(usageMessage(() => timeBound('--to', value, NOW))).toMatch(
        /^--to: ".*" is not a time; give an RFC 3339 time/,
      );
    },
  );
});

describe('parseAuditListOptions', () => {
  it('the latest 100 by default; filters as given, assets upper-cased', () => {
    expect(parseAuditListOptions([], NOW)).toEqual({
      from: undefined,
      to: undefined,
      kinds: undefined,
      results: undefined,
      refIds: undefined,
      assets: undefined,
      limit: 100,
    });
    expect(
      parseAuditListOptions(
        [
          '--kind',
          'withdrawal,batch_row',
          '--outcome',
          'refused',
          '--ref-id',
          'a',
          '--asset',
          'btc',
          '--from',
          '7d',
          '--to=now',
          '--limit',
          '5',
          '--gateway',
        ],
        NOW,
      ),
    ).toEqual({
      kinds: ['withdrawal', 'batch_row'],
      results: ['refused'],
      refIds: ['a'],
      assets: ['BTC'],
      from: '2026-11-16T12:34:56.000Z',
      to: '2026-11-23T12:34:56.789Z',
      limit: 5,
    });
    expect(parseAuditListOptions(['--all'], NOW).limit).toBeUndefined();
  });

  it.each([
    [['--kind', 'payout'], /^--kind: must be one of quote, withdrawal, batch, batch_row, internal_transfer/],
    [
      ['--outcome', 'ok'],
      /^--outcome: must be one of attempt, sent, refused, failed, unknown, approved, answered, cancelled, held, rejected, expired$/,
    ],
    [['--limit', '0'], /^--limit: must be from 1 to 100000$/],
    [['--limit', '100001'], /^--limit: must be from 1 to 100000$/],
    [['--limit', 'ten'], /^--limit: must be a whole number/],
    [['--limit', '5', '--all'], /^--limit and --all: give one, not both$/],
    [['--from', '1h', '--to', '2h'], /^--from: must be before --to$/],
    [['--from', 'now', '--to', 'now'], /^--from: must be before --to$/],
    [['--from', 'soon'], /^--from: "soon" is not a time/],
  ])('%j is refused', (argv, message) => {
    expect(usageMessage(() => parseAuditListOptions(argv, NOW))).toMatch(message);
  });
});

describe('parseAuditVerifyOptions', () => {
  it('takes a head as SEQ:SHA256 (a prefix of 8 or more hex digits, any case)', () => {
    expect(parseAuditVerifyOptions([])).toEqual({});
    expect(parseAuditVerifyOptions(['--head', '42:3F2A9C01'])).toEqual({ head: { seq: 42, sha256: '3f2a9c01' } });
  });

  it.each(['42', '42:', ':3f2a9c01', '0:3f2a9c01', '42:3f2a9c', '42:xyzxyzxyz', `1:${'a'.repeat(65)}`])(
    '%s is refused',
    (head) => {
      expect(usageMessage(() => parseAuditVerifyOptions(['--head', head]))).toMatch(/^--head: must be SEQ:SHA256/);
    },
  );
});

describe('parseAuditExportOptions', () => {
  it('is CSV unless -o json or ndjson asks otherwise; never a table', () => {
    expect(parseAuditExportOptions(['--from', '2026-11-01', '--to', '2026-12-01'], undefined, NOW)).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      format: 'csv',
    });
    expect(parseAuditExportOptions([], 'ndjson', NOW).format).toBe('ndjson');
    expect(usageMessage(() => parseAuditExportOptions([], 'table', NOW))).toBe(
      '-o: an export is csv, json or ndjson, not a table',
    );
    expect(
      usageMessage(() => parseAuditExportOptions(['--from', '2026-12-01', '--to', '2026-11-01'], 'csv', NOW)),
    ).toBe('--from: must be before --to');
  });
});
