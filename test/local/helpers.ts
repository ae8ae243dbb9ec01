// Test helpers for the local service: start one on an ephemeral port, get tokens, make requests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../src/local/service.js';
import { DEMO, DEMO_WIRE } from '../../src/embedded/demo.js';
import { beforeEach } from 'vitest';
import { BTC_ADDRESS } from '../support/addresses.js';
import { expectValidResponse } from '../support/openapi.js';
import { demoToken } from '../support/tokens.js';

export { DEMO, DEMO_WIRE };

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Harness {
  svc: LocalService;
  token(client?: string, scope?: string): Promise<string>;
  req<T = any>(
    method: string,
    path: string,
    opts?: { body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string },
  ): Promise<Reply<T>>;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>>;
  control<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>>;
  close(): Promise<void>;
}

export { BTC_ADDRESS, ETH_ADDRESS, FAILING_ETH_ADDRESS } from '../support/addresses.js';

export function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-local-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function harness(opts: LocalServiceOptions = {}): Promise<Harness> {
  const svc = await startLocalService({ memory: !opts.dbFile, ...opts });
  // One token request per client and scope, however many requests ask at once (200 concurrent withdrawals made 200
  // token requests when the token itself was kept: seconds of hashing secrets on a loaded machine).
  const tokens = new Map<string, Promise<string>>();
  const token = (client: string = DEMO.adminClientId, scope?: string): Promise<string> => {
    const key = `${client} ${scope ?? ''}`;
    let t = tokens.get(key);
    if (!t) {
      t = demoToken(svc.authUrl, client, scope);
      t.catch(() => tokens.delete(key));
      tokens.set(key, t);
    }
    return t;
  };
  const req = async (
    method: string,
    path: string,
    options: { body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string } = {},
  ) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const tok = options.token === undefined ? await token() : options.token;
    if (tok) headers.authorization = `Bearer ${tok}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const r = await fetch(svc.baseUrl + path, { method, headers, body });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* leave text */
    }
    // Every answer of the API is held to the hosted service's OpenAPI description, errors included.
    if (method !== 'HEAD') expectValidResponse(method, path, r.status, parsed, r.headers.get('content-type'));
    return { status: r.status, headers: r.headers, body: parsed as any };
  };
  return {
    svc,
    token,
    req,
    admin: (method, path, body) => req(method, path, { body }),
    // Control writes take JSON only, bodiless ones (POST /_local/reset) too.
    control: (method, path, body) =>
      req(method, path, { body, token: null, headers: method === 'GET' ? {} : { 'content-type': 'application/json' } }),
    close: () => svc.close(),
  };
}

export function withdrawal(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    profile_id: DEMO.profileId,
    asset: 'BTC',
    crypto_network: 'BITCOIN',
    destination_address: BTC_ADDRESS,
    amount: '0.01',
    ...extra,
  };
}

export async function balanceOf(harness: Harness, profileId: string, asset: string): Promise<string> {
  const r = await harness.control('GET', '/_local/profiles');
  const p = (r.body.items as { id: string; balances: Record<string, string> }[]).find((x) => x.id === profileId);
  return p?.balances[asset] ?? '0';
}

/** Resets the file's service before each of its tests: what the tests before did is gone. */
export function resetBeforeEach(harness: () => Harness): void {
  beforeEach(async () => {
    await harness().control('POST', '/_local/reset');
  });
}
