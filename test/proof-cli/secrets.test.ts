// Secrets: after login (piped and on a terminal), with --debug on every command and on every error path, neither
// the client secret nor any token appears on stdout, stderr or in any file coinop writes other than the secrets
// and token files; those files and their directory are the owner's alone, also after a rewrite by another process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { BIN, BTC_ADDRESS, ETH_ADDRESS, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { KEY, Term } from '../cli/terminal.js';
import { INTERNAL } from './support.js';

// Distinctive values, so that finding none of them anywhere is conclusive.
const SECRET = `sk-proof-${randomBytes(18).toString('hex')}`;
/** coinop login of the local context proof, the secret read from standard input. */
const PROOF_LOGIN = [
  'login',
  '--env',
  'local',
  '--name',
  'proof',
  '--client-id',
  'proof-client',
  '--client-secret-stdin',
];
const NARROW_SECRET = `sk-narrow-${randomBytes(18).toString('hex')}`;
const WRONG_SECRET = `sk-wrong-${randomBytes(18).toString('hex')}`;
const FAKE_TOKEN = `tok-fake-${randomBytes(18).toString('hex')}`;

let sb: Sandbox;
let proxy: Server;
let proxyUrl: string;
/** Every access token the service issued, seen on the way through the recording proxy. */
const issued = new Set<string>();
/** Everything coinop printed, for the final sweep. */
const printed: { label: string; text: string }[] = [];

/** A pass-through proxy in front of the local service that records every token it hands out. */
function startProxy(target: string): Promise<Server> {
  const t = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const up = request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
        (response) => {
          const body: Buffer[] = [];
          response.on('data', (c) => body.push(c));
          response.on('end', () => {
            const text = Buffer.concat(body).toString();
            if (req.url?.startsWith('/oauth2/token')) {
              try {
                const tok = JSON.parse(text).access_token;
                if (typeof tok === 'string') issued.add(tok);
              } catch {
                /* an error answer */
              }
            }
            res.writeHead(response.statusCode ?? 502, response.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      up.on('error', () => res.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

function env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { ...sb.env, COINOP_BASE_URL: proxyUrl, COINOP_AUTH_URL: undefined, COINOP_WS_URL: sb.svc.wsUrl, ...extra };
}

async function coinop(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; child?: boolean } = {},
): Promise<Run> {
  const e = env(options.env);
  const r = options.child
    ? await sb.run(args, { env: e, input: options.input })
    : await sb.runIn(args, { env: e, input: options.input });
  printed.push({ label: `coinop ${args.join(' ')}`, text: `${r.stdout}\n${r.stderr}` });
  expect(r.stderr, `coinop ${args.join(' ')}`).not.toMatch(INTERNAL);
  return r;
}

function leaks(text: string): string[] {
  const found: string[] = [];
  for (const s of [SECRET, NARROW_SECRET, WRONG_SECRET, FAKE_TOKEN])
    if (text.includes(s)) found.push(`${s.slice(0, 12)}…`);
  // A token is 43 characters; even its first 16 must not show.
  for (const t of issued) if (text.includes(t.slice(0, 16))) found.push(`token ${t.slice(0, 6)}…`);
  return found;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

const mode = (p: string) => statSync(p).mode & 0o777;

beforeAll(async () => {
  sb = await sandbox();
  // Two clients of our own with distinctive secrets: one with every scope, one that may only read.
  const state = await sb.control('GET', '/_local/state');
  const admin = state.tables.clients.find((c: { id: string }) => c.id === 'local-admin');
  state.tables.clients.push({ ...admin, id: 'proof-client', secret: SECRET });
  state.tables.clients.push({
    ...admin,
    id: 'proof-narrow',
    secret: NARROW_SECRET,
    scopes: 'exchange:historical_prices transfer:read_transfer',
    allow_stream: 0,
  });
  await sb.control('PUT', '/_local/state', state);
  proxy = await startProxy(sb.svc.baseUrl);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await sb?.close();
});

describe('secrets', () => {
  it('login piped (stdin and COINOP_CLIENT_SECRET) and with --debug: proven, saved owner-only, never shown', async () => {
    const a = await coinop([...PROOF_LOGIN, '--debug', '--no-input'], { input: `${SECRET}\n`, child: true });
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain('[debug] > POST');
    expect(a.stderr).toContain('[redacted]');
    const b = await coinop(
      [
        'login',
        '--env',
        'local',
        '--name',
        'narrow',
        '--client-id',
        'proof-narrow',
        '--scopes',
        'exchange:historical_prices,transfer:read_transfer',
        '--debug',
        '--no-input',
        '-o',
        'json',
      ],
      { env: { COINOP_CLIENT_SECRET: NARROW_SECRET } },
    );
    expect(b.code, b.stderr).toBe(0);
    expect(issued.size).toBeGreaterThanOrEqual(2);
    const cfg = sb.env.COINOP_CONFIG_DIR;
    expect(JSON.parse(readFileSync(join(cfg, 'secrets.json'), 'utf8'))).toEqual({
      proof: SECRET,
      narrow: NARROW_SECRET,
    });
    expect(mode(cfg)).toBe(0o700);
    for (const f of ['secrets.json', 'config.json']) expect(mode(join(cfg, f)), f).toBe(0o600);
    // `profile use` makes `proof` active for what follows (it has a token cache entry once a command ran).
    expect((await coinop(['context', 'use', 'proof'])).code).toBe(0);
  });

  it('login on a terminal: the secret is masked on screen', async () => {
    const t = new Term(['login', '--name', 'tty', '--debug'], env());
    await t.waitFor('Environment');
    t.type(KEY.up + KEY.enter);
    await t.waitFor('Client id');
    t.type(`proof-client${KEY.enter}`);
    await t.waitFor('Client secret');
    t.type(SECRET + KEY.enter);
    await t.waitFor('Scopes');
    t.type(KEY.enter);
    expect(await t.exit()).toBe(0);
    printed.push({ label: 'pty login (screen)', text: t.screen() }, { label: 'pty login (raw bytes)', text: t.raw });
    expect(t.screen()).toContain('Logged in to local as proof-client');
    expect(leaks(t.screen())).toEqual([]);
    expect(leaks(t.raw)).toEqual([]);
    expect((await coinop(['context', 'use', 'proof'])).code).toBe(0);
  });

  it('every command with --debug, reads and writes, piped and in a table', async () => {
    const csv = join(sb.dir, 'payouts.csv');
    writeFileSync(
      csv,
      `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.0001\n${ETH_ADDRESS},ETH,ETHEREUM,0.001\n`,
    );
    const W = ['--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.0001'];
    const runs: string[][] = [
      ['auth', 'status'],
      ['auth', 'status', '--json'],
      ['context', 'show'],
      ['context', 'show', 'narrow', '-o', 'json'],
      ['context', 'list', '-o', 'json'],
      ['prices', 'BTCUSD', '--limit', '2'],
      ['prices', 'BTCUSD', '--limit', '2', '-o', 'table'],
      ['fee', 'quote', ...W],
      ['withdraw', ...W, '--quote', '--yes'],
      ['withdraw', ...W, '--dry-run', '--quote', '-o', 'table'],
      ['withdraw', ...W, '--yes', '--ref-id', 'proof-ref-1'],
      ['withdraw', ...W, '--yes', '--ref-id', 'proof-ref-1'],
      ['addresses', 'list', '--limit', '2'],
      ['addresses', 'create', '--network', 'ETHEREUM', '--ref-id', 'proof-addr'],
      ['transfers', 'list', '--limit', '2', '-o', 'csv'],
      ['transfers', 'get', '--ref-id', 'proof-ref-1'],
      ['sandbox', 'deposit', '--amount', '10.00'],
      ['api', 'GET', '/v2/transfer/transfers', '-f', 'limit=1', '-i'],
      ['withdraw', 'batch', csv, '--yes'],
      ['withdraw', 'batch', csv, '--dry-run'],
      ['stream', 'heartbeat', '-o', 'ndjson', '--count', '1'],
    ];
    for (const args of runs) {
      const r = await coinop([...args, '--debug', '--no-input']);
      expect(r.code, `coinop ${args.join(' ')}: ${r.stderr}`).toBe(0);
      // Profile commands and a cached token make no request, so they have nothing to log.
      if (!['auth', 'context'].includes(args[0])) expect(r.stderr, `coinop ${args.join(' ')}`).toContain('[debug]');
    }
    // A few as real child processes, the way an operator runs them.
    for (const args of [
      ['prices', 'BTCUSD', '--limit', '1'],
      ['withdraw', ...W, '--yes', '--quote'],
      ['auth', 'status', '--json'],
    ]) {
      expect((await coinop([...args, '--debug'], { child: true })).code).toBe(0);
    }
  });

  it('every error path with --debug: bad secret, 401, 403, network errors, faults, validation errors', async () => {
    const cfg = sb.env.COINOP_CONFIG_DIR;
    const W = ['--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.0001', '--yes'];
    // A wrong secret at login: refused, nothing saved.
    const bad = await coinop(
      [
        'login',
        '--env',
        'local',
        '--name',
        'wrong',
        '--client-id',
        'proof-client',
        '--client-secret-stdin',
        '--debug',
        '--no-input',
      ],
      { input: WRONG_SECRET, child: true },
    );
    expect(bad.code).toBe(4);
    expect(readFileSync(join(cfg, 'secrets.json'), 'utf8')).not.toContain('wrong');
    // A given token the service does not know: 401, exit 4.
    const given = await coinop(['prices', 'BTCUSD', '--debug'], { env: { COINOP_TOKEN: FAKE_TOKEN } });
    expect(given.code).toBe(4);
    // A cached token the service forgot: 401, refreshed once, retried; the forged value never printed.
    const tokens = JSON.parse(readFileSync(join(cfg, 'tokens.json'), 'utf8'));
    for (const k of Object.keys(tokens)) tokens[k].accessToken = FAKE_TOKEN;
    writeFileSync(join(cfg, 'tokens.json'), JSON.stringify(tokens));
    const stale = await coinop(['transfers', 'list', '--limit', '1', '--debug']);
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stderr).toContain('< 401');
    // Scopes the client lacks: 403 on the API and on the stream handshake, exit 4.
    for (const args of [
      ['withdraw', ...W],
      ['fee', 'quote', ...W.slice(0, -1)],
      ['stream', 'heartbeat', '-o', 'ndjson', '--count', '1'],
    ]) {
      const r = await coinop([...args, '--debug', '--context', 'narrow']);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(4);
    }
    // The stored secret is wrong now (rotated on the service): the token request fails, exit 4.
    const state = await sb.control('GET', '/_local/state');
    state.tables.clients.find((c: { id: string }) => c.id === 'proof-client').secret = `${SECRET}-rotated`;
    await sb.control('PUT', '/_local/state', state);
    writeFileSync(join(cfg, 'tokens.json'), '{}');
    expect((await coinop(['prices', 'BTCUSD', '--debug'])).code).toBe(4);
    expect((await coinop(['auth', 'status', '--json', '--debug'])).code).toBe(4);
    state.tables.clients.find((c: { id: string }) => c.id === 'proof-client').secret = SECRET;
    await sb.control('PUT', '/_local/state', state);
    // Nothing listening at the local context's address: asked who it is before the token request (which carries
    // the secret), so nothing is sent, a read or a write: exit 5.
    for (const args of [
      ['prices', 'BTCUSD'],
      ['withdraw', ...W, '--ref-id', 'net-1'],
    ]) {
      const r = await coinop([...args, '--debug'], {
        env: { COINOP_BASE_URL: 'http://127.0.0.1:9', COINOP_RETRY_BASE_MS: '1' },
      });
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toContain('cannot reach the local service at http://127.0.0.1:9: ECONNREFUSED');
      expect(r.stderr).not.toContain('> POST http://127.0.0.1:9/oauth2/token');
    }
    // The service answering 500 and 503 to everything, the token endpoint included: retries logged, exit 1 (a 500)
    // or 5 (a 503: unavailable).
    await sb.control('PUT', '/_local/faults', { rate500: 0.5, rate503: 0.5 });
    writeFileSync(join(cfg, 'tokens.json'), '{}');
    const faulty = await coinop(['prices', 'BTCUSD', '--debug']);
    expect([1, 4, 5]).toContain(faulty.code);
    expect(faulty.stderr).toContain('retrying');
    await sb.control('PUT', '/_local/faults', { rate500: 0, rate503: 0 });
    // Validation errors, with --debug and -o json.
    for (const args of [
      ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '-1'],
      ['prices', 'BTCUSD', '--from', 'soon', '-o', 'json'],
      ['login', '--env', 'sandbox', '--client-id', 'x', '--client-secret', SECRET],
    ]) {
      expect((await coinop([...args, '--debug', '--no-input'])).code).toBe(2);
    }
    // A secret given as a flag value is refused before it goes anywhere, and not echoed back.
    const echoed = printed.at(-1)!.text;
    expect(echoed).toContain("unknown option '--client-secret'");
  });

  it('no secret and no token in anything printed, nor in any file coinop wrote but the secrets and token files', async () => {
    // One more read after the error paths emptied the cache, so the cache holds a token for the control below.
    expect((await coinop(['prices', 'BTCUSD', '--limit', '1'])).code).toBe(0);
    expect(issued.size).toBeGreaterThanOrEqual(6);
    const found = printed.flatMap((p) => leaks(p.text).map((l) => `${p.label}: ${l}`));
    expect(found).toEqual([]);
    const cfg = sb.env.COINOP_CONFIG_DIR;
    const allowed = new Set([join(cfg, 'secrets.json'), join(cfg, 'tokens.json')]);
    const files = walk(sb.dir).filter((f) => !allowed.has(f));
    expect(files.some((f) => f.endsWith('.journal'))).toBe(true);
    const inFiles = files.flatMap((f) =>
      leaks(readFileSync(f).toString('latin1')).map((l) => `${relative(sb.dir, f)}: ${l}`),
    );
    expect(inFiles).toEqual([]);
    // The token cache does hold tokens (so the sweep above would have found one), and only there.
    expect(leaks(readFileSync(join(cfg, 'tokens.json'), 'utf8')).length).toBeGreaterThan(0);
  });

  it('credential files stay owner-only after a rewrite by a second process, whatever its umask', async () => {
    const cfg = sb.env.COINOP_CONFIG_DIR;
    // Loosened by hand: the next write by coinop tightens them again.
    chmodSync(cfg, 0o755);
    chmodSync(join(cfg, 'secrets.json'), 0o644);
    chmodSync(join(cfg, 'tokens.json'), 0o644);
    const second = (args: string[], input?: string) =>
      new Promise<number>((res, rej) => {
        const e = Object.fromEntries(Object.entries(env()).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >;
        const c = spawn('/bin/sh', ['-c', `umask 000 && exec "${process.execPath}" "${BIN}" "$@"`, 'sh', ...args], {
          env: e,
          stdio: ['pipe', 'ignore', 'pipe'],
        });
        let err = '';
        c.stderr.on('data', (d) => (err += d));
        c.on('error', rej);
        c.on('close', (code) => (code === 0 ? res(0) : rej(new Error(`exit ${code}: ${err}`))));
        c.stdin.end(input ?? '');
      });
    await second([...PROOF_LOGIN, '--no-input'], SECRET);
    await second(['prices', 'BTCUSD', '--limit', '1']);
    expect(mode(cfg)).toBe(0o700);
    for (const f of ['secrets.json', 'tokens.json', 'config.json']) expect(mode(join(cfg, f)), f).toBe(0o600);
    // Nothing else in the directory is readable by others either (no lock or temporary file left behind).
    for (const f of readdirSync(cfg)) expect(mode(join(cfg, f)) & 0o077, f).toBe(0);
    expect(JSON.parse(readFileSync(join(cfg, 'secrets.json'), 'utf8')).proof).toBe(SECRET);
  });
});
