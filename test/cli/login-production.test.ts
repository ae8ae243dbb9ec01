// `login --env production` never makes the production profile the active one unless asked to: --activate, or a yes
// on a terminal. End to end: the hosted token endpoint's stand-in is the local service behind a loopback https front
// (test/support/tls.ts: a test certificate the child trusts through NODE_EXTRA_CA_CERTS), given to login as the
// production profile's addresses (--base-url, --auth-url, --ws-url: https and wss only).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { TLS_ENV, tlsFront, type TlsFront } from '../support/tls.js';
import { runCoinop, sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';
import { productionLogin } from '../support/command-lines.js';

let sb: Sandbox;
let front: TlsFront;
const dirs: string[] = [];
beforeAll(async () => {
  sb = await sandbox();
  front = await tlsFront(sb.svc.baseUrl);
});
afterAll(async () => {
  await front?.close();
  await sb?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh configuration directory (no profile saved yet) that trusts the test certificate; the secret from the environment. */
function freshEnv(): Record<string, string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-login-prod-'));
  dirs.push(dir);
  return {
    ...sb.env,
    ...TLS_ENV,
    COINOP_CONFIG_DIR: dir,
    // The addresses are login's flags, not overrides.
    COINOP_BASE_URL: undefined,
    COINOP_AUTH_URL: undefined,
    COINOP_CLIENT_SECRET: DEMO.clientSecret,
  };
}

const login = (...more: string[]) => productionLogin(front.url, ...more);

/** The active profile's name, and the production profile as saved. */
async function profiles(env: Record<string, string | undefined>) {
  const r = await runCoinop(['context', 'list', '-o', 'json'], env);
  expect(r.code, r.stderr).toBe(0);
  const rows = JSON.parse(r.stdout) as { name: string; active: boolean; environment: string; auth_url: string }[];
  return { active: rows.find((p) => p.active)?.name, prod: rows.find((p) => p.name === 'prod') };
}

describe('login --env production: saved, and active only when asked', () => {
  it('piped without --activate: proven and saved, not active, and stderr says so', async () => {
    const env = freshEnv();
    await sb.sent();
    const r = await runCoinop(login(), env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `note: this production context uses addresses other than the hosted service's: API ${front.url}, token endpoint ${front.url}/oauth2/token`,
    );
    expect(r.stderr).toContain(
      'context "prod" is saved, not active (use it with --context prod, or coinop context use prod)',
    );
    // The credentials were proven at the stand-in token endpoint, over https; the profiles listed with them.
    expect((await sb.sent()).map((e) => `${e.method} ${e.url}`)).toEqual(['POST /oauth2/token', 'GET /v2/profiles']);
    const { active, prod } = await profiles(env);
    expect(active).toBe('local');
    expect(prod).toMatchObject({ environment: 'production', auth_url: front.url });
    // Used by name, it works (its secret goes to the token endpoint saved at login).
    const status = await runCoinop(['--context', 'prod', 'auth', 'status', '-o', 'json'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'prod', environment: 'production' });
  });

  it('piped with --activate: active', async () => {
    const env = freshEnv();
    const r = await runCoinop(login('--activate'), env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('context "prod" is now active');
    expect((await profiles(env)).active).toBe('prod');
  });

  it.each([
    ['n', 'local', 'is saved, not active'],
    ['y', 'prod', 'is now active'],
  ])('on a terminal, answering %s: the active profile is %s', async (answer, active, said) => {
    const env = { ...freshEnv(), NO_COLOR: undefined };
    const t = new Term(login(), env, 200);
    try {
      // The service lists two profiles: one is picked (Enter takes the first), then the question.
      await t.waitFor('The service profile this context uses by default');
      t.type(KEY.enter);
      await t.waitFor('Make the production context "prod" the active one (every command then uses it)?');
      t.type(`${answer}${KEY.enter}`);
      expect(await t.exit(), t.screen()).toBe(0);
      expect(t.screen()).toContain(said);
    } finally {
      t.proc.kill();
    }
    expect((await profiles(env)).active).toBe(active);
  });

  it('a sandbox or production address given at login must be https or wss: refused before anything is sent', async () => {
    const env = freshEnv();
    await sb.sent();
    const r = await runCoinop(
      ['login', '--env', 'production', '--client-id', 'x', '--auth-url', sb.svc.baseUrl, '--name', 'prod'],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --auth-url: a production context's addresses must start with https:\/\//);
    expect(await sb.sent()).toEqual([]);
    expect((await profiles(env)).prod).toBeUndefined();
  });
});
