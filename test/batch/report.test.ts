// The batch's exit code from its outcome, and the progress line.
import { describe, expect, it } from 'vitest';
import { exitCodeOf, outcomeLine, progressLine, type Outcome } from '../../src/batch/report.js';

const base: Outcome = {
  rows: 4,
  created: 0,
  alreadySubmitted: 0,
  failed: 0,
  invalid: 0,
  skipped: 0,
  notSent: 0,
  withTransfer: 0,
};

describe('batch outcome', () => {
  it('0 when every row has its transfer, already submitted included', () => {
    expect(exitCodeOf({ ...base, created: 2, alreadySubmitted: 2, withTransfer: 4 })).toBe(0);
  });
  it('6 when some rows failed, were invalid, skipped (--allow-partial) or are in doubt', () => {
    expect(exitCodeOf({ ...base, created: 3, failed: 1, withTransfer: 3 })).toBe(6);
    expect(exitCodeOf({ ...base, created: 3, skipped: 1, withTransfer: 3 })).toBe(6);
    expect(exitCodeOf({ ...base, created: 3, invalid: 1, withTransfer: 3 })).toBe(6);
    expect(exitCodeOf({ ...base, created: 3, notSent: 1, withTransfer: 3 })).toBe(6);
  });
  it('7 when no row has a transfer', () => {
    expect(exitCodeOf({ ...base, failed: 4 })).toBe(7);
    expect(exitCodeOf({ ...base, failed: 1, skipped: 3 })).toBe(7);
  });
  it('says what happened in one line', () => {
    expect(outcomeLine({ ...base, created: 1, alreadySubmitted: 1, failed: 1, notSent: 1, withTransfer: 2 })).toBe(
      '4 rows: 1 created, 1 already submitted, 1 failed, 1 not sent or without an answer (run again with --resume)',
    );
    expect(outcomeLine({ ...base, created: 2, skipped: 2, withTransfer: 2 })).toBe(
      '4 rows: 2 created, 2 skipped (--allow-partial: a balance or a limit ran out)',
    );
  });
  it('draws done, succeeded, failed, retries, rate and time left', () => {
    const line = progressLine({ todo: 100, done: 25, succeeded: 24, failed: 1, retries: 3, startedAt: 0 }, 5000, 100);
    expect(line).toMatch(/^\[#+\.+\] 25\/100 · 24 ok · 1 failed · 3 retries · 5\.0\/s · 0:15 left$/);
  });
});
