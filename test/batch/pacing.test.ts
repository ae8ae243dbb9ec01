// The client-side pace against the service's own rate limit: the default pace (18/s) never draws a 429 from a
// service that allows 20/s; without a client-side limit the service throttles, and the batch backs off, waits
// and still sends every row exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ethCsv, journalEntries, run, startEnv, withdrawals, type Env } from './support/harness.js';

let e: Env;
beforeAll(async () => {
  e = await startEnv({
    journalSize: 5000,
    rateLimits: {
      enabled: true,
      windowSeconds: 2,
      throttleSeconds: 2,
      withdrawalsPerSecond: 20,
      tokenPerSecond: 5,
      otherPerSecond: 50,
    },
  });
});
afterAll(async () => {
  await e?.svc.close();
});

async function withdrawalStatuses(): Promise<number[]> {
  return (await journalEntries(e.svc))
    .filter((j) => j.method === 'POST' && j.url === '/v2/transfer/crypto-withdrawals')
    .map((j) => j.status);
}

describe('withdraw batch and the service rate limit', () => {
  it('the default pace stays under 20 withdrawals a second: no 429', async () => {
    const f = join(e.dir, 'paced.csv');
    writeFileSync(f, ethCsv(60, 'paced-'));
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--concurrency', '8', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const statuses = await withdrawalStatuses();
    expect(statuses).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  });

  it('with no client-side limit the service throttles; the batch backs off and sends every row once', async () => {
    const f = join(e.dir, 'unpaced.csv');
    writeFileSync(f, ethCsv(90, 'unpaced-'));
    const before = (await withdrawalStatuses()).length;
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--rate', '0', '--concurrency', '8', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const statuses = (await withdrawalStatuses()).slice(before);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const report = JSON.parse(r.stdout);
    const refs = new Set(report.map((x: any) => x.ref_id));
    const mine = (await withdrawals(e.svc)).filter((t) => refs.has(t.ref_id));
    expect(mine).toHaveLength(90);
    expect(new Set(mine.map((t) => t.ref_id)).size).toBe(90);
  });
});
