// The CLI's building blocks in process: output formats, CSV quoting, redaction, retries, tokens, the store, charts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { csvField, csvRow } from '../../src/render/csv.js';
import { redactBody, redactHeaders } from '../../src/client/redact.js';
import { Transport, retryAfterMs } from '../../src/client/transport.js';
import { TokenManager, EXPIRY_MARGIN_MS } from '../../src/client/tokens.js';
import { issueMessage } from '../../src/client/service-client.js';
import { lineChart } from '../../src/render/chart.js';
import { Output } from '../../src/render/output.js';
import { makeIO } from '../../src/cli/io.js';
import { parseTime, keyValues } from '../../src/cli/options.js';
import { ConfigStore } from '../../src/config/store.js';
import { resolveContext } from '../../src/config/context.js';
import { configDir } from '../../src/config/paths.js';
import { readSettings } from '../../src/config/settings.js';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import { CoinopError } from '../../src/cli/errors.js';
import { capturedStreams } from './helpers.js';

function memoryIO(tty = false, env: Record<string, string> = {}) {
  const c = capturedStreams();
  Object.assign(c.out, { isTTY: tty, columns: 100 });
  const io = makeIO({ stdin: new PassThrough(), stdout: c.out, stderr: c.err }, { env });
  return {
    io,
    get stdout() {
      return c.stdout;
    },
    get stderr() {
      return c.stderr;
    },
  };
}

describe('output', () => {
  it('CSV quotes commas, quotes, line breaks and edge spaces, and nothing else', () => {
    expect(csvField('0.00002')).toBe('0.00002');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' pad')).toBe('" pad"');
    expect(csvField(undefined)).toBe('');
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
    expect(csvRow(['x', 'y,z'])).toBe('x,"y,z"\r\n');
  });

  it('lists stream as a JSON array (empty, one, many), NDJSON and CSV; amounts are printed as received', async () => {
    const items = [
      { amount: '0.10000000', n: 1 },
      { amount: '1e-8', n: 2 },
    ];
    for (const [list, want] of [
      [[], []],
      [[items[0]], [items[0]]],
      [items, items],
    ] as const) {
      const m = memoryIO();
      await new Output(m.io, 'json').list(list as never, [{ key: 'amount' }]);
      expect(JSON.parse(m.stdout)).toEqual(want);
    }
    const nd = memoryIO();
    await new Output(nd.io, 'ndjson').list(items, []);
    expect(nd.stdout).toBe('{"amount":"0.10000000","n":1}\n{"amount":"1e-8","n":2}\n');
    const csv = memoryIO();
    await new Output(csv.io, 'csv').list(items, [{ key: 'amount' }, { key: 'n' }]);
    expect(csv.stdout).toBe('amount,n\r\n0.10000000,1\r\n1e-8,2\r\n');
    const table = memoryIO(true);
    await new Output(table.io, 'table').list(items, [{ key: 'amount', kind: 'amount' }]);
    expect(table.stdout).toContain('0.10000000');
  });

  it('colour follows NO_COLOR, FORCE_COLOR and the terminal', () => {
    expect(memoryIO(true).io.colour).toBe(true);
    expect(memoryIO(false).io.colour).toBe(false);
    expect(memoryIO(true, { NO_COLOR: '1' }).io.colour).toBe(false);
    expect(memoryIO(false, { FORCE_COLOR: '1' }).io.colour).toBe(true);
    expect(memoryIO(true, { FORCE_COLOR: '0' }).io.colour).toBe(false);
    expect(memoryIO(true).io.canPrompt).toBe(false); // stdin is not a terminal
  });

  it('the chart labels the extremes with the exact strings and draws every row', () => {
    const pts = ['10.50', '12.25', '9.75', '11.00'].map((p, i) => ({ label: p, value: Number(p), time: `t${i}` }));
    const c = lineChart(pts, 60, 6).split('\n');
    expect(c[0].startsWith('12.25 ┤')).toBe(true);
    expect(c[5].startsWith(' 9.75 ┤')).toBe(true);
    expect(c.filter((l) => /[\u2801-\u28ff]/.test(l)).length).toBeGreaterThanOrEqual(5);
  });
});

describe('flags and messages', () => {
  it('times: RFC 3339 as given, now, and durations back from now', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseTime('--from', '2026-01-01T00:00:00Z', now)).toBe('2026-01-01T00:00:00Z');
    expect(parseTime('--from', 'now', now)).toBe('2026-03-01T12:00:00Z');
    expect(parseTime('--from', '90m', now)).toBe('2026-03-01T10:30:00Z');
    expect(parseTime('--from', '7d', now)).toBe('2026-02-22T12:00:00Z');
  });

  it('key=value pairs split on the first =, and issues name the flag the operator typed', () => {
    expect(keyValues('--meta', ['a=b=c', 'x='])).toEqual({ a: 'b=c', x: '' });
    expect(() => keyValues('--meta', ['nokey'])).toThrow(CoinopError);
    expect(
      issueMessage(
        [
          { field: 'destination_address', rule: 'is bad' },
          { field: 'metadata.k', rule: 'too long' },
        ],
        { destination_address: '--address', metadata: '--meta' },
      ),
    ).toBe('--address: is bad; --meta.k: too long');
  });
});

describe('completion', () => {
  it('the bash script completes commands, subcommands, flags and enumerated values', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = join(__dirname, '../../completions/coinop.bash');
    const complete = (words: string[]) => {
      const cmd = `source ${script}; COMP_WORDS=(${words.map((w) => `"${w}"`).join(' ')}); COMP_CWORD=${words.length - 1}; _coinop; echo "\${COMPREPLY[@]}"`;
      return spawnSync('bash', ['-c', cmd], { encoding: 'utf8' }).stdout.trim().split(' ');
    };
    expect(complete(['coinop', 'addr'])).toEqual(['addresses']);
    expect(complete(['coinop', 'addresses', ''])).toEqual(['list', 'create', 'verify', 'verifications']);
    expect(complete(['coinop', 'withdraw', '--am'])).toEqual(['--amount']);
    expect(complete(['coinop', 'withdraw', '--network', 'BIT'])).toEqual(['BITCOIN', 'BITCOIN_CASH']);
    expect(complete(['coinop', 'prices', 'BTCU'])).toEqual(['BTCUSD']);
  });
});

describe('redaction', () => {
  it('hides Authorization, tokens and client secrets in headers, JSON and form bodies', () => {
    expect(redactHeaders({ authorization: 'Bearer abc', accept: 'x' })).toEqual({
      authorization: '[redacted]',
      accept: 'x',
    });
    expect(
      redactBody(
        'grant_type=client_credentials&client_id=me&client_secret=s3cret',
        'application/x-www-form-urlencoded',
      ),
    ).not.toContain('s3cret');
    const j = redactBody(
      JSON.stringify({ access_token: 'tok-123', nested: { client_secret: 'sec-456' }, amount: '1' }),
    );
    expect(j).not.toContain('tok-123');
    expect(j).not.toContain('sec-456');
    expect(j).toContain('"amount":"1"');
  });
});

describe('transport', () => {
  let server: Server;
  let url: string;
  const hits: string[] = [];
  let plan: number[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      const status = plan.shift() ?? 200;
      if (status === 429) res.setHeader('retry-after', '0');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('retries reads on 429 and 5xx, at most 4 attempts in all', async () => {
    const t = new Transport({ baseDelayMs: 1 });
    hits.length = 0;
    plan = [429, 503, 200];
    expect((await t.send({ method: 'GET', url: `${url}/a`, retry: true })).status).toBe(200);
    expect(hits).toHaveLength(3);
    hits.length = 0;
    plan = [500, 500, 500, 500, 500];
    expect((await t.send({ method: 'GET', url: `${url}/b`, retry: true })).status).toBe(500);
    expect(hits).toHaveLength(4);
    t.close();
  });

  it('never resends a request marked not retryable (a POST without ref_id)', async () => {
    const t = new Transport({ baseDelayMs: 1 });
    hits.length = 0;
    plan = [503];
    expect((await t.send({ method: 'POST', url: `${url}/c`, body: '{}', retry: false })).status).toBe(503);
    expect(hits).toHaveLength(1);
    t.close();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    const d = retryAfterMs(new Date(Date.now() + 5000).toUTCString())!;
    expect(d).toBeGreaterThan(3000);
    expect(d).toBeLessThanOrEqual(5000);
  });

  it('the API client reads problem+json, plain JSON and plain-text errors, and unknown fields in answers', async () => {
    const { ServiceClient } = await import('../../src/client/service-client.js');
    const { ENFORCE } = await import('../../src/client/catalogue-policy.js');
    const answers: [number, string, string][] = [];
    const srv = createServer((req, res) => {
      const [status, type, body] = answers.shift() ?? [200, 'application/json', '{}'];
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
    const tokens = {
      token: async () => ({ accessToken: 't', fromCache: false }),
      refresh: async () => ({ accessToken: 't2', fromCache: false }),
      canRefresh: true,
    };
    const client = new ServiceClient(base, new Transport({ baseDelayMs: 1 }), tokens as never, ENFORCE);
    const get = () => client.call('getTransfer', { params: { id: 'x' } });
    answers.push([
      404,
      'application/problem+json',
      JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'no transfer x' }),
    ]);
    await expect(get()).rejects.toMatchObject({ category: 'api', message: 'Not Found: no transfer x' });
    answers.push([400, 'text/plain', 'upstream says no']);
    await expect(get()).rejects.toMatchObject({
      category: 'api',
      message: expect.stringContaining('upstream says no'),
    });
    answers.push([
      403,
      'application/json',
      JSON.stringify({ title: 'Forbidden', detail: "insufficient scopes: found 'a', required one of '[b]'" }),
    ]);
    await expect(get()).rejects.toMatchObject({ category: 'auth' });
    answers.push([
      200,
      'application/json',
      JSON.stringify({ id: 'x', status: 'PENDING', brand_new_field: { deep: true } }),
    ]);
    expect((await get()).data).toMatchObject({ id: 'x', brand_new_field: { deep: true } });
    // Paging: a long cursor of the service's own is followed (not re-checked against the request limits).
    const cursor = 'c'.repeat(600);
    answers.push(
      [200, 'application/json', JSON.stringify({ items: [{ id: 'a' }], next_page_cursor: cursor })],
      [200, 'application/json', JSON.stringify({ items: [{ id: 'b' }] })],
    );
    const seen: string[] = [];
    for await (const t of client.items('listTransfers', { query: { limit: '1' } })) seen.push(t.id);
    expect(seen).toEqual(['a', 'b']);
    // A 401 refreshes the token once and retries once.
    answers.push(
      [401, 'application/problem+json', '{"type":"about:blank","title":"Unauthorized","status":401}'],
      [200, 'application/json', '{"id":"x"}'],
    );
    expect((await get()).data).toEqual({ id: 'x' });
    answers.push(
      [401, 'application/problem+json', '{"type":"about:blank","title":"Unauthorized","status":401}'],
      [401, 'application/problem+json', '{"type":"about:blank","title":"Unauthorized","status":401}'],
    );
    await expect(get()).rejects.toMatchObject({ category: 'auth', hint: expect.stringContaining('coinop login') });
    await new Promise<void>((r) => srv.close(() => r()));
  });

  it('an unreachable server is a network error after retries', async () => {
    const t = new Transport({ baseDelayMs: 1 });
    await expect(t.send({ method: 'GET', url: 'http://127.0.0.1:9/x', retry: true })).rejects.toMatchObject({
      category: 'network',
    });
    t.close();
  });
});

describe('tokens and the store', () => {
  let svc: LocalService;
  let dir: string;
  beforeAll(async () => {
    svc = await startLocalService({
      port: 0,
      memory: true,
      config: { journalSize: 10_000, rateLimits: { enabled: false } },
    });
    dir = mkdtempSync(join(tmpdir(), 'coinop-units-'));
  });
  afterAll(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const tokenRequests = async () => {
    const { items } = (await (await fetch(`${svc.baseUrl}/_local/journal?limit=10000`)).json()) as {
      items: { url: string }[];
    };
    return items.filter((e) => e.url.startsWith('/oauth2/token')).length;
  };

  it('caches a token per profile and scope set, reuses it until a minute before expiry, then fetches a new one', async () => {
    const env = { COINOP_CONFIG_DIR: join(dir, 'cfg'), COINOP_BASE_URL: svc.baseUrl };
    const store = new ConfigStore(configDir(env));
    const profile = resolveContext(store, undefined, readSettings(env));
    let now = Date.now();
    const transport = new Transport({ baseDelayMs: 1 });
    const before = await tokenRequests();
    const a = await new TokenManager(profile, store, transport, () => now).token();
    expect(a.fromCache).toBe(false);
    // Another process (a new manager) reads the cached one.
    const b = await new TokenManager(profile, store, transport, () => now).token();
    expect(b.accessToken).toBe(a.accessToken);
    expect(b.fromCache).toBe(true);
    // A different scope set is a different cache entry.
    const narrower = { ...profile, scopes: ['exchange:historical_prices'] };
    const c = await new TokenManager(narrower, store, transport, () => now).token();
    expect(c.accessToken).not.toBe(a.accessToken);
    expect(await tokenRequests()).toBe(before + 2);
    now = a.expiresAt! - EXPIRY_MARGIN_MS - 1000;
    expect((await new TokenManager(profile, store, transport, () => now).token()).accessToken).toBe(a.accessToken);
    now = a.expiresAt! - EXPIRY_MARGIN_MS + 1000;
    const d = await new TokenManager(profile, store, transport, () => now).token();
    expect(d.fromCache).toBe(false);
    expect(await tokenRequests()).toBe(before + 3);
    transport.close();
  });

  it('COINOP_TOKEN bypasses the token endpoint', async () => {
    const env = { COINOP_CONFIG_DIR: join(dir, 'cfg2'), COINOP_BASE_URL: svc.baseUrl, COINOP_TOKEN: 'given' };
    const store = new ConfigStore(configDir(env));
    const before = await tokenRequests();
    const m = new TokenManager(resolveContext(store, undefined, readSettings(env)), store, new Transport());
    expect((await m.token()).accessToken).toBe('given');
    expect(m.canRefresh).toBe(false);
    expect(await tokenRequests()).toBe(before);
  });
});
