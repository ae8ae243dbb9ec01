// The HTTP stack is built in one place (the context's connectAs): login proves its credentials through it, so its
// token request carries coinop's versioned user agent and honours COINOP_TIMEOUT_MS like every other command.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './helpers.js';
import { closeServer, listenOnLoopback } from '../support/http-server.js';

const VERSION = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string })
  .version;

describe('login connects like every command', () => {
  let server: Server;
  let url: string;
  const seen: IncomingHttpHeaders[] = [];
  /** Token requests to answer not at all (the server holds them until it closes). */
  let silent = false;
  const dir = mkdtempSync(join(tmpdir(), 'coinop-connection-'));
  const env = (name: string) => ({
    HOME: join(dir, 'home'),
    COINOP_CONFIG_DIR: join(dir, name),
    COINOP_DATA_DIR: join(dir, 'data'),
    COINOP_CLIENT_SECRET: 'secret',
    COINOP_RETRY_BASE_MS: '1',
    NO_COLOR: '1',
  });
  const login = ['login', '--env', 'custom', '--client-id', 'cid', '--no-input', '--base-url'];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      if (silent) return;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'tok', expires_in: 3600, token_type: 'Bearer' }));
    });
    url = await listenOnLoopback(server);
  });
  afterAll(async () => {
    await closeServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends the token request with coinop's versioned user agent", async () => {
    const r = await runInProcess([...login, url], env('ua'));
    expect(r.code).toBe(0);
    // The token request, then the service's profiles listed with the token: each with the user agent.
    expect(seen.map((h) => h['user-agent'])).toEqual([`coinop/${VERSION}`, `coinop/${VERSION}`]);
  });

  it('gives up on a silent token endpoint after COINOP_TIMEOUT_MS', async () => {
    silent = true;
    const r = await runInProcess([...login, url], { ...env('timeout'), COINOP_TIMEOUT_MS: '200' });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/did not answer within .* \(4 attempts\)/);
  });
});
