// A 500-row batch killed with SIGKILL at several moments, resumed each time: every row ends with exactly one
// transfer, and the balance moved once per row. Then the same with faults (429, 500, resets before and after commit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { dec, fmt, sum } from '../../src/contract/index.js';
import { seededRng } from '../../src/market-data/rng.js';
import {
  balance,
  ethCsv,
  ethCsvRefIds,
  run,
  setFaults,
  startEnv,
  withdrawals,
  type Env,
  answered,
  defaultJournal,
} from './support/harness.js';

const ROWS = 500;

function unfinished(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (
      db.prepare(`SELECT count(*) AS n FROM rows WHERE state IN ('planned', 'sent', 'unknown')`).get() as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

async function killAndResume(
  env: Env,
  name: string,
  extra: string,
  killPoints: number[],
  beforeChecks?: () => Promise<void>,
) {
  const csv = ethCsv(ROWS, extra);
  const file = join(env.dir, name);
  writeFileSync(file, csv);
  const jfile = defaultJournal(env, csv);
  const ethBefore = dec(await balance(env.svc, 'ETH'));
  const args = ['withdraw', 'batch', file, '--yes', '--rate', '500', '--concurrency', '8', '-o', 'ndjson'];
  const kills: { at: number; answered: number; signal: string | null; code: number | null; stderr: string }[] = [];
  for (const [i, point] of killPoints.entries()) {
    const r = await run(env, i === 0 ? args : [...args, '--resume'], {
      killWhen: async () => answered(jfile) >= point,
    });
    kills.push({
      at: point,
      answered: answered(jfile),
      signal: r.signal,
      code: r.code,
      stderr: r.stderr.slice(0, 300),
    });
  }
  // Killed runs were really cut short (not finished before the kill).
  expect(kills.filter((k) => k.signal === 'SIGKILL').length, JSON.stringify(kills)).toBeGreaterThanOrEqual(
    killPoints.length - 1,
  );
  // A run without --resume refuses to start over an interrupted journal.
  if (unfinished(jfile) > 0) {
    const refused = await run(env, args);
    expect(refused.stderr + refused.code).toMatch(/2$/);
    expect(refused.stderr).toMatch(/interrupted run .*add --resume/s);
  }
  const final = await run(env, [...args, '--resume']);

  expect(`${final.code} ${final.stderr}`).toMatch(/^0 /);
  await beforeChecks?.();

  // Every row has exactly one transfer, found by its ref_id, and nothing else was created.
  const expected = new Set(ethCsvRefIds(ROWS, extra));
  const mine = (await withdrawals(env.svc)).filter((t) => t.ref_id && expected.has(t.ref_id));
  const perRef = new Map<string, number>();
  for (const t of mine) perRef.set(t.ref_id!, (perRef.get(t.ref_id!) ?? 0) + 1);
  expect(perRef.size).toBe(ROWS);
  expect([...perRef.values()].every((n) => n === 1)).toBe(true);
  // The money moved once per row: the balance fell by exactly the sum of the transfers' totals.
  const ethAfter = dec(await balance(env.svc, 'ETH'));
  expect(fmt(ethBefore.minus(ethAfter))).toBe(fmt(sum(mine.map((t) => t.total))));

  // The final report accounts for every row, with the transfer the service holds.
  const report = final.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(report).toHaveLength(ROWS);
  const byRef = new Map(mine.map((t) => [t.ref_id, t.id]));
  for (const r of report) {
    expect(['created', 'already submitted']).toContain(r.result);
    expect(r.transfer_id).toBe(byRef.get(r.ref_id));
  }
  // Running the finished batch again sends nothing.
  const again = await run(env, args);
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(/already ran to the end.*; nothing was sent/);
  return kills;
}

describe('withdraw batch survives SIGKILL', () => {
  let e: Env;
  beforeAll(async () => {
    e = await startEnv({ journalSize: 20000 });
  });
  afterAll(async () => {
    await e?.svc.close();
  });

  it('resumes after kills at several moments and sends each row exactly once', async () => {
    const rng = seededRng(Number(process.env.BATCH_KILL_SEED ?? 7));
    const points = [1, 60 + Math.floor(rng() * 100), 200 + Math.floor(rng() * 100), 340 + Math.floor(rng() * 100)];
    await killAndResume(e, 'plain.csv', 'plain-', points);
    // Many processes, each killed and started again: minutes on a machine loaded with other work (a bound for a hang).
  }, 180_000);

  it('--wait stops at --wait-timeout with exit 10 (still pending), the report, and a way to go on', async () => {
    // Withdrawals settle after 30 s in this service: a 1 s wait cannot see them end.
    const file = join(e.dir, 'wait.csv');
    writeFileSync(file, ethCsv(2, 'wait-'));
    const r = await run(e, ['withdraw', 'batch', file, '--yes', '--wait', '--wait-timeout', '1', '-o', 'json']);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toMatch(
      /stopped waiting after 1 s \(--wait-timeout\): 2 transfers still PENDING; they go on without coinop.*--wait again/s,
    );
    expect(r.stderr).not.toMatch(/network/);
    expect(JSON.parse(r.stdout).map((x: any) => [x.result, x.status])).toEqual([
      ['created', 'PENDING'],
      ['created', 'PENDING'],
    ]);
  });

  it('does the same with 429s, 500s and connection resets before and after the commit', async () => {
    await setFaults(e.svc, {
      rate429: 0.03,
      rate500: 0.04,
      resetBeforeRate: 0.04,
      resetAfterRate: 0.05,
      pathPrefix: '/v2/',
      seed: 11,
    });
    try {
      const rng = seededRng(Number(process.env.BATCH_KILL_SEED ?? 8));
      const points = [20 + Math.floor(rng() * 100), 200 + Math.floor(rng() * 100), 340 + Math.floor(rng() * 80)];
      await killAndResume(e, 'faults.csv', 'faults-', points, () => setFaults(e.svc, {}));
    } finally {
      await setFaults(e.svc, {});
    }
  }, 180_000);
});
