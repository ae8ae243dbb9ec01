// The audit trail end to end: real commands as child processes against the local service write every kind of entry
// (quote, withdrawal, refused withdrawal, internal transfer, sandbox deposit, batch and its rows); coinop audit list
// filters them in every format, export writes the documented columns, verify finds a hand-edited line and a torn
// tail; two commands appending at once keep the chain; no secret or token reaches the log; a log that cannot be
// written stops a withdrawal before anything is sent.
import { readFileSync, rmSync, truncateSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS } from '../../src/audit/export.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Sandbox } from './helpers.js';
import { internalTransfer } from '../support/command-lines.js';

let sb: Sandbox;
let log: string;
beforeAll(async () => {
  sb = await sandbox();
  log = join(sb.env.COINOP_DATA_DIR, 'audit', 'audit.log');
  // One withdrawal may move at most 1,000 USD: 1 BTC is refused, 0.01 ETH is not.
  await sb.control('PUT', '/_local/limits', {
    rules: [
      { id: 'small', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 0, limit: '1000', limit_asset: 'USD' },
    ],
  });
});
afterAll(async () => {
  await sb?.close();
});

/** The log's entries (a torn write's bytes, which are no entry, left out). */
const entries = (path = log) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{') && l.endsWith('}'))
    .map((l) => JSON.parse(l));
const byRef = (ref: string) => entries().filter((e) => e.ref_id === ref);
const BTC = ['--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS];

describe('what real commands write', () => {
  it('fee quote: the quote with its fee id', async () => {
    const r = await sb.run(['fee', 'quote', ...BTC, '--amount', '0.001', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const q = JSON.parse(r.stdout);
    const e = entries().at(-1);
    expect(e).toMatchObject({
      kind: 'quote',
      ref_id: null,
      who: { client_id: 'local-admin', profile: 'local', environment: 'local' },
      what: { asset: 'BTC', network: 'BITCOIN', amount: '0.001', destination: BTC_ADDRESS, profile_id: DEMO.profileId },
      outcome: { result: 'sent', fee_id: q.id, fee: q.fee },
    });
    expect(e.who.os_user).toBeTruthy();
    expect(e.who.service_id).toMatch(/^local:/);
  });

  it('withdraw --quote: the quote it takes, the attempt before sending, the outcome with the transfer', async () => {
    const r = await sb.run([
      'withdraw',
      ...BTC,
      '--amount',
      '0.001',
      '--quote',
      '--ref-id',
      'au-1',
      '--yes',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    const [quote, attempt, outcome] = byRef('au-1');
    expect(quote).toMatchObject({ kind: 'quote', outcome: { result: 'sent' } });
    expect(attempt).toMatchObject({
      kind: 'withdrawal',
      what: { asset: 'BTC', amount: '0.001', fee_id: quote.outcome.fee_id, destination: BTC_ADDRESS },
      outcome: { result: 'attempt' },
    });
    expect(outcome).toMatchObject({
      kind: 'withdrawal',
      what: { fee: t.fee, total: t.total },
      outcome: { result: 'sent', transfer_id: t.id, status: 'PENDING' },
    });
    expect(outcome.seq).toBe(attempt.seq + 1);
    expect(byRef('au-1')).toHaveLength(3);

    // The same ref_id again: the service holds it, no money moves, and the log says so.
    const again = await sb.run(['withdraw', ...BTC, '--amount', '0.001', '--ref-id', 'au-1', '--yes', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(byRef('au-1').at(-1).outcome).toEqual({
      result: 'sent',
      transfer_id: t.id,
      status: 'PENDING',
      already_submitted: true,
    });
  });

  it('a withdrawal the service refuses: the attempt, then refused with the problem', async () => {
    // au-1's ref_id for another amount: coinop's own checks pass it (its limits and funds preflights would stop an
    // amount over a limit before sending), the service refuses it as a conflict.
    const r = await sb.run(['withdraw', ...BTC, '--amount', '0.002', '--ref-id', 'au-1', '--yes']);
    expect(r.code, r.stderr).toBe(1);
    const [attempt, refused] = byRef('au-1').slice(-2);
    expect(attempt.outcome).toEqual({ result: 'attempt' });
    expect(attempt.what.amount).toBe('0.002');
    expect(refused.outcome).toMatchObject({
      result: 'refused',
      error: { category: 'api', problem: 'already-exists', status: 409 },
    });
    expect(refused.outcome.error.message).toMatch(/already exists with ref_id 'au-1'/);
  });

  it('transfer internal: the attempt, then the transfer', async () => {
    const r = await sb.run(internalTransfer('USD', '25', '--ref-id', 'au-3', '--yes', '-o', 'json'));
    expect(r.code, r.stderr).toBe(0);
    expect(byRef('au-3').map((e) => [e.kind, e.outcome.result, e.what.to_profile_id])).toEqual([
      ['internal_transfer', 'attempt', DEMO.emptyProfileId],
      ['internal_transfer', 'sent', DEMO.emptyProfileId],
    ]);
    expect(byRef('au-3')[1].outcome.transfer_id).toBe(JSON.parse(r.stdout).id);
  });

  it('sandbox deposit: the attempt, then sent', async () => {
    const r = await sb.run(['sandbox', 'deposit', '--amount', '12.50']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      entries()
        .slice(-2)
        .map((e) => [e.kind, e.outcome.result, e.what.amount, e.what.memo_id]),
    ).toEqual([
      ['sandbox_deposit', 'attempt', '12.50', DEMO.memoId],
      ['sandbox_deposit', 'sent', '12.50', DEMO.memoId],
    ]);
  });

  it('withdraw batch: the batch as it starts, each row as it is answered (a refused one too), the counts at the end', async () => {
    const file = join(sb.dir, 'payouts.csv');
    writeFileSync(
      file,
      // The third row pays USDP from the empty profile's USD balance (25, given above): the service refuses it.
      `profile_id,destination_address,asset,crypto_network,amount,balance_asset\n,${BTC_ADDRESS},BTC,BITCOIN,0.001,\n,${ETH_ADDRESS},ETH,ETHEREUM,0.01,\n${DEMO.emptyProfileId},${ETH_ADDRESS},USDP,ETHEREUM,50,USD\n`,
    );
    const before = entries().length;
    const r = await sb.run(['withdraw', 'batch', file, '--yes', '-o', 'json']);
    expect(r.code).toBe(6);
    const report = JSON.parse(r.stdout) as { row: number; ref_id: string; transfer_id: string | null }[];
    const mine = entries().slice(before);
    const [start, ...rest] = mine;
    const end = rest.pop();
    expect(start).toMatchObject({
      kind: 'batch',
      what: { rows: 3, file_sha256: expect.any(String) },
      outcome: { result: 'attempt' },
    });
    expect(start.what.totals).toEqual([
      { asset: 'BTC', network: 'BITCOIN', rows: 1, amount: '0.001', total: '0' },
      { asset: 'ETH', network: 'ETHEREUM', rows: 1, amount: '0.01', total: '0' },
      { asset: 'USDP', network: 'ETHEREUM', rows: 1, amount: '50', total: '0' },
    ]);
    // Each row's attempt comes before its request left (and its answer): the attempts, then the answers.
    const attempts = rest.filter((e) => e.outcome.result === 'attempt');
    expect(attempts.map((e) => [e.kind, e.what.row, e.ref_id]).sort()).toEqual(
      report.map((x) => ['batch_row', x.row, x.ref_id]).sort(),
    );
    for (const a of attempts)
      expect(a.seq).toBeLessThan(rest.find((e) => e.ref_id === a.ref_id && e.outcome.result !== 'attempt')!.seq);
    const rows = rest.filter((e) => e.outcome.result !== 'attempt').sort((a, b) => a.what.row - b.what.row);
    expect(rows.map((e) => [e.kind, e.what.row, e.ref_id, e.outcome.result, e.outcome.transfer_id ?? null])).toEqual(
      report.map((x) => ['batch_row', x.row, x.ref_id, x.transfer_id ? 'sent' : 'refused', x.transfer_id]),
    );
    expect(rows[2].outcome.error).toMatchObject({ problem: 'insufficient-funds' });
    expect(rows.every((e) => e.what.batch_id === start.what.batch_id)).toBe(true);
    expect(end).toMatchObject({
      kind: 'batch',
      what: { batch_id: start.what.batch_id, rows: 3 },
      outcome: { result: 'sent', counts: { created: 2, failed: 1 } },
    });
  });

  it('the log is whole after all of it', async () => {
    const r = await sb.run(['audit', 'verify', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, problems: [], entries: entries().length });
  });
});

describe('coinop audit list', () => {
  it('filters by kind, outcome, ref_id, asset and time, in every format', async () => {
    const all = entries();
    const json = async (args: string[]) => {
      const r = await sb.run(['audit', 'list', ...args, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { seq: number }[];
    };
    expect((await json(['--all'])).map((e) => e.seq)).toEqual(all.map((e) => e.seq));
    expect(await json(['--kind', 'withdrawal', '--outcome', 'refused'])).toEqual(
      all.filter((e) => e.kind === 'withdrawal' && e.outcome.result === 'refused'),
    );
    expect(await json(['--ref-id', 'au-1,au-3'])).toEqual(all.filter((e) => ['au-1', 'au-3'].includes(e.ref_id)));
    expect(await json(['--asset', 'eth'])).toEqual(all.filter((e) => e.what.asset === 'ETH'));
    expect((await json(['--limit', '2'])).map((e) => e.seq)).toEqual(all.slice(-2).map((e) => e.seq));
    const mid = all[Math.floor(all.length / 2)].time;
    expect(await json(['--from', mid])).toEqual(all.filter((e) => e.time >= mid));
    expect(await json(['--to', mid])).toEqual(all.filter((e) => e.time < mid));
    expect(await json(['--from', '1h'])).toHaveLength(Math.min(100, all.length));
    expect(await json(['--to', '1h'])).toEqual([]);

    const nd = await sb.run(['audit', 'list', '--kind', 'quote', '-o', 'ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(all.filter((e) => e.kind === 'quote'));
    const csv = await sb.run(['audit', 'list', '--kind', 'internal_transfer', '-o', 'csv']);
    const [head, ...csvRows] = csv.stdout.trim().split('\r\n');
    expect(head).toBe(EXPORT_COLUMNS.join(','));
    expect(csvRows).toHaveLength(2);
    const table = await sb.run(['audit', 'list', '--ref-id', 'au-1', '-o', 'table']);
    expect(table.stdout).toMatch(/^SEQ\s+TIME\s+KIND\s+RESULT\s+ASSET\s+AMOUNT\s+DESTINATION\s+REF_ID\s+DETAIL\n/);
    // au-1: the quote, the withdrawal and its outcome, the same again (already submitted), then the refused one: 7.
    expect(table.stdout).toMatch(/withdrawal\s+refused\s+BTC\s+0\.002\s+1BvBMSEY\S+\s+au-1\s+Already Exists/);
    expect(table.stderr).toContain('7 entries');
  });

  it('refuses a bad filter before reading anything', async () => {
    for (const [args, message] of [
      [['--kind', 'payout'], '--kind: must be one of quote, withdrawal, batch, batch_row'],
      [['--outcome', 'ok'], '--outcome: must be one of attempt, sent, refused, failed, unknown, approved'],
      [['--from', 'yesterday'], '--from: "yesterday" is not a time'],
      [['--from', '1h', '--to', '2h'], '--from: must be before --to'],
      [['--limit', '0'], '--limit: must be from 1 to 100000'],
    ] as const) {
      const r = await sb.run(['audit', 'list', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    }
  });
});

describe('coinop audit export', () => {
  it('writes the documented columns as CSV, one row per entry in the range, with each line hash', async () => {
    const all = entries();
    const r = await sb.run(['audit', 'export', '--from', all[0].time, '--to', 'now']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = r.stdout.trim().split('\r\n');
    expect(head).toBe(
      'seq,time,kind,result,ref_id,asset,network,amount,fee,total,destination,profile_id,to_profile_id,transfer_id,status,already_submitted,fee_id,error_category,error_message,batch_id,row,rules,os_user,client_id,profile,environment,service_id,approver_keys,agent,sha256,operator',
    );
    expect(rows).toHaveLength(all.length);
    const lines = readFileSync(log, 'utf8').split('\n');
    const withdrawal = all.findIndex(
      (e) => e.ref_id === 'au-1' && e.outcome.result === 'sent' && e.kind === 'withdrawal',
    );
    const cells = rows[withdrawal].split(',');
    const col = (name: string) => cells[EXPORT_COLUMNS.indexOf(name as (typeof EXPORT_COLUMNS)[number])];
    expect([col('kind'), col('result'), col('ref_id'), col('asset'), col('amount'), col('status')]).toEqual([
      'withdrawal',
      'sent',
      'au-1',
      'BTC',
      '0.001',
      'PENDING',
    ]);
    const { createHash } = await import('node:crypto');
    expect(col('sha256')).toBe(createHash('sha256').update(lines[withdrawal]).digest('hex'));
    const none = await sb.run(['audit', 'export', '--to', all[0].time]);
    expect(none.stdout).toBe(`${head}\r\n`);
    const table = await sb.run(['audit', 'export', '-o', 'table']);
    expect(table.code).toBe(2);
  });
});

describe('coinop audit verify', () => {
  it('finds a hand-edited amount: exit 9, naming the line', async () => {
    const original = readFileSync(log, 'utf8');
    try {
      const lines = original.split('\n');
      const i = lines.findIndex((l) => l.includes('"ref_id":"au-3"'));
      lines[i] = lines[i].replace('"amount":"25"', '"amount":"2500"');
      writeFileSync(log, lines.join('\n'));
      const r = await sb.run(['audit', 'verify', '-o', 'table']);
      expect(r.code).toBe(9);
      expect(r.stdout).toContain(`line ${i + 1} (seq ${i + 1}) was changed after it was written`);
      const j = await sb.run(['audit', 'verify', '-o', 'json']);
      expect(JSON.parse(j.stdout).problems).toEqual([expect.objectContaining({ line: i + 1, kind: 'edited' })]);
      const listed = await sb.run(['audit', 'list', '--limit', '1']);
      expect(listed.code).toBe(0);
      expect(listed.stderr).toContain('warning: the audit log does not verify');
      const exported = await sb.run(['audit', 'export']);
      expect(exported.code).toBe(9);
      expect(exported.stdout.split('\n').length).toBeGreaterThan(2);
    } finally {
      writeFileSync(log, original);
    }
  });

  it('a torn last line is reported as such; the next command starts a new line and the log is whole again', async () => {
    truncateSync(log, statSync(log).size - 25);
    const r = await sb.run(['audit', 'verify', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/torn last line: line \d+ holds \d+ bytes of a write a crash cut short/);
    const q = await sb.run(['fee', 'quote', ...BTC, '--amount', '0.002']);
    expect(q.code, q.stderr).toBe(0);
    const after = await sb.run(['audit', 'verify', '-o', 'json']);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({ ok: true, torn_tail: null, recovered: [expect.any(Object)] });
  });

  it('coinop audit path says where the log is', async () => {
    const r = await sb.run(['audit', 'path']);
    expect(r.stdout).toBe(`${log}\n`);
  });
});

describe('the log under two commands at once', () => {
  it('two batches and two quotes appending at the same time leave a log that verifies, every row in it once', async () => {
    const rows = (n: number, amount: string) =>
      `destination_address,asset,crypto_network,amount\n${Array.from({ length: n }, () => `${ETH_ADDRESS},ETH,BASE,${amount}`).join('\n')}\n`;
    writeFileSync(join(sb.dir, 'a.csv'), rows(40, '0.001'));
    writeFileSync(join(sb.dir, 'b.csv'), rows(40, '0.002'));
    const before = entries().length;
    const results = await Promise.all([
      sb.run(['withdraw', 'batch', join(sb.dir, 'a.csv'), '--yes', '--rate', '0', '-o', 'json']),
      sb.run(['withdraw', 'batch', join(sb.dir, 'b.csv'), '--yes', '--rate', '0', '-o', 'json']),
      sb.run(['fee', 'quote', ...BTC, '--amount', '0.003']),
      sb.run(['fee', 'quote', ...BTC, '--amount', '0.004']),
    ]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const v = await sb.run(['audit', 'verify', '-o', 'json']);
    expect(v.code, v.stdout).toBe(0);
    const mine = entries().slice(before);
    // Each row twice: its attempt (before it left) and its answer.
    const answers = mine.filter((e) => e.kind === 'batch_row' && e.outcome.result !== 'attempt');
    expect(answers).toHaveLength(80);
    expect(new Set(answers.map((e) => e.ref_id)).size).toBe(80);
    expect(mine.filter((e) => e.kind === 'batch_row' && e.outcome.result === 'attempt')).toHaveLength(80);
    expect(mine.filter((e) => e.kind === 'batch')).toHaveLength(4);
    expect(mine.filter((e) => e.kind === 'quote')).toHaveLength(2);
  }, 120_000);
});

describe('secrets and an unwritable log', () => {
  it('neither the client secret nor any token reaches the log', async () => {
    const secret = `sk-audit-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    const state = await sb.control('GET', '/_local/state');
    const admin = state.tables.clients.find((c: { id: string }) => c.id === 'local-admin');
    state.tables.clients.push({ ...admin, id: 'audit-client', secret });
    await sb.control('PUT', '/_local/state', state);
    const login = await sb.run(
      [
        'login',
        '--env',
        'local',
        '--name',
        'auditor',
        '--client-id',
        'audit-client',
        '--client-secret-stdin',
        '--no-input',
      ],
      { input: `${secret}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const as = ['--context', 'auditor', '--debug'];
    for (const args of [
      ['withdraw', ...BTC, '--amount', '0.001', '--quote', '--yes'],
      ['transfer', 'internal', '--to-profile-id', DEMO.emptyProfileId, '--asset', 'USD', '--amount', '1', '--yes'],
      ['sandbox', 'deposit', '--amount', '1.00'],
    ]) {
      const r = await sb.run([...as, ...args]);
      expect(r.code, r.stderr).toBe(0);
    }
    const text = readFileSync(log, 'utf8');
    const cache = JSON.parse(readFileSync(join(sb.env.COINOP_CONFIG_DIR, 'tokens.json'), 'utf8'));
    const tokens = Object.values(cache as Record<string, { accessToken: string }>).map((t) => t.accessToken);
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) {
      expect(typeof t).toBe('string');
      expect(text).not.toContain(t);
    }
    expect(text).not.toContain(secret);
    expect(text).not.toContain('local-secret');
    expect(text).not.toMatch(/bearer|access_token|client_secret/i);
    expect(entries().at(-1).who).toMatchObject({ client_id: 'audit-client', profile: 'auditor' });
  });

  it('a log that cannot be written stops a withdrawal before anything is sent', async () => {
    const data = join(sb.dir, 'data-broken');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'audit'), 'a file where the folder should be');
    await sb.sent();
    const r = await sb.run(['withdraw', ...BTC, '--amount', '0.001', '--yes'], { env: { COINOP_DATA_DIR: data } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: the audit log .* cannot be written: .*; nothing was sent/);
    expect((await sb.sent()).filter((x) => x.method === 'POST' && x.url.includes('crypto-withdrawals'))).toEqual([]);
    rmSync(data, { recursive: true, force: true });
  });
});
