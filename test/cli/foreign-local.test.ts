// Another program on the local context's port (issue 29, item 5): coinop asks GET /_local/health, sees an answer that
// is not a coinop local service's, and stops with one line naming the address and what answered. No credential goes
// there: not the client secret, not a token. The same holds for an identity only the cache believes, and for a token
// address that is not the API's; coinop doctor says the same in a check of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cachedInstance, reachService, rememberInstance } from '../../src/client/service-identity.js';
import { embeddable, resolveContext } from '../../src/config/context.js';
import { configDir } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { readSettings } from '../../src/config/settings.js';
import { DEMO } from '../../src/embedded/demo.js';
import { saveContext } from '../support/contexts.js';
import { type ForeignServer, foreignServer } from '../support/foreign-server.js';
import { baseEnv, runInProcess, type Sandbox, sandbox } from './helpers.js';
import { transferFlags } from '../support/command-lines.js';

let foreign: ForeignServer;
let dir: string;
let env: Record<string, string>;
let sb: Sandbox;

beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

beforeEach(async () => {
  foreign = await foreignServer();
  dir = mkdtempSync(join(tmpdir(), 'coinop-foreign-'));
  env = baseEnv(dir);
  // A local context at the other program's port, saved as `coinop login --env local` leaves it: not overridden, so
  // exactly the default context's case when another program holds 127.0.0.1:7357.
  await saveContext(env, 'here', { environment: 'local', baseUrl: foreign.url });
});
afterEach(async () => {
  await foreign.close();
  rmSync(dir, { recursive: true, force: true });
});

const host = () => `127.0.0.1:${foreign.port}`;
const answered = '404 text/html, server "SimpleHTTP/0.6 Python/3.12.3"';
const noSecretSent = () => expect(foreign.withSecrets([DEMO.clientSecret])).toEqual([]);
const paths = () => foreign.requests.map((r) => `${r.method} ${r.url}`);

describe('a local context whose port another program holds', () => {
  it('a read: one line naming the address and what answered; only the health check reached it', async () => {
    const r = await runInProcess(['balances', '--context', 'here'], env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `error: ${host()} is not a coinop local service (it answered GET /_local/health with ${answered}); no credentials were sent to it` +
        ` (hint: stop the program listening there, or run the local service on another port (coinop local start --port ${foreign.port + 1})` +
        ` and point coinop at it (COINOP_BASE_URL=http://127.0.0.1:${foreign.port + 1}))`,
    ]);
    expect(paths()).toEqual(['GET /_local/health']);
    noSecretSent();
  });

  it('a withdrawal with --yes: refused the same way, nothing sent but the health check', async () => {
    const r = await runInProcess(
      ['withdraw', ...transferFlags('BTC', '0.001'), '--context', 'here', '--yes', '-o', 'json'],
      env,
    );
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`${host()} is not a coinop local service`);
    expect(paths()).toEqual(['GET /_local/health']);
    noSecretSent();
  });

  it('the built-in local context pointed there by COINOP_BASE_URL: the hint names the variable', async () => {
    const r = await runInProcess(['prices', 'BTCUSD', '--limit', '1'], { ...env, COINOP_BASE_URL: foreign.url });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`${host()} is not a coinop local service (it answered GET /_local/health with`);
    expect(r.stderr).toMatch(/\(hint: check COINOP_BASE_URL and COINOP_AUTH_URL/);
    noSecretSent();
  });

  it('an identity only the cache believes: the health check is asked before the secret would leave, and the cache forgets the address', async () => {
    rememberInstance(env.COINOP_DATA_DIR, foreign.url, 'cached-instance-1');
    const r = await runInProcess(['balances', '--context', 'here'], env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`${host()} is not a coinop local service (it answered GET /_local/health with`);
    expect(paths()).toEqual(['GET /_local/health']);
    noSecretSent();
    expect(cachedInstance(env.COINOP_DATA_DIR, foreign.url)).toBeUndefined();
  });

  it("a cached identity and a token of one's own (COINOP_TOKEN): the first answer names no instance, and the run stops there", async () => {
    rememberInstance(env.COINOP_DATA_DIR, foreign.url, 'cached-instance-2');
    const r = await runInProcess(['balances', '--context', 'here'], { ...env, COINOP_TOKEN: 'given-token' });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(
      new RegExp(`error: ${host()} is not a coinop local service \\(it answered GET /v2/\\S+ with 404 text/html`),
    );
    // The cache's belief let the one request go (no request is added to every command); it is forgotten.
    expect(paths()).toHaveLength(1);
    expect(cachedInstance(env.COINOP_DATA_DIR, foreign.url)).toBeUndefined();
    const again = await runInProcess(['balances', '--context', 'here'], { ...env, COINOP_TOKEN: 'given-token' });
    expect(again.code).toBe(5);
    expect(paths().slice(1)).toEqual(['GET /_local/health']);
  });

  it("the embedded service is not started in the other program's place", async () => {
    const settings = readSettings(env);
    const context = resolveContext(new ConfigStore(configDir(env)), 'here', settings);
    expect(embeddable(context)).toBe(true);
    let started = 0;
    await expect(
      reachService(context, settings, {
        startEmbedded: async () => {
          started++;
          throw new Error('not here');
        },
      }),
    ).rejects.toThrow(`${host()} is not a coinop local service`);
    expect(started).toBe(0);
  });
});

describe('a token address that is not the API address', () => {
  it('the secret goes only to a coinop local service: another program at COINOP_AUTH_URL gets none', async () => {
    const r = await runInProcess(['balances'], { ...sb.env, COINOP_AUTH_URL: `${foreign.url}/auth` });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      `error: ${host()}/auth is not a coinop local service (it answered GET /auth/_local/health with ${answered})`,
    );
    expect(paths()).toEqual(['GET /auth/_local/health']);
    noSecretSent();
  });

  it('a real local service there: the token is issued (asked once, then the cached token needs no check)', async () => {
    const r = await runInProcess(['balances', '-o', 'json'], { ...sb.env, COINOP_AUTH_URL: sb.svc.baseUrl });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('coinop doctor', () => {
  it('says the same in a check of its own, and asks the other program for no token', async () => {
    const r = await runInProcess(['doctor', '--context', 'here', '-o', 'table'], env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      `fail  local service [context here]: ${host()} is not a coinop local service (it answered GET /_local/health with ${answered}); no credentials were sent to it\n`,
    );
    expect(r.stdout).toMatch(/^ {6}fix: stop the program listening there/m);
    expect(r.stdout).not.toMatch(/token \[context here\]/);
    noSecretSent();
  });

  it('a coinop local service at the address: the check is ok, naming its instance', async () => {
    await saveContext(env, 'real', { environment: 'local', baseUrl: sb.svc.baseUrl });
    const r = await runInProcess(['doctor', '--context', 'real', '-o', 'table'], env);
    expect(r.stdout).toMatch(/^ok {4}local service \[context real\]: a coinop local service \(instance [\w-]+\)$/m);
    expect(r.stdout).toMatch(/^ok {4}token \[context real\]: a token was issued/m);
  });
});
