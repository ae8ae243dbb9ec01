// The local service's identity is learned once per address and kept in the data directory: a plain read does not
// ask GET /_local/health before its request; every answer names its instance (coinop-instance), and an answer from
// another instance (a reset, a state import) replaces the cached one before anything is keyed on the old; a command
// that keys anything of its own on the identity (a withdrawal: the gate, the audit trail) asks the service first.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { cachedInstance, rememberInstance } from '../../src/client/service-identity.js';
import { type Sandbox, sandbox } from './helpers.js';
import { transferFlags } from '../support/command-lines.js';
import { silentServer } from '../support/silent-server.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

/** Every request the service answered since the last call, /_local ones included (sb.sent() leaves those out). */
let seen = 0;
async function journal(): Promise<string[]> {
  const { items } = (await sb.control('GET', '/_local/journal?limit=100000')) as {
    items: { method: string; url: string; status: number }[];
  };
  const fresh = items.slice(seen);
  seen = items.length;
  return fresh.map((e) => `${e.method} ${e.url.split('?')[0]}`);
}
const instance = async () => ((await sb.control('GET', '/_local/health')) as { instance_id: string }).instance_id;
const dataDir = () => sb.env.COINOP_DATA_DIR;
const cacheFile = () => join(dataDir(), 'service-identities.json');
const prices = ['prices', 'BTCUSD', '--limit', '1', '-o', 'json'];

describe('the local identity cache', () => {
  it('is learned once: the first command asks /_local/health, the reads after it send only their request', async () => {
    await journal();
    const first = await sb.runIn(prices);
    expect(first.code, first.stderr).toBe(0);
    expect(await journal()).toContain('GET /_local/health');
    const id = await instance();
    expect(cachedInstance(dataDir(), sb.svc.baseUrl)).toBe(id);
    expect(JSON.parse(readFileSync(cacheFile(), 'utf8'))[sb.svc.baseUrl].instance_id).toBe(id);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    await journal();
    for (const args of [prices, ['balances', '-o', 'json'], prices]) {
      const r = await sb.runIn(args);
      expect(r.code, r.stderr).toBe(0);
    }
    const after = await journal();
    expect(after.filter((l) => l.includes('/_local/'))).toEqual([]);
    expect(after).toHaveLength(3);
  });

  it('after a reset the first answer names the new instance: the cache and the token cache follow it, the old token is not saved under the new one', async () => {
    expect((await sb.runIn(prices)).code).toBe(0);
    const before = await instance();
    await sb.control('POST', '/_local/reset');
    const now = await instance();
    expect(now).not.toBe(before);
    expect(cachedInstance(dataDir(), sb.svc.baseUrl)).toBe(before);
    const r = await sb.runIn([...prices, '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`is instance ${now}, not ${before}`);
    expect(cachedInstance(dataDir(), sb.svc.baseUrl)).toBe(now);
    // The next read is keyed by the new instance from the start: its token is the new instance's own.
    const again = await sb.runIn([...prices, '--debug']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`service local:${now} (as cached`);
    expect(again.stderr).not.toContain('is instance');
    const tokens = JSON.parse(readFileSync(join(sb.env.COINOP_CONFIG_DIR, 'tokens.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const services = Object.keys(tokens).map((k) => k.split('|')[1]);
    expect(services).toContain(`local:${now}`);
    expect(services.filter((s) => s === `local:${now}`)).toHaveLength(1);
  });

  it('a reset through coinop itself (its control request) teaches the cache the new instance at once', async () => {
    expect((await sb.runIn(prices)).code).toBe(0);
    const before = await instance();
    const reset = await sb.runIn(['api', 'POST', '/_local/reset']);
    expect(reset.code, reset.stderr).toBe(0);
    const now = await instance();
    expect(now).not.toBe(before);
    expect(cachedInstance(dataDir(), sb.svc.baseUrl)).toBe(now);
    const r = await sb.runIn([...prices, '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`service local:${now} (as cached`);
    expect(r.stderr).not.toContain('is instance');
  });

  it('a withdrawal after a reset asks the service first: its audit entries and the gate are keyed by the new instance', async () => {
    expect((await sb.runIn(prices)).code).toBe(0);
    await sb.control('POST', '/_local/reset');
    const now = await instance();
    await journal();
    const r = await sb.runIn([
      'withdraw',
      ...transferFlags('BTC', '0.001'),
      '--ref-id',
      'identity-cache-1',
      '--yes',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const sent = await journal();
    expect(sent.indexOf('GET /_local/health')).toBeGreaterThanOrEqual(0);
    expect(sent.indexOf('GET /_local/health')).toBeLessThan(sent.findIndex((l) => l.startsWith('POST /v2/')));
    const audit = await sb.runIn(['audit', 'list', '-o', 'json']);
    expect(audit.code, audit.stderr).toBe(0);
    const entries = JSON.parse(audit.stdout) as { ref_id?: string; service_id?: string }[];
    const mine = entries.filter((e) => JSON.stringify(e).includes('identity-cache-1'));
    expect(mine.length).toBeGreaterThan(0);
    for (const e of mine) expect(JSON.stringify(e)).toContain(`local:${now}`);
    expect(cachedInstance(dataDir(), sb.svc.baseUrl)).toBe(now);
  });
});

describe('a cached identity at an address where nothing answers any more', () => {
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
  });

  it('a service that accepts the connection but stays silent is reported within the local wait, not retried for the timeout', async () => {
    const { url, connections, close } = await silentServer();
    closers.push(close);
    const env = { COINOP_BASE_URL: url, COINOP_AUTH_URL: url, COINOP_LOCAL_WAIT_MS: '300' };
    rememberInstance(dataDir(), url, 'cached-instance-1');
    const started = Date.now();
    const r = await sb.runIn(prices, { env });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`the local service at ${url} accepted the connection but did not answer within 300 ms`);
    // One wait of 300 ms, not four attempts of COINOP_TIMEOUT_MS (30 s).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(connections()).toBe(1);
  });

  it('a server that does not name its instance is never cached', async () => {
    const srv = (await import('node:http')).createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/_local/health')) res.end(JSON.stringify({ status: 'ok', instance_id: 'unnamed-1' }));
      else if (req.url?.startsWith('/oauth2/token'))
        res.end(JSON.stringify({ access_token: 't', token_type: 'bearer', expires_in: 3600 }));
      else res.end(JSON.stringify({ items: [] }));
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => srv.close(r)));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const r = await sb.runIn(prices, { env: { COINOP_BASE_URL: url, COINOP_AUTH_URL: url } });
    expect(r.code, r.stderr).toBe(0);
    expect(cachedInstance(dataDir(), url)).toBeUndefined();
  });
});
