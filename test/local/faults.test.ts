// Local service: injected faults (status answers, latency, connection resets, seeds, budgets) and rate limits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../../src/local/config.js';
import { startLocalService } from '../../src/local/service.js';
import { DEMO, balanceOf, harness, withdrawal, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(async () => {
  await h.control('PUT', '/_local/faults', {});
  await h.control('POST', '/_local/reset');
});
afterAll(() => h.close());

const T = '/v2/transfer/transfers';

async function statuses(count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await h.admin('GET', `${T}?limit=1`)).status);
  return out;
}

describe('faults', () => {
  it('GET shows the settings; PUT replaces them over the defaults and rejects unknown or bad settings', async () => {
    let r = await h.control('PUT', '/_local/faults', { rate500: 0.25, pathPrefix: '/v2/transfer' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      rate500: 0.25,
      pathPrefix: '/v2/transfer',
      rate429: 0,
      // The rate limits are as the service started: on, as the hosted service's.
      rateLimits: { enabled: true },
      stream: { stallHeartbeats: false },
    });
    r = await h.control('GET', '/_local/faults');
    expect(r.body.rate500).toBe(0.25);
    r = await h.control('PUT', '/_local/faults', {});
    expect(r.body.rate500).toBe(0);
    r = await h.control('PUT', '/_local/faults', { rate500: 2 });
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0]).toEqual({ field: 'rate500', rule: 'must be a probability between 0 and 1' });
    r = await h.control('PUT', '/_local/faults', { explode: true });
    expect(r.body.meta.issues[0]).toEqual({ field: 'explode', rule: 'is not a known setting' });
    r = await h.control('PUT', '/_local/faults', { stream: { stallHeartbeats: 'yes' } });
    expect(r.body.meta.issues[0].field).toBe('stream.stallHeartbeats');
  });

  it('PUT changes the live config in place, so the stream sees stream faults at once', async () => {
    const streamFaults = h.svc.config.stream.faults;
    const faults = h.svc.config.faults;
    await h.control('PUT', '/_local/faults', {
      rate503: 0.5,
      stream: { stallHeartbeats: true, dropConnectionsEveryMs: 250 },
    });
    expect(h.svc.config.stream.faults).toBe(streamFaults);
    expect(streamFaults).toEqual({
      stallHeartbeats: true,
      dropConnectionsEveryMs: 250,
      updatesBeforeSnapshot: false,
      executionsOutOfOrder: false,
    });
    expect(h.svc.config.faults).toBe(faults);
    expect(faults.rate503).toBe(0.5);
  });

  it('injects 500, 503 (with Retry-After) and 429 as problems, only on matching paths', async () => {
    await h.control('PUT', '/_local/faults', { rate500: 1, pathPrefix: T });
    const r = await h.admin('GET', T);
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ status: 500, title: 'Internal Server Error' });
    expect((await h.admin('GET', '/v2/transfer/deposit-addresses')).status).toBe(200);
    await h.control('PUT', '/_local/faults', { rate503: 1 });
    const u = await h.admin('GET', T);
    expect(u.status).toBe(503);
    expect(u.headers.get('retry-after')).toBe('1');
    await h.control('PUT', '/_local/faults', { rate429: 1, method: 'POST' });
    expect((await h.admin('GET', T)).status).toBe(200);
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal())).status).toBe(429);
    // The control API is never faulted.
    expect((await h.control('GET', '/_local/health')).status).toBe(200);
  });

  it('is repeatable: the same seed gives the same faults', async () => {
    await h.control('PUT', '/_local/faults', { rate500: 0.5, seed: 7 });
    const a = await statuses(24);
    await h.control('PUT', '/_local/faults', { rate500: 0.5, seed: 7 });
    const b = await statuses(24);
    expect(b).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(200);
  });

  it('a budget limits how many faults are injected', async () => {
    await h.control('PUT', '/_local/faults', { rate503: 1, budget: 2 });
    expect(await statuses(4)).toEqual([503, 503, 200, 200]);
    expect((await h.control('GET', '/_local/faults')).body.budget).toBe(0);
  });

  it('adds latency', async () => {
    await h.control('PUT', '/_local/faults', { latencyMs: 60 });
    await h.admin('GET', `${T}?limit=1`);
    const j = (await h.control('GET', '/_local/journal?limit=1')).body.items[0];
    expect(j.url).toBe(`${T}?limit=1`);
    expect(j.duration_ms).toBeGreaterThanOrEqual(59);
  });

  it('a reset before handling: the connection drops and nothing happens', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    await h.control('PUT', '/_local/faults', { resetBeforeRate: 1, pathPrefix: '/v2/transfer/crypto-withdrawals' });
    await expect(h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'rb' }))).rejects.toThrow();
    await h.control('PUT', '/_local/faults', {});
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'rb' }))).status).toBe(200);
  });

  it('a reset after the handler committed: the withdrawal exists, and a retry with its ref_id is not doubled', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    await h.control('PUT', '/_local/faults', {
      resetAfterRate: 1,
      budget: 1,
      pathPrefix: '/v2/transfer/crypto-withdrawals',
    });
    await expect(
      h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'ra', amount: '1' })),
    ).rejects.toThrow();
    const retry = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'ra', amount: '1' }));
    expect(retry.status).toBe(409);
    expect(retry.body.meta.existing).toMatchObject({ ref_id: 'ra', amount: '1', status: 'PENDING' });
    const { dec } = await import('../../src/contract/money.js');
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(dec(before).minus('1.00002').toFixed());
    const j = (await h.control('GET', '/_local/journal')).body.items.find((e: any) => e.fault === 'reset-after');
    expect(j).toMatchObject({ method: 'POST', status: 200 });
  });
});

describe('rate limits', () => {
  it("are on by default with the hosted service's numbers: the 301st token in 5 minutes is a 429", async () => {
    const svc = await startLocalService({ memory: true });
    try {
      const faults = await (await fetch(`${svc.baseUrl}/_local/faults`)).json();
      expect(faults.rateLimits).toEqual(defaultRateLimits());
      const tokenStatus = async () =>
        (
          await fetch(`${svc.authUrl}/oauth2/token`, {
            method: 'POST',
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              client_id: DEMO.adminClientId,
              client_secret: DEMO.clientSecret,
            }),
          })
        ).status;
      for (let i = 0; i < 300; i++) expect(await tokenStatus()).toBe(200);
      const r = await fetch(`${svc.authUrl}/oauth2/token`, { method: 'POST', body: 'grant_type=client_credentials' });
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('300');
      expect(await r.json()).toMatchObject({ status: 429, title: 'Too Many Requests', detail: 'Too many requests' });
    } finally {
      await svc.close();
    }
  });

  it('the control API switches them off; PUT puts them back as the service started', async () => {
    const svc = await startLocalService({ memory: true, config: { rateLimits: { tokenPerSecond: 0.01 } } });
    const put = (body: unknown) =>
      fetch(`${svc.baseUrl}/_local/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const token = () =>
      fetch(`${svc.authUrl}/oauth2/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'x' }) }).then(
        (r) => r.status,
      );
    try {
      // 0.01/s over 300 s: 3 tokens, then 429.
      expect([await token(), await token(), await token(), await token()]).toEqual([400, 400, 400, 429]);
      expect((await put({ rateLimits: { enabled: false } })).rateLimits.enabled).toBe(false);
      for (let i = 0; i < 10; i++) expect(await token()).toBe(400);
      expect((await put({})).rateLimits).toMatchObject({ enabled: true, tokenPerSecond: 0.01 });
    } finally {
      await svc.close();
    }
  });

  it('over the limit answers 429 with Retry-After and throttles the address', async () => {
    await h.control('PUT', '/_local/faults', {
      rateLimits: { enabled: true, windowSeconds: 1, throttleSeconds: 30, otherPerSecond: 3 },
    });
    expect(await statuses(3)).toEqual([200, 200, 200]);
    const r = await h.admin('GET', `${T}?limit=1`);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('30');
    expect(r.body).toMatchObject({ status: 429, detail: 'Too many requests' });
    // The whole address is throttled, not just that endpoint; the control API is not.
    expect((await h.admin('GET', '/v2/transfer/deposit-addresses')).status).toBe(429);
    expect((await h.control('GET', '/_local/health')).status).toBe(200);
    await h.control('PUT', '/_local/faults', {});
    expect((await h.admin('GET', T)).status).toBe(200);
  });

  it('withdrawals and the token endpoint have their own rates', async () => {
    await h.control('PUT', '/_local/faults', {
      rateLimits: { enabled: true, windowSeconds: 2, throttleSeconds: 5, withdrawalsPerSecond: 1, tokenPerSecond: 1 },
    });
    const w = [];
    for (let i = 0; i < 3; i++) w.push((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal())).status);
    expect(w).toEqual([200, 200, 429]);
    await h.control('PUT', '/_local/faults', { rateLimits: { enabled: true, windowSeconds: 2, tokenPerSecond: 1 } });
    const form = () =>
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: DEMO.adminClientId,
        client_secret: DEMO.clientSecret,
      });
    const t = [];
    for (let i = 0; i < 3; i++)
      t.push((await fetch(`${h.svc.authUrl}/oauth2/token`, { method: 'POST', body: form() })).status);
    expect(t).toEqual([200, 200, 429]);
  });
});
