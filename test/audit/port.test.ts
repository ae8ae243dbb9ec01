// The port commands write the audit log through (ctx.audit): who an entry names, an attempt and its outcome (also
// when the command ends first), what an error means for an attempt, the kinds the policy records (refusals naming
// their rules, approvals naming their keys), and a log that cannot be written. And the lock it appends under.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLogPath } from '../../src/audit/log.js';
import { verifyLog } from '../../src/audit/verify.js';
import { auditPort, outcomeOfError } from '../../src/cli/audit.js';
import { NetworkError } from '../../src/client/transport.js';
import { withLock } from '../../src/config/lock.js';
import { until } from '../support/wait.js';
import { CoinopError, problemError } from '../../src/errors.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function port() {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-audit-port-'));
  dirs.push(dir);
  const warnings: string[] = [];
  const cleanups: (() => unknown)[] = [];
  const p = auditPort({
    dataDir: () => dir,
    env: {},
    now: () => Date.parse('2026-11-23T10:00:00.123Z'),
    context: () => ({ name: 'treasury', environment: 'production', clientId: 'client-7' }),
    warn: (l) => warnings.push(l),
    onCleanup: (fn) => void cleanups.push(fn),
  });
  const entries = () =>
    readFileSync(auditLogPath(dir), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  };
  return { dir, p, warnings, entries, cleanup };
}

const CONN = {
  context: { name: 'treasury', environment: 'production', clientId: 'client-7' },
  serviceId: 'production:x',
};

describe('the audit port', () => {
  it('names who acts: the OS user, the profile, its client id and environment, the service; approvers when given', async () => {
    const { p, entries } = port();
    await p.note(
      {
        kind: 'approval',
        ref_id: null,
        what: { rows: 3 },
        outcome: { result: 'approved' },
        approver_keys: ['k1', 'k2'],
      },
      CONN,
    );
    await p.note({
      kind: 'policy_refusal',
      ref_id: 'r-1',
      what: { asset: 'BTC', rules: ['max-per-withdrawal'] },
      outcome: { result: 'refused' },
    });
    const [approval, refusal] = entries();
    expect(approval).toMatchObject({
      seq: 1,
      time: '2026-11-23T10:00:00.123Z',
      kind: 'approval',
      who: {
        os_user: userInfo().username,
        client_id: 'client-7',
        profile: 'treasury',
        environment: 'production',
        service_id: 'production:x',
        approver_keys: ['k1', 'k2'],
      },
      outcome: { result: 'approved' },
    });
    // Before connecting: the profile only.
    expect(refusal.who).toEqual({
      os_user: userInfo().username,
      client_id: 'client-7',
      profile: 'treasury',
      environment: 'production',
    });
    expect(refusal.what.rules).toEqual(['max-per-withdrawal']);
  });

  it('an attempt, then its outcome with what the answer adds; a second outcome is not written', async () => {
    const { p, entries } = port();
    const a = await p.attempt({ kind: 'withdrawal', ref_id: 'r-2', what: { asset: 'ETH', amount: '1' } }, CONN);
    expect(entries().map((e) => e.outcome.result)).toEqual(['attempt']);
    await a.done({ result: 'sent', transfer_id: 't-1', status: 'PENDING' }, { fee: '0.001' });
    await a.failed(new Error('late'));
    expect(entries().map((e) => [e.outcome.result, e.what])).toEqual([
      ['attempt', { asset: 'ETH', amount: '1' }],
      ['sent', { asset: 'ETH', amount: '1', fee: '0.001' }],
    ]);
  });

  it('an attempt the command ends before its answer (Ctrl-C) is recorded as unknown on the way out', async () => {
    const { dir, p, entries, cleanup } = port();
    await p.attempt({ kind: 'internal_transfer', ref_id: 'r-3', what: { asset: 'USD', amount: '5' } }, CONN);
    await cleanup();
    expect(entries().map((e) => [e.outcome.result, e.outcome.error?.category])).toEqual([
      ['attempt', undefined],
      ['unknown', 'cancelled'],
    ]);
    expect(verifyLog(auditLogPath(dir))).toMatchObject({ ok: true, entries: 2 });
  });

  it('a log that cannot be written: record() stops the command (nothing sent), note() only warns', async () => {
    const { dir, p, warnings } = port();
    writeFileSync(join(dir, 'audit'), 'a file where the folder should be');
    const err = await p.record({ kind: 'withdrawal', what: {}, outcome: { result: 'attempt' } }).catch((e) => e);
    expect(err).toBeInstanceOf(CoinopError);
    expect(err.category).toBe('file');
    expect(err.message).toMatch(/^the audit log .*audit\.log cannot be written: .*; nothing was sent$/);
    await p.note({ kind: 'quote', what: {}, outcome: { result: 'sent' } });
    const about = warnings.filter((w) => w.startsWith('warning: the audit log'));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatch(
      /^warning: the audit log .* cannot be written: ENOTDIR.*; this quote is not recorded in it$/,
    );
  });
});

describe('what an error means for an attempt', () => {
  const problem = (status: number) =>
    problemError({ type: 'https://x/problems/insufficient-funds', title: 'No', status });
  it.each([
    ['the service refused (4xx)', problem(422), 'refused'],
    ['a 5xx after retries: it may have gone', problem(503), 'unknown'],
    ['unreachable: nothing sent', new NetworkError('cannot reach', false, ''), 'failed'],
    ['sent, no answer: it may have gone', new NetworkError('no answer', true, ''), 'unknown'],
    ['refused before sending by coinop', new CoinopError('usage', 'bad'), 'refused'],
    ['a file that cannot be written', new CoinopError('file', 'disk full'), 'failed'],
    ['anything else', new Error('boom'), 'unknown'],
  ])('%s: %s', (_, error, result) => {
    expect(outcomeOfError(error).result).toBe(result);
  });

  it('keeps the category, the message (cut to 500 characters), the problem and the status', () => {
    expect(outcomeOfError(problem(422)).error).toEqual({
      category: 'api',
      message: 'No (insufficient-funds)',
      problem: 'insufficient-funds',
      status: 422,
    });
    expect(outcomeOfError(new Error('x'.repeat(900))).error!.message).toHaveLength(500);
  });
});

describe('the lock the log is appended under', () => {
  it('is taken over at once from a holder that is gone (its pid no longer runs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-lock-'));
    dirs.push(dir);
    mkdirSync(dir, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, dead);
    // Within 5 s, half the 10 s after which any lock counts as stale: taken over because its holder is gone.
    expect(await withLock(lock, () => 'mine', 5000)).toBe('mine');
  });

  it('is kept by a holder that runs past the stale time (renewed while it runs), not taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-lock-'));
    dirs.push(dir);
    const lock = join(dir, 'long.lock');
    let entered = false;
    await withLock(
      lock,
      async () => {
        // As if held for a minute already (the gate's lock across a slow service's answers).
        const old = new Date(Date.now() - 60_000);
        utimesSync(lock, old, old);
        // Renewed by its holder within a beat (a fifth of the stale time), however old it looked.
        await until('the holder to renew its lock', () => statSync(lock).mtimeMs >= Date.now() - 30_000, {
          timeoutMs: 8000,
        });
        const err = await withLock(lock, () => (entered = true), 300).catch((e) => e);
        expect(err?.name).toBe('LockTimeoutError');
      },
      1000,
    );
    expect(entered).toBe(false);
  });

  it('is waited for while its holder runs (and one without a pid yet is held)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-lock-'));
    dirs.push(dir);
    for (const holder of [String(process.ppid), '']) {
      const lock = join(dir, `held-${holder || 'new'}.lock`);
      writeFileSync(lock, holder);
      const err = await withLock(lock, () => 'mine', 300).catch((e) => e);
      expect(err?.name).toBe('LockTimeoutError');
    }
  });
});
