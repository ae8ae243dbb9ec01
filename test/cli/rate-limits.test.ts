// coinop under the service's rate limits (on by default in the local service, as in the hosted one): a 429 is waited
// for as its Retry-After says and the request sent again (a write without ref_id too: the service refused it, it did
// nothing), a bounded number of times; a person sees the wait on the terminal, a script sees nothing (but --debug).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BTC_ADDRESS, sandbox, type Sandbox } from './helpers.js';
import { Term } from './terminal.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

/** The hosted service's limits over a one-second window (so a test sees several windows), throttling for a second. */
const LIMITED = {
  enabled: true,
  windowSeconds: 1,
  throttleSeconds: 1,
  tokenPerSecond: 1,
  withdrawalsPerSecond: 4,
  otherPerSecond: 4,
};
const limits = (rateLimits: Record<string, unknown> | undefined) =>
  sb.control('PUT', '/_local/faults', rateLimits ? { rateLimits } : {});
const throttled = (sent: { status: number }[]) => sent.filter((e) => e.status === 429).length;

describe('under rate limits', () => {
  it('transfers list --all over many pages finishes with every transfer once', async () => {
    for (let i = 0; i < 24; i++) {
      const r = await sb.runIn(['withdraw', ...transferFlags('BTC', '0.001'), '--ref-id', `rl-${i}`]);
      expect(r.code, r.stderr).toBe(0);
    }
    await sb.sent();
    await limits(LIMITED);
    try {
      const r = await sb.run([
        'transfers',
        'list',
        '--all',
        '--limit',
        '2',
        '--type',
        'CRYPTO_WITHDRAWAL',
        '-o',
        'ndjson',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const ids = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).ref_id)
        .filter((x: string) => x.startsWith('rl-'));
      expect(ids.sort()).toEqual(Array.from({ length: 24 }, (_, i) => `rl-${i}`).sort());
      const sent = await sb.sent();
      expect(throttled(sent)).toBeGreaterThan(0);
      // Piped: nothing said about it.
      expect(r.stderr).toBe('');
    } finally {
      await limits(undefined);
    }
  });

  it('a batch at --rate 0 (no client-side limit) finishes: every row created once', async () => {
    const file = join(sb.dir, 'limited.csv');
    const rows = Array.from({ length: 16 }, (_, i) => `${BTC_ADDRESS},BTC,BITCOIN,0.00${i + 10},rl-batch-${i}`);
    writeFileSync(file, ['destination_address,asset,crypto_network,amount,ref_id', ...rows].join('\n'));
    await sb.sent();
    await limits(LIMITED);
    try {
      const r = await sb.run(['withdraw', 'batch', file, '--yes', '--rate', '0', '--concurrency', '4', '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as { result: string }[];
      expect(report.map((x) => x.result)).toEqual(Array(16).fill('created'));
      const sent = await sb.sent();
      expect(throttled(sent)).toBeGreaterThan(0);
      const created = sent.filter(
        (e) => e.method === 'POST' && e.url === '/v2/transfer/crypto-withdrawals' && e.status === 200,
      );
      expect(created).toHaveLength(16);
    } finally {
      await limits(undefined);
    }
  });

  it('a write without ref_id answered 429 is sent again: the service refused it and did nothing', async () => {
    await sb.sent();
    await sb.control('PUT', '/_local/faults', { rate429: 1, budget: 1, method: 'POST', pathPrefix: '/v2/sandbox' });
    const d = await sb.runIn(['sandbox', 'deposit', '--amount', '1.00']);
    expect(d.code, d.stderr).toBe(0);
    expect((await sb.sent()).filter((e) => e.url === '/v2/sandbox/fiat-deposits').map((e) => e.status)).toEqual([
      429, 200,
    ]);
    await sb.control('PUT', '/_local/faults', { rate429: 1, budget: 1, method: 'POST', pathPrefix: '/v2/profiles' });
    const p = await sb.runIn(['profiles', 'create', '--nickname', 'after-429']);
    expect(p.code, p.stderr).toBe(0);
    expect((await sb.sent()).filter((e) => e.url === '/v2/profiles').map((e) => e.status)).toEqual([429, 200]);
    await sb.control('PUT', '/_local/faults', {});
  });

  it('a wait longer than a minute is not waited for: the 429 is the answer', async () => {
    await limits({ ...LIMITED, otherPerSecond: 1, throttleSeconds: 120 });
    try {
      // The first request of the window goes through, the next ones find the address throttled for two minutes.
      for (let i = 0; i < 3; i++) await sb.runIn(['transfers', 'list', '--limit', '1']);
      const started = Date.now();
      const r = await sb.runIn(['transfers', 'list', '--limit', '1']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: Too Many Requests/);
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await limits(undefined);
    }
  });

  it('a person sees the wait on the terminal; a script only with --debug', async () => {
    const fault = { rate429: 1, budget: 1, method: 'GET', pathPrefix: '/v2/transfer/transfers' };
    await sb.control('PUT', '/_local/faults', fault);
    const t = new Term(['transfers', 'list', '--limit', '1'], { ...sb.env, NO_COLOR: undefined });
    expect(await t.exit()).toBe(0);
    expect(t.screen()).toMatch(/rate limited, retrying in 1 s/);
    await sb.control('PUT', '/_local/faults', fault);
    const piped = await sb.run(['transfers', 'list', '--limit', '1']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
    await sb.control('PUT', '/_local/faults', fault);
    const debug = await sb.run(['transfers', 'list', '--limit', '1', '--debug']);
    expect(debug.stderr).toMatch(/retrying after \d+ ms \(HTTP 429\)/);
    expect(debug.stderr).not.toMatch(/rate limited, retrying/);
    await sb.control('PUT', '/_local/faults', {});
  });
});
