// The addresses of a service, written either way: an API address with or without /v2 (the docs' table writes the
// hosted one with it), a token address as its server or as the full endpoint, and login --env custom taking them from
// COINOP_*_URL. A wrong address is an error that names the address, never the credentials.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoot, authRoot, ENDPOINTS, tokenEndpoint } from '../../src/config/environments.js';
import { ROOT, runInProcess } from './helpers.js';
import { closeServer, listenOnLoopback } from '../support/http-server.js';
import { saveContext } from '../support/contexts.js';

let server: Server;
let url: string;
const paths: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'coinop-urls-'));

beforeAll(async () => {
  // A hosted-like service: the token endpoint and one list; anything else is a web server's 404 page.
  server = createServer((req, res) => {
    req.resume();
    const path = (req.url ?? '/').split('?')[0];
    paths.push(`${req.method} ${path}`);
    if (path === '/_local/health') {
      // The local context sends its secret only to a server that answers as a coinop local service.
      res.setHeader('content-type', 'application/json');
      res.setHeader('coinop-instance', 'urls-1');
      res.end(JSON.stringify({ status: 'ok', instance_id: 'urls-1' }));
    } else if (req.method === 'POST' && path === '/oauth2/token') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'tok', expires_in: 3600, token_type: 'bearer' }));
    } else if (req.method === 'GET' && path === '/v2/transfer/transfers') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ items: [] }));
    } else {
      res.statusCode = 404;
      res.setHeader('content-type', 'text/html');
      res.end('<html><body><h1>404 Not Found</h1></body></html>');
    }
  });
  url = await listenOnLoopback(server);
});
afterAll(async () => {
  await closeServer(server);
  rmSync(dir, { recursive: true, force: true });
});

const env = (name: string, more: Record<string, string> = {}) => ({
  HOME: join(dir, 'home'),
  COINOP_CONFIG_DIR: join(dir, name),
  COINOP_DATA_DIR: join(dir, `${name}-data`),
  COINOP_RETRY_BASE_MS: '1',
  NO_COLOR: '1',
  ...more,
});
/** The requests since the last call, the local profile's probe of /_local/health left out. */
const taken = () => paths.splice(0).filter((p) => !p.includes('/_local/'));

describe('addresses written either way', () => {
  it('each address in one spelling: /v2 and /oauth2/token are taken off, once', () => {
    expect(apiRoot('https://api.sandbox.paxos.com/v2')).toBe('https://api.sandbox.paxos.com');
    expect(apiRoot('https://api.sandbox.paxos.com/v2/')).toBe('https://api.sandbox.paxos.com');
    expect(apiRoot('https://api.sandbox.paxos.com')).toBe('https://api.sandbox.paxos.com');
    expect(apiRoot('https://proxy.example/paxos/v2')).toBe('https://proxy.example/paxos');
    expect(authRoot('https://oauth.paxos.com/oauth2/token')).toBe('https://oauth.paxos.com');
    expect(authRoot('https://oauth.paxos.com/')).toBe('https://oauth.paxos.com');
    expect(tokenEndpoint('https://oauth.paxos.com/oauth2/token')).toBe('https://oauth.paxos.com/oauth2/token');
  });

  it("the docs' table of the environments is what coinop uses", () => {
    const readme = readFileSync(join(ROOT, 'docs/contexts-and-configuration.md'), 'utf8');
    for (const env of ['sandbox', 'production', 'local'] as const) {
      const row = new RegExp(`^\\| \`${env}\` +\\| \`([^\`]+)\` +\\| \`([^\`]+)\` +\\| \`([^\`]+)\``, 'm').exec(readme);
      expect(row, env).not.toBeNull();
      const [, api, token, ws] = row!;
      expect(apiRoot(api), env).toBe(ENDPOINTS[env].baseUrl);
      expect(tokenEndpoint(ENDPOINTS[env].authUrl), env).toBe(token);
      expect(ws, env).toBe(ENDPOINTS[env].wsUrl);
    }
  });

  it('login --env custom takes COINOP_BASE_URL and COINOP_AUTH_URL written as the docs write them', async () => {
    const e = env('custom', {
      COINOP_BASE_URL: `${url}/v2/`,
      COINOP_AUTH_URL: `${url}/oauth2/token`,
      COINOP_CLIENT_SECRET: 'secret',
    });
    const login = await runInProcess(['login', '--env', 'custom', '--client-id', 'cid', '--name', 'mine'], e);
    expect(login.code, login.stderr).toBe(0);
    // The token, then the service profiles (login takes the only one as the context's).
    expect(taken()).toEqual(['POST /oauth2/token', 'GET /v2/profiles']);
    const saved = JSON.parse(readFileSync(join(dir, 'custom', 'config.json'), 'utf8')).profiles.mine;
    expect(saved).toMatchObject({ baseUrl: url, authUrl: url, environment: 'custom' });
    // The profile alone, and the profile with the variables still set: the same requests, never /v2/v2.
    for (const more of [{}, { COINOP_BASE_URL: `${url}/v2`, COINOP_AUTH_URL: `${url}/oauth2/token` }]) {
      const r = await runInProcess(['transfers', 'list', '--context', 'mine'], { ...env('custom'), ...more });
      expect(r.code, r.stderr).toBe(0);
      expect(taken().filter((p) => !p.startsWith('POST /oauth2'))).toEqual(['GET /v2/transfer/transfers']);
    }
  });

  it('the local profile with both spellings overridden', async () => {
    const r = await runInProcess(
      ['transfers', 'list'],
      env('local', { COINOP_BASE_URL: `${url}/v2`, COINOP_AUTH_URL: `${url}/oauth2/token` }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(taken()).toEqual(['POST /oauth2/token', 'GET /v2/transfer/transfers']);
  });
});

describe('a wrong address is named, not the credentials', () => {
  const notCredentials = (stderr: string) =>
    expect(stderr).not.toMatch(/client id|secret|cannot authenticate|coinop login/);

  // A custom context's: a local context's secret never goes to a token address that is not a coinop local service
  // (test/cli/foreign-local.test.ts).
  it('a token address answering a 404 page', async () => {
    const e = env('wrong-auth');
    await saveContext(e, 'wrong', { environment: 'custom', baseUrl: url, authUrl: `${url}/auth` });
    const r = await runInProcess(['transfers', 'list', '--context', 'wrong'], e);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `error: ${url}/auth/oauth2/token is not a token endpoint: it answered 404 Not Found with an HTML page`,
    );
    expect(r.stderr).toContain('COINOP_AUTH_URL');
    notCredentials(r.stderr);
    expect(taken()).toEqual(['POST /auth/oauth2/token']);
  });

  it('an API address answering a 404 page', async () => {
    const e = env('wrong-api');
    await saveContext(e, 'wrong', { environment: 'custom', baseUrl: `${url}/api`, authUrl: url });
    const r = await runInProcess(['transfers', 'list', '--context', 'wrong'], e);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `error: GET ${url}/api/v2/transfer/transfers answered 404 Not Found with an HTML page: no /v2/transfer/transfers endpoint at this API address`,
    );
    expect(r.stderr).toContain('COINOP_BASE_URL');
    notCredentials(r.stderr);
    taken();
  });

  it('a refused connection names the URL', async () => {
    const r = await runInProcess(
      ['transfers', 'list'],
      env('refused', { COINOP_BASE_URL: 'http://127.0.0.1:9/v2', COINOP_TOKEN: 't' }),
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:9\/v2\/transfer\/transfers: ECONNREFUSED/);
    notCredentials(r.stderr);
  });
});
