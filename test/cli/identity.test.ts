// Which service coinop talks to and whose secret goes where, end to end with real child processes: the embedded
// local service starts only when nothing listens (a stopped or silent service is an error naming it), tokens are
// cached per service instance, a sandbox or production secret goes only to the token endpoint saved at login over
// https, and a 429 from a token endpoint is rate limiting, not bad credentials (for login too).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENDPOINTS } from '../../src/config/environments.js';
import { startLocalService } from '../../src/local/service.js';
import { saveContext } from '../support/contexts.js';
import { TLS_ENV, tlsFront, type TlsFront } from '../support/tls.js';
import { BIN, baseEnv, printedAddress, runCoinop } from './helpers.js';
import { transferFlags } from '../support/command-lines.js';
import { silentServer } from '../support/silent-server.js';
import { recordingProxy } from '../support/recording-proxy.js';
import { until } from '../support/wait.js';

let dir: string;
let n = 0;
const closers: (() => unknown)[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-identity-'));
});
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh configuration and data directory for one test. */
const freshEnv = (): Record<string, string> => baseEnv(join(dir, `t${++n}`));
const localDb = (env: Record<string, string>) => join(env.COINOP_DATA_DIR, 'local.db');

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback HTTP server that records every request; answers come from `answer` (a token and empty lists by default). */
async function recorder(answer?: (r: Seen, res: ServerResponse) => boolean): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(r);
      if (answer?.(r, res)) return;
      res.setHeader('content-type', 'application/json');
      if (r.url.startsWith('/oauth2/token'))
        res.end(JSON.stringify({ access_token: 'tok-recorded', token_type: 'bearer', expires_in: 3600, scope: '' }));
      else if (r.url.startsWith('/_local')) res.writeHead(404).end('{}');
      else res.end(JSON.stringify({ items: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function front(url: string): Promise<TlsFront> {
  const f = await tlsFront(url);
  closers.push(() => f.close());
  return f;
}

/** A free loopback port (listened on, then released). */
async function freePort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** `coinop local start` as a child process over a database file; resolves with its address. */
async function localStart(env: Record<string, string>, db: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'local', 'start', '--port', '0', '--db', db], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.kill('SIGCONT');
        child.kill('SIGINT');
      }),
  );
  return { child, url: await printedAddress(child) };
}

const withdraw = (ref: string) => ['withdraw', ...transferFlags('BTC', '0.001'), '--ref-id', ref];

describe('the local profile never switches databases', () => {
  it('a service that accepts the connection but never answers is an error naming it; no embedded service starts', async () => {
    const { url, close } = await silentServer();
    closers.push(close);
    const env = { ...freshEnv(), COINOP_LOCAL_WAIT_MS: '1000' };
    await saveContext(env, 'local', { environment: 'local', baseUrl: url });
    const r = await runCoinop(withdraw('silent-1'), env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      `the local service at ${url} accepted the connection but did not answer within 1 s; is it stopped (kill -STOP) or busy?`,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(localDb(env))).toBe(false);
  });

  it('a stopped (SIGSTOP) service is an error, a busy one is waited for; every withdrawal lands in its database', async () => {
    const env = freshEnv();
    const svcDb = join(dir, `stopped-${n}.db`);
    const { child, url } = await localStart(env, svcDb);
    // coinop reaches it through a recording proxy: what it asked, and when, is seen while the service is stopped.
    const proxy = await recordingProxy(url);
    closers.push(() => proxy.close());
    await saveContext(env, 'local', { environment: 'local', baseUrl: proxy.url });

    child.kill('SIGSTOP');
    const stopped = await runCoinop(withdraw('stop-1'), { ...env, COINOP_LOCAL_WAIT_MS: '1000' });
    expect(stopped.code, stopped.stderr).toBe(5);
    expect(stopped.stderr).toMatch(
      /accepted the connection but did not answer within 1 s; is it stopped \(kill -STOP\) or busy\?/,
    );
    expect(existsSync(localDb(env))).toBe(false);

    // Busy for a while (stopped, then resumed while coinop waits with the default wait): coinop waits for it.
    proxy.take();
    const busy = runCoinop(withdraw('stop-2'), env);
    await until('coinop to ask the stopped service', () => proxy.take().length > 0);
    child.kill('SIGCONT');
    const b = await busy;
    expect(b.code, b.stderr).toBe(0);
    expect(existsSync(localDb(env))).toBe(false);

    const again = await runCoinop(withdraw('stop-1'), env);
    expect(again.code, again.stderr).toBe(0);
    const state = (await (await fetch(`${url}/_local/state`)).json()) as {
      tables: { transfers: { ref_id: string }[] };
    };
    expect(state.tables.transfers.map((t) => t.ref_id).sort()).toEqual(['stop-1', 'stop-2']);
    expect(existsSync(localDb(env))).toBe(false);
  });

  it('nothing listening at a localhost address (refused on every address it resolves to) starts the embedded service', async () => {
    const env = freshEnv();
    await saveContext(env, 'local', { environment: 'local', baseUrl: `http://localhost:${await freePort()}` });
    const r = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(localDb(env))).toBe(true);
  });
});

describe('tokens are cached per service instance', () => {
  /** The tokens cache as saved: key (profile|service|client|scopes) to token. */
  const tokens = (env: Record<string, string>) =>
    JSON.parse(readFileSync(join(env.COINOP_CONFIG_DIR, 'tokens.json'), 'utf8')) as Record<
      string,
      { accessToken: string }
    >;
  const apiJournal = async (url: string) =>
    (
      (await (await fetch(`${url}/_local/journal`)).json()) as {
        items: { method: string; url: string; status: number }[];
      }
    ).items
      .filter((e) => !e.url.startsWith('/_local'))
      .map((e) => `${e.status} ${e.method} ${e.url.split('?')[0]}`);

  /** Service A on a free port, the local profile pointed at it, and one read through coinop (a token under A). */
  const readFromServiceA = async () => {
    const env = freshEnv();
    const a = await startLocalService({ port: 0, memory: true });
    const url = `http://127.0.0.1:${a.port}`;
    await saveContext(env, 'local', { environment: 'local', baseUrl: url });
    const first = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], env);
    expect(first.code, first.stderr).toBe(0);
    return { env, a, port: a.port, url };
  };

  it("service B on the same port refuses the read that carried A's token; coinop learns B from that answer, and each token stays under its own instance", async () => {
    const { env, a, port, url } = await readFromServiceA();
    const idA = a.instanceId();
    const tokenA = Object.entries(tokens(env));
    expect(tokenA.map(([k]) => k.split('|')[1])).toEqual([`local:${idA}`]);
    await a.close();

    const b = await startLocalService({ port, memory: true });
    closers.push(() => b.close());
    const idB = b.instanceId();
    const second = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], env);
    expect(second.code, second.stderr).toBe(0);
    // The read went out as the cache had it (no health request first): B, which never issued A's token, refused it
    // and named itself; coinop then asked B for a token and read again. Nothing was done with A's token.
    expect(await apiJournal(url)).toEqual([
      '401 GET /v2/markets/BTCUSD/historical-prices',
      '200 POST /oauth2/token',
      '200 GET /v2/markets/BTCUSD/historical-prices',
    ]);
    // A's token is still A's alone (never dropped or overwritten with B's), B's is under B.
    const after = tokens(env);
    expect(after[tokenA[0][0]]).toEqual(tokenA[0][1]);
    const underB = Object.entries(after).filter(([k]) => k.split('|')[1] === `local:${idB}`);
    expect(underB).toHaveLength(1);
    expect(underB[0][1].accessToken).not.toBe(tokenA[0][1].accessToken);
    expect(Object.keys(after)).toHaveLength(2);

    // A third run reuses B's token: no token request, nothing refused.
    const third = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], env);
    expect(third.code, third.stderr).toBe(0);
    expect((await apiJournal(url)).slice(3)).toEqual(['200 GET /v2/markets/BTCUSD/historical-prices']);
  });

  it("a command that keys anything on the service (a withdrawal) asks it first: B never sees A's token", async () => {
    const { env, a, port, url } = await readFromServiceA();
    await a.close();

    const b = await startLocalService({ port, memory: true });
    closers.push(() => b.close());
    const w = await runCoinop([...withdraw('b-1'), '--yes'], env);
    expect(w.code, w.stderr).toBe(0);
    const api = await apiJournal(url);
    // The first thing B got was a token request: A's token never went there.
    expect(api[0]).toBe('200 POST /oauth2/token');
    expect(api.filter((l) => l.startsWith('401'))).toEqual([]);
  });
});

describe('a sandbox or production secret goes only to the token endpoint saved at login, over https', () => {
  const SECRET = `sk-prod-${randomBytes(12).toString('hex')}`;
  const gotSecret = (seen: Seen[]) =>
    seen.some((r) => r.body.includes(SECRET) || JSON.stringify(r.headers).includes(SECRET));

  it('an http override of a production profile is refused and nothing is sent', async () => {
    const rec = await recorder();
    const env = { ...freshEnv(), ...TLS_ENV };
    await saveContext(env, 'prod', { environment: 'production', ...ENDPOINTS.production }, SECRET);
    for (const [variable, value] of [
      ['COINOP_BASE_URL', rec.url],
      ['COINOP_AUTH_URL', rec.url],
      ['COINOP_WS_URL', rec.url.replace('http', 'ws')],
    ]) {
      const r = await runCoinop(['--context', 'prod', 'prices', 'BTCUSD', '--limit', '1'], {
        ...env,
        [variable]: value,
      });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: ${variable}: context "prod" is a production context, so its .* can only be overridden with an? (https|wss):// address`,
        ),
      );
    }
    expect(rec.seen).toEqual([]);
  });

  it('an https COINOP_BASE_URL is noted on stderr and the secret still goes only to the saved token endpoint', async () => {
    const api = await recorder();
    const auth = await recorder();
    const [apiTls, authTls] = [await front(api.url), await front(auth.url)];
    const env = { ...freshEnv(), ...TLS_ENV };
    // The saved token endpoint stands in for the hosted one (an https front of a recorder).
    await saveContext(
      env,
      'prod',
      { environment: 'production', ...ENDPOINTS.production, authUrl: authTls.url },
      SECRET,
    );
    const r = await runCoinop(['--context', 'prod', 'prices', 'BTCUSD', '--limit', '1'], {
      ...env,
      COINOP_BASE_URL: apiTls.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `note: context "prod" is a production context; COINOP_BASE_URL overrides its API address with ${apiTls.url} (the client secret goes only to ${authTls.url})`,
    );
    expect(gotSecret(api.seen)).toBe(false);
    expect(api.seen.map((s) => s.headers.authorization)).toEqual(['Bearer tok-recorded']);
    expect(auth.seen.map((s) => s.url)).toEqual(['/oauth2/token']);
    expect(gotSecret(auth.seen)).toBe(true);
  });

  it('an https COINOP_AUTH_URL of a production profile never receives the secret', async () => {
    const rec = await recorder();
    const tls = await front(rec.url);
    const env = { ...freshEnv(), ...TLS_ENV };
    await saveContext(env, 'prod', { environment: 'production', ...ENDPOINTS.production }, SECRET);
    const r = await runCoinop(['--context', 'prod', 'prices', 'BTCUSD', '--limit', '1'], {
      ...env,
      COINOP_BASE_URL: tls.url,
      COINOP_AUTH_URL: tls.url,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `goes only to the token endpoint saved at login (${ENDPOINTS.production.authUrl}), not to ${tls.url}`,
    );
    expect(rec.seen).toEqual([]);
  });

  it('login: an http override is refused and an https token endpoint other than the hosted one gets no secret', async () => {
    const rec = await recorder();
    const tls = await front(rec.url);
    const env = { ...freshEnv(), ...TLS_ENV, COINOP_CLIENT_SECRET: SECRET };
    const login = ['login', '--env', 'production', '--client-id', 'prod-client', '--name', 'prod'];
    const http = await runCoinop(login, { ...env, COINOP_BASE_URL: rec.url });
    expect(http.code, http.stderr).toBe(2);
    expect(http.stderr).toMatch(
      /COINOP_BASE_URL: context "prod" is a production context, so its API address can only be overridden with an https:\/\/ address/,
    );
    const https = await runCoinop(login, { ...env, COINOP_AUTH_URL: tls.url });
    expect(https.code, https.stderr).toBe(2);
    expect(https.stderr).toMatch(
      /COINOP_AUTH_URL: the client secret of production context "prod" goes only to the token endpoint saved at login/,
    );
    expect(rec.seen).toEqual([]);
    const list = await runCoinop(['context', 'list'], env);
    expect(list.stdout).not.toContain('"prod"');
  });
});

describe('a 429 from the token endpoint', () => {
  /**
   * A token endpoint answering 429 (Retry-After as given) `times` times, then tokens. Its health check names an
   * instance, as a local service's does: the local context's secret goes to nothing else (test/cli/foreign-local.test.ts).
   */
  const limited = (times: number, retryAfter = '1') =>
    recorder((req, res) => {
      if (req.url.startsWith('/_local/health')) {
        res
          .writeHead(200, { 'content-type': 'application/json', 'coinop-instance': 'limited-1' })
          .end(JSON.stringify({ status: 'ok', instance_id: 'limited-1' }));
        return true;
      }
      if (!req.url.startsWith('/oauth2/token') || times-- <= 0) return false;
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter })
        .end(JSON.stringify({ error: 'slow_down' }));
      return true;
    });
  const tokenCalls = (seen: Seen[]) => seen.filter((s) => s.url.startsWith('/oauth2/token')).length;

  it('waits per Retry-After and retries: 429 then 200 succeeds', async () => {
    const rec = await limited(1);
    const r = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], { ...freshEnv(), COINOP_BASE_URL: rec.url });
    expect(r.code, r.stderr).toBe(0);
    expect(tokenCalls(rec.seen)).toBe(2);
  });

  it('still 429 after the retries: a rate-limit error (exit 5), not bad credentials', async () => {
    const rec = await limited(100);
    const r = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], { ...freshEnv(), COINOP_BASE_URL: rec.url });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(
      /the token endpoint http:\/\/127\.0\.0\.1:\d+\/oauth2\/token is rate limiting \(HTTP 429 after 4 attempts\); it asks to wait 1 s/,
    );
    expect(r.stderr).not.toMatch(/credentials\b(?! were not refused)|cannot authenticate|coinop login/);
    expect(rec.seen.filter((s) => s.url.startsWith('/v2'))).toEqual([]);
  });

  it('a Retry-After beyond the bound is reported at once instead of waited for', async () => {
    const rec = await limited(100, '3600');
    const r = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], { ...freshEnv(), COINOP_BASE_URL: rec.url });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/rate limiting \(HTTP 429 after 1 attempt\); it asks to wait 3600 s/);
    expect(tokenCalls(rec.seen)).toBe(1);
  });

  it('login: 429 then 200 logs in; always 429 is a rate-limit error and saves nothing', async () => {
    const ok = await limited(1);
    const env = { ...freshEnv(), COINOP_CLIENT_SECRET: 'custom-secret' };
    const good = await runCoinop(
      ['login', '--env', 'custom', '--base-url', ok.url, '--client-id', 'c', '--name', 'rl-ok'],
      env,
    );
    expect(good.code, good.stderr).toBe(0);
    expect(tokenCalls(ok.seen)).toBe(2);
    const no = await limited(100, '3600');
    const bad = await runCoinop(
      ['login', '--env', 'custom', '--base-url', no.url, '--client-id', 'c', '--name', 'rl-bad'],
      env,
    );
    expect(bad.code, bad.stderr).toBe(5);
    expect(bad.stderr).toMatch(/is rate limiting \(HTTP 429/);
    const list = await runCoinop(['context', 'list'], env);
    expect(list.stdout).not.toContain('rl-bad');
  });
});
