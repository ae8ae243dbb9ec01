// One gate for money, as it applies to batches (issue 23): approvals cover the ref_ids actually sent (a repeat run
// needs approvals of its own); a journal's rows are bound to what was confirmed (an edited journal is refused on
// --resume, naming the row); the policy's hours are checked for every row as it is sent, by the service's clock;
// every row's attempt is durable in the audit log before its request leaves; coinop's own refusals are audited.
// In process (sandbox().runIn): the local service and coinop share this process, and the service's clock and the
// audit log are changed while a batch runs, once the service has answered some of its rows (polled, with a deadline).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalRow } from '../../src/batch/journal.js';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { twoKeyApprovalsPolicy } from '../support/approvals.js';
import { until } from '../support/wait.js';

const OTHER_BTC = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const policyPath = () => join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml');
function writePolicy(text: string): void {
  mkdirSync(join(sb.env.COINOP_CONFIG_DIR, 'policies'), { recursive: true });
  writeFileSync(policyPath(), text);
}
const lastError = (r: Run) => JSON.parse(r.stderr.trim().split('\n').at(-1)!).error as { message: string };

/** Withdrawal requests the service received in all (from its request journal). */
async function posts(): Promise<number> {
  const { items } = (await sb.control('GET', '/_local/journal?limit=100000')) as {
    items: { method: string; url: string }[];
  };
  return items.filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals')).length;
}

/** The audit log's entries (of a file other than the log, when given). */
function auditEntries(path = join(sb.env.COINOP_DATA_DIR, 'audit', 'audit.log')): any[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function batchJournal(): string {
  const dir = join(sb.env.COINOP_DATA_DIR, 'batches');
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.journal'))
    .map((n) => join(dir, n));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

const ethRows = (n: number, tag: string) =>
  `destination_address,asset,crypto_network,amount,meta.tag\n${Array.from({ length: n }, (_, i) => `${ETH_ADDRESS},ETH,BASE,0.001,${tag}-${i + 1}`).join('\n')}\n`;

describe('a repeat run needs approvals of its own', () => {
  const machine = (name: string) => ({
    COINOP_CONFIG_DIR: join(sb.dir, `config-${name}`),
    COINOP_DATA_DIR: join(sb.dir, `data-${name}`),
  });
  const keys: Record<string, { key: string; key_id: string }> = {};
  const approvalsPolicy = () => twoKeyApprovalsPolicy(keys);
  const approve = async (who: string, file: string, extra: string[] = []) => {
    const r = await sb.runIn(['approve', file, '--yes', '-o', 'json', ...extra], { env: machine(who) });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).approval_file as string;
  };

  it('approvals of the first payment never count for a CRLF copy paid again; repeat approvals pay once, not twice', async () => {
    for (const who of ['alice', 'bob']) {
      const r = await sb.runIn(['approve', '--show-key', '-o', 'json'], { env: machine(who) });
      expect(r.code, r.stderr).toBe(0);
      keys[who] = JSON.parse(r.stdout);
    }
    writePolicy(approvalsPolicy());
    const csv = `destination_address,asset,crypto_network,amount,meta.invoice\n${BTC_ADDRESS},BTC,BITCOIN,0.08,R-1\n${BTC_ADDRESS},BTC,BITCOIN,0.09,R-2\n`;
    const first = join(sb.dir, 'repeat.csv');
    writeFileSync(first, csv);
    const firstApprovals = [await approve('alice', first), await approve('bob', first)];
    const paid = await sb.runIn(['withdraw', 'batch', first, '--yes', '-o', 'json']);
    expect(paid.code, paid.stderr).toBe(0);
    const firstIds = JSON.parse(paid.stdout).map((r: { ref_id: string }) => r.ref_id) as string[];

    // The same rows with CRLF line ends, paid again with the first payment's approvals: refused, nothing sent.
    const copy = join(sb.dir, 'repeat-crlf.csv');
    writeFileSync(copy, csv.replace(/\n/g, '\r\n'));
    const given = firstApprovals.flatMap((a) => ['--approvals', a]);
    const before = await posts();
    const reused = await sb.runIn(['withdraw', 'batch', copy, '--yes', '--allow-repeat', '-o', 'json', ...given]);
    expect(reused.code).toBe(8);
    expect(lastError(reused).message).toMatch(/^refused by policy: .*approvals/);
    expect(reused.stderr).toContain(
      'not counted: approves the first payment of these rows, and this run pays rows again (--allow-repeat): a repeat needs approvals of its own (coinop approve FILE --allow-repeat)',
    );
    expect(await posts()).toBe(before);

    // Approved as a repeat: paid again, under ref_ids salted by the repeat content (the same for every row).
    const signed = await sb.runIn(['approve', copy, '--allow-repeat', '--yes', '-o', 'json'], {
      env: machine('alice'),
    });
    expect(signed.code, signed.stderr).toBe(0);
    const { repeat_salt } = JSON.parse(signed.stdout) as { repeat_salt: string };
    const dry = await sb.runIn(['withdraw', 'batch', copy, '--dry-run', '--allow-repeat', '-o', 'json']);
    expect(dry.stderr).toContain(`paid again under ref_ids ending -${repeat_salt}, the salt of this content`);
    await approve('bob', copy, ['--allow-repeat']);
    const again = await sb.runIn(['withdraw', 'batch', copy, '--yes', '--allow-repeat', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as { ref_id: string; result: string }[];
    const salt = report[0].ref_id.slice(firstIds[0].length);
    // The salt the approver was shown, offline: derived from the repeat content they signed.
    expect(salt).toBe(`-${repeat_salt}`);
    expect(report.map((r) => r.ref_id)).toEqual(firstIds.map((id) => id + salt));
    expect(report.map((r) => r.result)).toEqual(['created', 'created']);

    // The same repeat approvals a second time (another copy of the file): the same salted ref_ids, already paid.
    const third = join(sb.dir, 'repeat-third.csv');
    writeFileSync(third, `${readFileSync(copy, 'utf8')}\r\n`);
    const repeatApprovals = ['alice', 'bob'].flatMap((w) => ['--approvals', `${copy}.approval-${keys[w].key_id}.txt`]);
    const twice = await sb.runIn([
      'withdraw',
      'batch',
      third,
      '--yes',
      '--allow-repeat',
      '-o',
      'json',
      ...repeatApprovals,
    ]);
    expect(twice.code, twice.stderr).toBe(0);
    const r3 = JSON.parse(twice.stdout) as { ref_id: string; result: string }[];
    expect(r3.map((r) => r.ref_id)).toEqual(report.map((r) => r.ref_id));
    expect(r3.map((r) => r.result)).toEqual(['already submitted', 'already submitted']);
    writePolicy('version: 1\n');
  });

  it("a resumed repeat run checks the approvals against the journal (salted ref_ids): the first payment's do not count", async () => {
    writePolicy(approvalsPolicy());
    const csv = `destination_address,asset,crypto_network,amount,meta.invoice\n${BTC_ADDRESS},BTC,BITCOIN,0.05,S-1\n${BTC_ADDRESS},BTC,BITCOIN,1,S-2\n`;
    const first = join(sb.dir, 'resumed-repeat.csv');
    writeFileSync(first, csv);
    const firstApprovals = [await approve('alice', first), await approve('bob', first)];
    const paid = await sb.runIn(['withdraw', 'batch', first, '--yes', '-o', 'json']);
    expect(paid.code, paid.stderr).toBe(0);
    // The repeat, approved as one, stopped after its first row: the second is over the service's limit on each
    // transfer (refused, left to --retry-failed).
    const copy = join(sb.dir, 'resumed-repeat-crlf.csv');
    writeFileSync(copy, csv.replace(/\n/g, '\r\n'));
    const repeatApprovals = [
      await approve('alice', copy, ['--allow-repeat']),
      await approve('bob', copy, ['--allow-repeat']),
    ];
    const { rules } = await sb.control('GET', '/_local/limits');
    await sb.control('PUT', '/_local/limits', {
      rules: [
        { id: 'each', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 0, limit: '10000', limit_asset: 'USD' },
      ],
    });
    const args = ['withdraw', 'batch', copy, '--yes', '--allow-repeat', '--allow-partial', '-o', 'json'];
    const part = await sb.runIn(args);
    expect(part.code, part.stderr).toBe(6);
    await sb.control('PUT', '/_local/limits', { rules });
    // The repeat approvals moved away, the first payment's given: the journal's rows are a repeat, so refused.
    for (const a of repeatApprovals) renameSync(a, `${a}.away`);
    const before = await posts();
    const wrong = await sb.runIn([
      ...args,
      '--resume',
      '--retry-failed',
      ...firstApprovals.flatMap((a) => ['--approvals', a]),
    ]);
    expect(wrong.code).toBe(8);
    expect(wrong.stderr).toContain('not counted: approves the first payment of these rows');
    expect(await posts()).toBe(before);
    for (const a of repeatApprovals) renameSync(`${a}.away`, a);
    const right = await sb.runIn([...args, '--resume', '--retry-failed']);
    expect(right.code, right.stderr).toBe(0);
    expect(await posts()).toBe(before + 1);
    writePolicy('version: 1\n');
  });

  it('a repeat run none of whose rows was paid before is still a repeat on --resume: its repeat approvals hold', async () => {
    writePolicy(approvalsPolicy());
    const file = join(sb.dir, 'fresh-repeat.csv');
    writeFileSync(
      file,
      `destination_address,asset,crypto_network,amount,meta.invoice\n${BTC_ADDRESS},BTC,BITCOIN,0.05,F-1\n${BTC_ADDRESS},BTC,BITCOIN,1,F-2\n`,
    );
    await approve('alice', file, ['--allow-repeat']);
    await approve('bob', file, ['--allow-repeat']);
    const { rules } = await sb.control('GET', '/_local/limits');
    await sb.control('PUT', '/_local/limits', {
      rules: [
        { id: 'each', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 0, limit: '10000', limit_asset: 'USD' },
      ],
    });
    const args = ['withdraw', 'batch', file, '--yes', '--allow-repeat', '--allow-partial', '-o', 'json'];
    const part = await sb.runIn(args);
    expect(part.code, part.stderr).toBe(6);
    await sb.control('PUT', '/_local/limits', { rules });
    const rest = await sb.runIn([...args, '--resume', '--retry-failed']);
    expect(rest.code, rest.stderr).toBe(0);
    writePolicy('version: 1\n');
  });
});

describe('a journal is bound to the rows confirmed', () => {
  it('a journal whose planned rows were edited is refused on --resume, naming the row; hashes recomputed, the audit entry still tells', async () => {
    writePolicy('version: 1\n');
    const { rules } = await sb.control('GET', '/_local/limits');
    // Row 2 is over the limit on each transfer: not sent (--allow-partial), nor row 3 after it (BTC ran out there);
    // both left to --resume --retry-failed.
    await sb.control('PUT', '/_local/limits', {
      rules: [
        { id: 'each', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 0, limit: '10000', limit_asset: 'USD' },
      ],
    });
    const file = join(sb.dir, 'bound.csv');
    writeFileSync(
      file,
      `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.01\n${BTC_ADDRESS},BTC,BITCOIN,1\n${BTC_ADDRESS},BTC,BITCOIN,0.02\n`,
    );
    const first = await sb.runIn(['withdraw', 'batch', file, '--yes', '--allow-partial', '-o', 'json']);
    expect(first.code, first.stderr).toBe(6);
    await sb.control('PUT', '/_local/limits', { rules });
    const jfile = batchJournal();
    const db = new Database(jfile);
    const original = db.prepare('SELECT * FROM rows WHERE row = 2').get() as Record<string, any>;
    const meta = db.prepare(`SELECT value FROM meta WHERE key = 'rows_sha256'`).get() as { value: string } | undefined;
    const metaDigest = meta?.value;
    // Another destination, ten times the amount.
    const body = { ...JSON.parse(original.body), destination_address: OTHER_BTC, amount: '10' };
    db.prepare('UPDATE rows SET body = ?, destination_address = ?, req_amount = ? WHERE row = 2').run(
      JSON.stringify(body),
      OTHER_BTC,
      '10',
    );
    const before = await posts();
    const edited = await sb.runIn(['withdraw', 'batch', file, '--resume', '--retry-failed', '--yes', '-o', 'json']);
    expect(edited.code).toBe(2);
    expect(lastError(edited).message).toMatch(
      /^the journal .* does not hold the rows that were confirmed: row 2: it is not the row that was confirmed/,
    );
    expect(await posts()).toBe(before);
    const refusal = auditEntries().at(-1);
    expect(refusal).toMatchObject({ kind: 'batch', what: { resumed: true }, outcome: { result: 'refused' } });
    expect(refusal.outcome.error.message).toMatch(/does not hold the rows that were confirmed: row 2/);

    // The row's hash and the journal's digest recomputed to match: the audit entry's digest (hash-chained) differs.
    const { plannedRow: planned, rowHash, RowsDigest } = await import('../../src/batch/journal.js');
    const all = db.prepare(`SELECT * FROM rows WHERE state != 'invalid' ORDER BY row`).all() as JournalRow[];
    const digest = new RowsDigest();
    for (const r of all) {
      db.prepare('UPDATE rows SET row_hash = ? WHERE row = ?').run(rowHash(planned(r)), r.row);
      digest.add(planned(r));
    }
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'rows_sha256'`).run(digest.finish());
    const rehashed = await sb.runIn(['withdraw', 'batch', file, '--resume', '--retry-failed', '--yes', '-o', 'json']);
    expect(rehashed.code).toBe(2);
    expect(lastError(rehashed).message).toMatch(/is not the one the audit log recorded when batch \S+ was confirmed/);
    expect(await posts()).toBe(before);

    // Put back as coinop wrote it: the resume goes, shows what it sends (the journal's rows left), and sends it.
    db.prepare('UPDATE rows SET body = ?, destination_address = ?, req_amount = ?, row_hash = ? WHERE row = 2').run(
      original.body,
      original.destination_address,
      original.req_amount,
      original.row_hash,
    );
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'rows_sha256'`).run(metaDigest);
    db.close();
    const ok = await sb.runIn(['withdraw', 'batch', file, '--resume', '--retry-failed', '--yes', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/resuming: 2 of 3 rows to send: BTC BITCOIN 2 rows, 1\.02 BTC plus fees/);
    const report = JSON.parse(ok.stdout) as {
      row: number;
      result: string;
      destination_address: string;
      amount: string;
    }[];
    expect(report[1]).toMatchObject({ row: 2, result: 'created', destination_address: BTC_ADDRESS });
    expect(report[2]).toMatchObject({ row: 3, result: 'created' });
    expect(await posts()).toBe(before + 2);
  });
});

describe('the hours, row by row by the service clock', () => {
  it('a row due past the window stops the batch (exit 8, resumable); outside the hours --resume is refused, inside it ends it', async () => {
    const { now } = await sb.control('GET', '/_local/health');
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const start = Math.floor(Date.parse(now) / 60_000) * 60_000 - 30 * 60_000;
    const window = `${hhmm(start)}-${hhmm(start + 2 * 3600_000)} UTC`;
    writePolicy(`hours: "${window}"\n`);
    const file = join(sb.dir, 'hours.csv');
    writeFileSync(file, ethRows(30, 'hours'));
    await sb.control('PUT', '/_local/faults', { latencyMs: 60, rateLimits: { enabled: false } });
    try {
      const base = await posts();
      const running = sb.runIn(['withdraw', 'batch', file, '--yes', '--concurrency', '1', '--rate', '0', '-o', 'json']);
      await until('three rows answered', async () => (await posts()) - base >= 3);
      // Two hours on: past the window's end.
      await sb.control('POST', '/_local/clock/advance', { seconds: 2 * 3600 });
      const atMove = (await posts()) - base;
      const r = await running;
      expect(r.code, r.stderr).toBe(8);
      expect(lastError(r).message).toMatch(
        new RegExp(
          `^refused by policy: rule hours: row \\d+: sending is allowed ${window}; it is \\d\\d:\\d\\d UTC \\(by the service's clock\\).*run again with --resume`,
        ),
      );
      const sent = (await posts()) - base;
      // After the clock moved, at most the row in flight then and the one checked before its answer told the new
      // time go: every later row is checked against the service's new time and stays unsent.
      expect(sent - atMove).toBeLessThanOrEqual(2);
      expect(sent).toBeLessThan(30);
      const refusal = auditEntries()
        .filter((e) => e.kind === 'batch' && e.outcome.result === 'refused')
        .at(-1);
      expect(refusal.outcome.error.message).toMatch(/rule hours/);
      const db = new Database(batchJournal(), { readonly: true });
      const left = (db.prepare(`SELECT count(*) AS n FROM rows WHERE state = 'planned'`).get() as { n: number }).n;
      db.close();
      expect(left).toBeGreaterThan(0);
      expect(refusal.what.rows).toBe(left);

      const outside = await sb.runIn(['withdraw', 'batch', file, '--resume', '--yes', '-o', 'json']);
      expect(outside.code).toBe(8);
      expect((await posts()) - base).toBe(sent);
      // The next day, inside the window again.
      await sb.control('POST', '/_local/clock/advance', { seconds: 22 * 3600 });
      const rest = await sb.runIn(['withdraw', 'batch', file, '--resume', '--yes', '-o', 'json']);
      expect(rest.code, rest.stderr).toBe(0);
      const report = JSON.parse(rest.stdout) as { result: string }[];
      expect(report).toHaveLength(30);
      expect(report.every((x) => x.result === 'created')).toBe(true);
    } finally {
      await sb.control('PUT', '/_local/faults', { rateLimits: { enabled: false } });
      writePolicy('version: 1\n');
    }
  });
});

describe('the audit log before every row', () => {
  it('the log made unwritable mid-batch stops it (exit 6, resumable): no row left without its attempt on disk', async () => {
    const file = join(sb.dir, 'audited.csv');
    writeFileSync(file, ethRows(40, 'audited'));
    const log = join(sb.env.COINOP_DATA_DIR, 'audit', 'audit.log');
    const aside = `${log}.aside`;
    const base = await posts();
    const running = sb.runIn(['withdraw', 'batch', file, '--yes', '--concurrency', '1', '--rate', '5', '-o', 'json']);
    await until('three rows answered', async () => (await posts()) - base >= 3);
    // The log's path becomes a folder: no entry can be written there any more.
    renameSync(log, aside);
    mkdirSync(log);
    let r: Run;
    try {
      r = await running;
    } finally {
      rmdirSync(log);
      renameSync(aside, log);
    }
    expect(r.code, r.stderr).toBe(6);
    expect(lastError(r).message).toMatch(/^the audit log .* cannot be written: .*no row is sent without its entry/);
    const sent = (await posts()) - base;
    expect(sent).toBeLessThan(40);
    // Every row that left has its attempt in the log (written before it left), and the log verifies.
    const jfile = batchJournal();
    const db = new Database(jfile, { readonly: true });
    const gone = db.prepare(`SELECT ref_id FROM rows WHERE state != 'planned'`).all() as { ref_id: string }[];
    db.close();
    expect(gone.length).toBe(sent);
    const attempts = new Set(
      auditEntries()
        .filter((e) => e.kind === 'batch_row' && e.outcome.result === 'attempt')
        .map((e) => e.ref_id),
    );
    for (const g of gone) expect(attempts.has(g.ref_id), g.ref_id).toBe(true);
    expect((await sb.runIn(['audit', 'verify'])).code).toBe(0);
    const rest = await sb.runIn(['withdraw', 'batch', file, '--resume', '--yes', '-o', 'json']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout).every((x: { result: string }) => x.result === 'created')).toBe(true);
    expect((await posts()) - base).toBe(40);
  });
});

describe("coinop's own refusals of a batch are audited", () => {
  it('insufficient funds and the policy each leave a refused batch entry: its id, rows, totals and the full reason', async () => {
    const file = join(sb.dir, 'too-much.csv');
    // Eleven rows of 99 BTC: each under the largest BTC withdrawal (100), together over the balance (1000).
    writeFileSync(
      file,
      `destination_address,asset,crypto_network,amount\n${Array.from({ length: 11 }, () => `${BTC_ADDRESS},BTC,BITCOIN,99`).join('\n')}\n`,
    );
    const poor = await sb.runIn(['withdraw', 'batch', file, '--yes', '-o', 'json']);
    expect(poor.code, poor.stderr).toBe(2);
    expect(poor.stderr).toMatch(/shortfalls above/);
    let e = auditEntries().at(-1);
    expect(e).toMatchObject({
      kind: 'batch',
      what: { rows: 11, totals: [{ asset: 'BTC', network: 'BITCOIN', rows: 11, amount: '1089' }] },
      outcome: { result: 'refused', error: { category: 'usage' } },
    });
    expect(e.what.batch_id).toMatch(/^[0-9a-f]{16}$/);
    expect(e.outcome.error.message).toMatch(/BTC/);
    expect(e.outcome.error.message).not.toContain('(shortfalls above)');

    writePolicy('max_per_withdrawal:\n  BTC: 0.5\n');
    const small = join(sb.dir, 'policy.csv');
    writeFileSync(
      small,
      `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.6\n${BTC_ADDRESS},BTC,BITCOIN,0.7\n`,
    );
    const refused = await sb.runIn(['withdraw', 'batch', small, '--yes', '-o', 'json']);
    expect(refused.code).toBe(8);
    e = auditEntries()
      .filter((x) => x.kind === 'batch')
      .at(-1);
    expect(e).toMatchObject({
      what: { rows: 2, totals: [{ asset: 'BTC', amount: '1.3' }] },
      outcome: { result: 'refused', error: { category: 'policy' } },
    });
    // The full reason: every violation, where stderr says "listed above".
    expect(lastError(refused).message).toMatch(/listed above/);
    expect(e.outcome.error.message).toMatch(
      /^refused by policy \(.*local\.yaml\): max_per_withdrawal: row 1: 0\.6 BTC.*; max_per_withdrawal: row 2: 0\.7 BTC/,
    );
    writePolicy('version: 1\n');
  });
});
