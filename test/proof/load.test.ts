// A short run of scripts/proof/load.mjs (the load-with-faults proof) inside the suite: a few clients withdraw for a
// few seconds against a service that injects 429/500/503 and resets before and after commit; the script's own checks
// (no negative balance, no ref_id twice, every balance accounted for to the last decimal) must all pass, and the
// faults must really have happened. Runs the built dist/ (npm test builds first).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

describe('load with faults (short run)', () => {
  it('10 clients for 5 seconds: no violation, and every kind of fault was met and survived', () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts/proof/load.mjs'), '--clients', '10', '--seconds', '5', '--seed', String(seed), '--json'],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    const line = r.stdout.trim().split('\n').pop() ?? '';
    expect(line, `seed ${seed}; stderr: ${r.stderr}`).toMatch(/^\{/);
    const report = JSON.parse(line);
    expect(report.violations, `seed ${seed}`).toEqual([]);
    expect(r.status, `seed ${seed}; stderr: ${r.stderr}`).toBe(0);
    expect(report.withdrawals_created).toBeGreaterThan(0);
    for (const s of ['429', '500', '503'])
      expect(report.answers[s], `answers ${JSON.stringify(report.answers)}`).toBeGreaterThan(0);
    expect(report.network_errors, 'connection resets').toBeGreaterThan(0);
    // Answers lost after the commit were recovered through the ref_id's 409, never by a second transfer.
    expect(report.recovered_after_lost_answer_409).toBeGreaterThan(0);
    expect(report.balance_polls).toBeGreaterThan(0);
    expect(report.transfers_after_settling.PENDING ?? 0).toBe(0);
  });
});
