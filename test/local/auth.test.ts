// Local service: the token endpoint and bearer tokens on endpoints (401, 403, expiry, shared across processes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, harness, withdrawal, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { tokenLifetimeSeconds: 120 } });
});
afterAll(() => h.close());

const tokenReq = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${h.svc.authUrl}/oauth2/token`, { method: 'POST', body: new URLSearchParams(form), headers });

describe('token endpoint', () => {
  it('issues a bearer token with every scope of the client when none is requested', async () => {
    const r = await tokenReq({
      grant_type: 'client_credentials',
      client_id: DEMO.readonlyClientId,
      client_secret: DEMO.clientSecret,
    });
    expect(r.status).toBe(200);
    const b = (await r.json()) as Record<string, unknown>;
    expect(b.token_type).toBe('bearer');
    expect(b.expires_in).toBe(120);
    expect(typeof b.access_token).toBe('string');
    expect(String(b.scope).split(' ').sort()).toEqual([
      'conversion:read_conversion_stablecoin',
      'events:read_event',
      'exchange:historical_prices',
      'funding:read_profile',
      'transfer:read_crypto_destination_address',
      'transfer:read_deposit_address',
      'transfer:read_fiat_account',
      'transfer:read_fiat_deposit_instructions',
      'transfer:read_transfer',
      'transfer:read_transfer_limit',
    ]);
  });

  it('issues only the requested scopes', async () => {
    const r = await tokenReq({
      grant_type: 'client_credentials',
      client_id: DEMO.adminClientId,
      client_secret: DEMO.clientSecret,
      scope: 'exchange:historical_prices',
    });
    expect(((await r.json()) as { scope: string }).scope).toBe('exchange:historical_prices');
  });

  it('accepts HTTP Basic client credentials', async () => {
    const basic = Buffer.from(`${DEMO.adminClientId}:${DEMO.clientSecret}`).toString('base64');
    const r = await tokenReq({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect(r.status).toBe(200);
  });

  it('answers OAuth errors for bad credentials, grant type and scope', async () => {
    let r = await tokenReq({ grant_type: 'client_credentials', client_id: DEMO.adminClientId, client_secret: 'wrong' });
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: string }).error).toBe('invalid_client');
    r = await tokenReq({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' });
    expect(r.status).toBe(401);
    r = await tokenReq({ grant_type: 'password', client_id: DEMO.adminClientId, client_secret: DEMO.clientSecret });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toBe('unsupported_grant_type');
    r = await tokenReq({ client_id: DEMO.adminClientId, client_secret: DEMO.clientSecret });
    expect(((await r.json()) as { error: string }).error).toBe('invalid_request');
    r = await tokenReq({
      grant_type: 'client_credentials',
      client_id: DEMO.readonlyClientId,
      client_secret: DEMO.clientSecret,
      scope: 'transfer:write_crypto_withdrawal',
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toBe('invalid_scope');
  });
});

describe('bearer tokens on endpoints', () => {
  it('401 without an authorization header', async () => {
    const r = await h.req('GET', '/v2/transfer/transfers', { token: null });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(r.body).toMatchObject({ status: 401, title: 'Unauthorized', detail: 'no authorization header set' });
  });

  it('401 with an unknown token', async () => {
    const r = await h.req('GET', '/v2/transfer/transfers', { token: 'not-a-token' });
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe('invalid token');
  });

  it('403 naming the scopes when the token lacks the scope', async () => {
    const ro = await h.token(DEMO.readonlyClientId);
    const r = await h.req('POST', '/v2/transfer/crypto-withdrawals', { token: ro, body: withdrawal() });
    expect(r.status).toBe(403);
    expect(r.body.detail).toMatch(
      /^insufficient scopes: found '.*transfer:read_transfer.*', required one of '\[transfer:write_crypto_withdrawal\]'$/,
    );
    const narrow = await h.token(DEMO.adminClientId, 'exchange:historical_prices');
    const r2 = await h.req('GET', '/v2/transfer/deposit-addresses', { token: narrow });
    expect(r2.status).toBe(403);
  });

  it('the read-only client reads what its scopes allow', async () => {
    const ro = await h.token(DEMO.readonlyClientId);
    expect((await h.req('GET', '/v2/transfer/transfers', { token: ro })).status).toBe(200);
    expect((await h.req('GET', '/v2/transfer/deposit-addresses', { token: ro })).status).toBe(200);
    expect((await h.req('GET', '/v2/markets/BTCUSD/historical-prices?increment=ONE_DAY', { token: ro })).status).toBe(
      200,
    );
  });

  it('a token expires with the clock', async () => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: DEMO.adminClientId,
      client_secret: DEMO.clientSecret,
    });
    const t = (
      (await (await fetch(`${h.svc.authUrl}/oauth2/token`, { method: 'POST', body: form })).json()) as {
        access_token: string;
      }
    ).access_token;
    expect((await h.req('GET', '/v2/transfer/transfers', { token: t })).status).toBe(200);
    await h.control('POST', '/_local/clock/advance', { seconds: 121 });
    const r = await h.req('GET', '/v2/transfer/transfers', { token: t });
    expect(r.status).toBe(401);
    expect(r.body.detail).toBe('token expired');
  });

  it('a token issued by one service is valid in another process sharing the database', async () => {
    const { tempDir, harness: mk } = await import('./helpers.js');
    const d = tempDir();
    const a = await mk({ dbFile: `${d.dir}/db.sqlite` });
    const b = await mk({ dbFile: `${d.dir}/db.sqlite` });
    try {
      const t = await a.token();
      expect((await b.req('GET', '/v2/transfer/transfers?limit=1', { token: t })).status).toBe(200);
    } finally {
      await a.close();
      await b.close();
      d.cleanup();
    }
  });
});
