// Guards before money moves, end to end against the local service: the funds preflight of withdraw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, BTC_ADDRESS, baseEnv, runCoinop, sandbox, type Sandbox } from './helpers.js';
import { DEMO } from '../../src/embedded/demo.js';
import { saveContext } from '../support/contexts.js';
import { TLS_ENV, tlsFront } from '../support/tls.js';
import { KEY, Term } from './terminal.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ withdrawalSettleSeconds: 1 });
});
afterAll(async () => sb?.close());

const balance = async (asset: string) => {
  const { items } = await sb.control('GET', '/_local/profiles');
  return items.find((p: { id: string }) => p.id === DEMO.profileId).balances[asset] as string;
};
const btc = (amount: string, ...more: string[]) => ['withdraw', ...transferFlags('BTC', amount), ...more];

describe('withdraw funds preflight', () => {
  it('shows the available balance before and after in the preview', async () => {
    const before = await balance('BTC');
    const r = await sb.run(btc('0.01', '--quote', '--dry-run', '-o', 'table'));
    expect(r.code, r.stderr).toBe(0);
    const { dec } = await import('../../src/contract/index.js');
    const fee = /fee\s+(\S+) BTC/.exec(r.stderr)?.[1] ?? '';
    const after = dec(before).minus('0.01').minus(fee).toFixed();
    expect(r.stderr).toContain(`balance      ${dec(before).toFixed()} BTC available, ${after} BTC after`);
  });

  it('refuses an amount plus fee over the available balance before sending (exit 2)', async () => {
    const p = await sb.control('POST', '/_local/profiles', { nickname: 'thin' });
    await sb.control('POST', `/_local/profiles/${p.id}/balances`, { asset: 'BTC', amount: '0.01' });
    await sb.sent();
    // The amount alone fits; the fee on top does not.
    const r = await sb.run(btc('0.01', '--profile-id', p.id, '--quote', '--yes'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^error: insufficient funds: the amount plus fee 0\.01\d+ BTC is more than the available 0\.01 BTC/m,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect((await sb.sent()).filter((e) => e.method === 'POST' && e.url.endsWith('/crypto-withdrawals'))).toEqual([]);
  });

  it('on a service that does not give the balance, says "balance unknown" and goes on', async () => {
    await sb.control('PUT', '/_local/faults', { rate500: 1, pathPrefix: '/v2/profiles', method: 'GET' });
    try {
      const r = await sb.run(btc('0.01', '--quote', '--dry-run', '-o', 'table'));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/balance\s+balance unknown/);
    } finally {
      await sb.control('PUT', '/_local/faults', {});
    }
  });
});

describe('batch funds preflight', () => {
  /**
   * A new service profile holding 0.01 BTC, and a batch of two BTC rows from it (0.008 and 0.007) that the balance
   * covers one of: the file's folder and path.
   */
  async function thinBatch(nickname: string): Promise<{ p: { id: string }; dir: string; csv: string }> {
    const p = await sb.control('POST', '/_local/profiles', { nickname });
    await sb.control('POST', `/_local/profiles/${p.id}/balances`, { asset: 'BTC', amount: '0.01' });
    const dir = mkdtempSync(join(tmpdir(), `coinop-${nickname}-`));
    const csv = join(dir, 'pay.csv');
    writeFileSync(
      csv,
      `profile_id,destination_address,asset,crypto_network,amount\n${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.008\n${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.007\n`,
    );
    return { p, dir, csv };
  }

  it('a dry run with --allow-partial lists the rows a real run would skip and ends as that run would (exit 6)', async () => {
    const { dir, csv } = await thinBatch('thin-dry-partial');
    try {
      await sb.sent();
      const dry = await sb.run(['withdraw', 'batch', csv, '--dry-run', '--allow-partial']);
      expect(dry.code, dry.stderr).toBe(6);
      expect(dry.stderr).toMatch(/^row 2: would not be sent: the amount plus fee, 0\.00702 BTC, is more than/m);
      expect(dry.stderr).not.toMatch(/^row 1: would not be sent/m);
      expect(dry.stderr).toContain('--allow-partial: a real run sends 1 of 2 rows and skips 1 (listed above)');
      expect((await sb.sent()).filter((e) => e.method === 'POST' && e.url.endsWith('/crypto-withdrawals'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a dry run reports the shortfall per asset; a real run is refused before its first row unless --allow-partial', async () => {
    const { p, dir, csv } = await thinBatch('thin-batch');
    try {
      const dry = await sb.run(['withdraw', 'batch', csv, '--dry-run']);
      expect(dry.code, dry.stderr).toBe(2);
      expect(dry.stderr).toMatch(
        new RegExp(
          `shortfall: BTC amounts plus quoted fees 0\\.015\\d*, available 0\\.01 \\(service profile ${p.id}\\): short by 0\\.005\\d* BTC`,
        ),
      );
      await sb.sent();
      const real = await sb.run(['withdraw', 'batch', csv, '--yes']);
      expect(real.code, real.stderr).toBe(2);
      expect(real.stderr).toMatch(/insufficient funds: the available balance cannot cover this batch/);
      expect((await sb.sent()).filter((e) => e.method === 'POST' && e.url.endsWith('/crypto-withdrawals'))).toEqual([]);
      const partial = await sb.run(['withdraw', 'batch', csv, '--yes', '--allow-partial', '-o', 'ndjson']);
      expect(partial.code, partial.stderr).toBe(6);
      // The row the balance covers is sent; the next (0.00702 with its fee, 0.00198 left) is not sent at all.
      const rows = partial.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { result: string; problem: string | null });
      expect(rows.map((x) => x.result)).toEqual(['created', 'skipped']);
      expect(rows[1].problem).toBe(
        `Not sent (--allow-partial): the amount plus fee, 0.00702 BTC, is more than the 0.00198 BTC left of the available balance (service profile ${p.id})`,
      );
      expect(partial.stderr).toContain('2 rows: 1 created, 1 skipped (--allow-partial: a balance or a limit ran out)');
      expect(
        (await sb.sent()).filter((e) => e.method === 'POST' && e.url.endsWith('/crypto-withdrawals')),
      ).toHaveLength(1);
      const last = partial.stderr.trim().split('\n').at(-1);
      expect(last).toBe(`continue it: coinop withdraw batch ${csv} --resume --retry-failed`);
      const again = await sb.run(['withdraw', 'batch', csv, '--yes']);
      expect(again.stderr).toContain(`coinop withdraw batch ${csv} --resume --retry-failed`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('batch report as rows finish', () => {
  it('NDJSON streams a line per finished row (a killed run leaves them on stdout); piped progress is plain lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-stream-'));
    const csv = join(dir, 'pay.csv');
    const rows = Array.from({ length: 40 }, (_, i) => `${BTC_ADDRESS},BTC,BITCOIN,0.0001,S-${i}`);
    writeFileSync(csv, `destination_address,asset,crypto_network,amount,meta.invoice\n${rows.join('\n')}\n`);
    try {
      const child = spawn(process.execPath, [BIN, 'withdraw', 'batch', csv, '--yes', '--rate', '2', '-o', 'ndjson'], {
        env: sb.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<void>((res) => child.on('close', () => res()));
      // Kill it once two rows are on stdout: far from the end of its 40 rows at 2 a second.
      await new Promise<void>((res) =>
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          if (stdout.split('\n').length > 2) res();
        }),
      );
      child.kill('SIGKILL');
      await exited;
      const lines = stdout.trim().split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.length).toBeLessThan(40);
      for (const l of lines) {
        const r = JSON.parse(l);
        expect(r.result).toBe('created');
        expect(r.transfer_id).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect(stderr).toMatch(/^progress: \d+\/40 · /m);
      expect(stderr).not.toContain('\r');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('confirmation in production and with --no-input (on a real terminal)', () => {
  const posts = async () =>
    (await sb.sent()).filter((e) => e.method === 'POST' && e.url.endsWith('/crypto-withdrawals'));

  it('production asks the operator to type the amount; "y" cancels, the amount sends', async () => {
    const front = await tlsFront(sb.svc.baseUrl);
    try {
      await saveContext(sb.env, 'prodlike', { environment: 'production', baseUrl: front.url });
      const env = {
        ...sb.env,
        ...TLS_ENV,
        NO_COLOR: undefined,
        COINOP_BASE_URL: undefined,
        COINOP_AUTH_URL: undefined,
      };
      await sb.sent();
      const t = new Term(btc('0.01', '--context', 'prodlike'), env);
      await t.waitFor('type the amount (BTC)');
      expect(t.screen()).not.toContain('Send this withdrawal?');
      t.type(`y${KEY.enter}`);
      expect(await t.exit()).toBe(3);
      expect(t.screen()).toMatch(/cancelled: that is not the amount \(BTC\) \(0\.01\); nothing was sent/);
      expect(await posts()).toEqual([]);
      const ok = new Term(btc('0.01', '--context', 'prodlike', '-o', 'json'), env);
      await ok.waitFor('type the amount (BTC)');
      ok.type(`0.010${KEY.enter}`);
      expect(await ok.exit(), ok.screen()).toBe(0);
      expect(await posts()).toHaveLength(1);
    } finally {
      await front.close();
    }
  });

  it('on a terminal, --no-input without --yes refuses instead of sending (every environment)', async () => {
    await sb.sent();
    const t = new Term(btc('0.01', '--no-input'), { ...sb.env, NO_COLOR: undefined });
    expect(await t.exit()).toBe(2);
    expect(t.screen()).toMatch(/refusing to send: --no-input confirms nothing, and --yes was not given/);
    expect(await posts()).toEqual([]);
  });
});

describe('private files', () => {
  it('creates the local database, journal and config 0600 in 0700 folders; warns (with the chmod) about open ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-private-'));
    try {
      const env = baseEnv(dir);
      const csv = join(dir, 'pay.csv');
      writeFileSync(csv, `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.01\n`);
      const r = await runCoinop(['withdraw', 'batch', csv, '--yes'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/warning/);
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      const data = env.COINOP_DATA_DIR;
      const files = readdirSync(data, { recursive: true, encoding: 'utf8' }).map((f) => join(data, f));
      expect(files.some((f) => f.endsWith('local.db'))).toBe(true);
      expect(files.some((f) => /journal|batch/.test(f))).toBe(true);
      for (const f of [
        data,
        env.COINOP_CONFIG_DIR,
        ...files,
        ...readdirSync(env.COINOP_CONFIG_DIR).map((f) => join(env.COINOP_CONFIG_DIR, f)),
      ]) {
        if (f.endsWith('.lock')) continue;
        expect([f, mode(f)]).toEqual([f, statSync(f).isDirectory() ? '700' : '600']);
      }
      const tokens = join(env.COINOP_CONFIG_DIR, 'tokens.json');
      const db = join(data, 'local.db');
      chmodSync(tokens, 0o644);
      chmodSync(db, 0o640);
      chmodSync(data, 0o755);
      const again = await runCoinop(['balances', 'BTC'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain(`fix: chmod 600 ${tokens}\n`);
      expect(again.stderr).toContain(`fix: chmod 600 ${db}\n`);
      expect(again.stderr).toContain(`fix: chmod 700 ${data}\n`);
      expect(again.stderr.match(/^warning: /gm)).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The fee's time left and its renewal at the question: quote-countdown.test.ts.
describe('withdraw on a terminal', () => {
  it('a preview that already failed ends with its error without asking to send', async () => {
    const t = new Term(btc('5000'), { ...sb.env, NO_COLOR: undefined });
    expect(await t.exit()).not.toBe(0);
    expect(t.screen()).toMatch(/exceeds withdrawal limit/);
    expect(t.screen()).not.toContain('Send this withdrawal?');
  });
});
