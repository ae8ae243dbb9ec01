// withdraw batch on a real terminal: the summary is confirmed before anything is sent, a progress bar runs on
// stderr, the report is a table; answering no sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY, Term } from '../cli/terminal.js';
import { ethCsv, startEnv, type Env, withdrawalPosts } from './support/harness.js';

let e: Env;
beforeAll(async () => {
  e = await startEnv({ journalSize: 5000 });
});
afterAll(async () => {
  await e?.svc.close();
});

const posts = () => withdrawalPosts(e.svc);

describe('withdraw batch on a terminal', () => {
  it('answering no at the summary sends nothing and exits 3', async () => {
    const f = join(e.dir, 'no.csv');
    writeFileSync(f, ethCsv(5, 'no-'));
    const t = new Term(['withdraw', 'batch', f], { ...e.env, NO_COLOR: undefined });
    await t.waitFor('Send 5 withdrawals?');
    const s = t.screen();
    expect(s).toMatch(/Batch withdrawal of 5 rows \(local\)/);
    expect(s).toMatch(/environment\s+local \(http:\/\/127\.0\.0\.1:\d+\)/);
    expect(s).toMatch(/rows\s+5 in the file: 5 valid/);
    expect(s).toMatch(/ETH ETHEREUM\s+5 rows, 0\.015 ETH plus fees/);
    t.type(`n${KEY.enter}`);
    expect(await t.exit()).toBe(3);
    expect(await posts()).toEqual([]);
  });

  it('confirmed: a progress bar while sending, then the report as a table', async () => {
    const f = join(e.dir, 'yes.csv');
    writeFileSync(f, ethCsv(30, 'yes-'));
    // The default pace (18/s) makes the run last long enough for the bar to be drawn several times.
    const t = new Term(['withdraw', 'batch', f], { ...e.env, NO_COLOR: undefined });
    await t.waitFor('Send 30 withdrawals?');
    t.type(`y${KEY.enter}`);
    expect(await t.exit(30_000)).toBe(0);
    expect(t.raw).toMatch(/\[#*\.*\] \d+\/30 · \d+ ok · 0 failed · [\d.]+\/s · [\d:]+ left/);
    const s = t.screen();
    expect(s).toMatch(/ROW\s+RESULT\s+TRANSFER_ID\s+STATUS\s+ASSET\s+AMOUNT\s+FEE\s+PROBLEM/);
    expect(s).toMatch(/30\s+created\s+[0-9a-f-]{36}\s+PENDING\s+ETH\s+0\.003\s+0\.0005/);
    expect(s).toMatch(/30 rows: 30 created · journal /);
    expect(await posts()).toHaveLength(30);
  });
});
