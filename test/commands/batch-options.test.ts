// coinop withdraw batch: raw flags (merged with the parents', as commander hands them over) to checked options.
import { describe, expect, it } from 'vitest';
import { type BatchOptions, parseBatchOptions } from '../../src/commands/withdraw/batch/options.js';
import { usageMessage } from './support.js';

/** What commander gives when no flag is typed: the declared defaults. */
const DEFAULTS = { concurrency: '4', rate: '18', waitTimeout: '600' };
const NONE: BatchOptions = {
  format: undefined,
  profileId: undefined,
  dryRun: false,
  yes: false,
  resume: false,
  retryFailed: false,
  skipInvalid: false,
  waitSeconds: 0,
  concurrency: 4,
  rate: 18,
  journal: undefined,
  allowRepeat: false,
  allowPartial: false,
  approvals: undefined,
};
const RATE = '--rate: must be a number of withdrawals per second from 0 (no limit) to 10000';

const VALID: [name: string, raw: Record<string, unknown>, expected: Partial<BatchOptions>][] = [
  ['the defaults', {}, {}],
  [
    'value flags',
    { format: 'jsonl', profileId: 'p-1', journal: '/tmp/j', concurrency: '64' },
    { format: 'jsonl', profileId: 'p-1', journal: '/tmp/j', concurrency: 64 },
  ],
  [
    'switches',
    { yes: true, skipInvalid: true, allowRepeat: true, allowPartial: true, dryRun: true },
    { yes: true, skipInvalid: true, allowRepeat: true, allowPartial: true, dryRun: true },
  ],
  ['--resume', { resume: true }, { resume: true }],
  ['--retry-failed implies --resume', { retryFailed: true }, { resume: true, retryFailed: true }],
  ['--wait follows for --wait-timeout seconds', { wait: true, waitTimeout: '30' }, { waitSeconds: 30 }],
  ['without --wait nothing is followed', { waitTimeout: '30' }, { waitSeconds: 0 }],
  ['--wait-timeout takes a duration', { wait: true, waitTimeout: '2h' }, { waitSeconds: 7200 }],
  ['--rate 0 is no client-side limit', { rate: '0' }, { rate: Infinity }],
  ['a fractional --rate', { rate: '2.5' }, { rate: 2.5 }],
  ['the largest --rate', { rate: '10000' }, { rate: 10_000 }],
  ['--approvals files, repeatable', { approvals: ['a.txt', 'b.txt'] }, { approvals: ['a.txt', 'b.txt'] }],
];

const INVALID: [raw: Record<string, unknown>, message: string][] = [
  [{ concurrency: '0' }, '--concurrency: must be from 1 to 64'],
  [{ concurrency: '65' }, '--concurrency: must be from 1 to 64'],
  [{ concurrency: 'many' }, '--concurrency: must be a whole number from 1 to 64'],
  [{ rate: 'fast' }, RATE],
  [{ rate: '10001' }, RATE],
  [{ rate: '-1' }, RATE],
  [{ rate: '1e3' }, RATE],
  // Checked whether or not --wait is given.
  [{ waitTimeout: '0' }, '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
  [{ waitTimeout: '604801', wait: true }, '--wait-timeout: must be at most 168 h'],
  [{ waitTimeout: 'soon' }, '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
  [{ dryRun: true, resume: true }, '--dry-run: cannot be combined with --resume (a dry run sends nothing to resume)'],
  [
    { dryRun: true, retryFailed: true },
    '--dry-run: cannot be combined with --resume (a dry run sends nothing to resume)',
  ],
  [{ format: 'xml' }, '--format: must be one of csv, jsonl, json'],
  [{ concurrency: '0', rate: 'fast' }, '--concurrency: must be from 1 to 64'],
];

describe('parseBatchOptions', () => {
  it.each(VALID)('%s', (_name, raw, expected) => {
    expect(parseBatchOptions({ ...DEFAULTS, ...raw })).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseBatchOptions({ ...DEFAULTS, ...raw }))).toBe(message);
  });

  it('reads the global and withdraw flags merged in without taking them for its own', () => {
    expect(parseBatchOptions({ ...DEFAULTS, profile: 'sandbox', output: 'json', json: false, input: true })).toEqual(
      NONE,
    );
  });
});
