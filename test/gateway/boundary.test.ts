// What the gateway refuses as a server must (on SQLite; the store plays no part in these): bodies over its limit,
// money operations its gate cannot judge yet, paths the contract does not know, an operator over their rate limit
// (429 with Retry-After), and the upstream's own 429 passed back with its Retry-After. And the market-data stream
// through it: an operator's token opens it, frames come from the upstream; without one the handshake is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO } from '../../src/embedded/demo.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { openSql } from '../../src/gateway/sql.js';
import { sandbox, type Sandbox } from '../cli/helpers.js';
import { startTestGateway, type TestGateway } from './harness.js';
import { sqliteStore, type TestStore } from './support.js';
import { clientToken } from '../support/tokens.js';

let sb: Sandbox;
let t: TestStore;
let gw: TestGateway;
let token: string;

beforeAll(async () => {
  sb = await sandbox();
  t = await sqliteStore();
  gw = await startTestGateway(sb, t.url, { rate: 5 });
  const store = new GatewayStore(await openSql(t.url));
  await store.init();
  const creds = await store.addOperator('ivy', 'initiator');
  await store.sql.close();
  token = await clientToken(gw.url, creds);
});
afterAll(async () => {
  await gw?.close();
  await t?.drop();
  await sb?.close();
});

const auth = () => ({ authorization: `Bearer ${token}` });

/** Waits out the operator's rate limit (5 a second, a burst of 10) so each test starts with a full bucket. */
async function fullBucket(): Promise<void> {
  const { until } = await import('../support/wait.js');
  await until(
    'the rate limit to refill',
    async () => (await fetch(`${gw.url}/_gateway/whoami`, { headers: auth() })).status === 200,
  );
}

describe('the gateway as a boundary', () => {
  it('refuses a body over 1 MiB with 413, before anything is forwarded', async () => {
    await fullBucket();
    await sb.sent();
    const r = await fetch(`${gw.url}/v2/transfer/crypto-withdrawals`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat((1 << 20) + 10) }),
    });
    expect(r.status).toBe(413);
    expect(await sb.sent()).toEqual([]);
  });

  it('refuses money its gate cannot judge yet, and paths the contract does not know', async () => {
    await fullBucket();
    const settlement = await fetch(`${gw.url}/v2/settlement/transactions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10' }),
    });
    expect(settlement.status).toBe(403);
    expect(((await settlement.json()) as { detail: string }).detail).toMatch(/settlement transaction/);
    const unknown = await fetch(`${gw.url}/v2/nothing/here`, { headers: auth() });
    expect(unknown.status).toBe(404);
    const control = await fetch(`${gw.url}/_local/state`, { headers: auth() });
    expect(control.status).toBe(404);
  });

  it("answers an operator over their rate limit with 429 and Retry-After; the upstream's own 429 comes back as it was", async () => {
    await fullBucket();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 30; i++) {
      const r = await fetch(`${gw.url}/v2/profiles/${DEMO.profileId}`, { headers: auth() });
      statuses.push(r.status);
      if (r.status === 429) retryAfter ??= r.headers.get('retry-after');
    }
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    await fullBucket();
    await sb.control('PUT', '/_local/faults', { rate429: 1, pathPrefix: '/v2/profiles' });
    try {
      const r = await fetch(`${gw.url}/v2/profiles/${DEMO.profileId}`, { headers: auth() });
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).not.toBeNull();
    } finally {
      await sb.control('PUT', '/_local/faults', {});
    }
  });

  it('carries the market-data stream with an operator token, and refuses the handshake without one', async () => {
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(gw.wsUrl);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => {});
    });
    expect(refused).toBe(401);
    const first = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const ws = new WebSocket(gw.wsUrl, { headers: auth() });
      ws.on('open', () =>
        ws.send(
          JSON.stringify({ type: 'subscribe', channels: [{ type: 'market_data', params: { market: 'BTCUSD' } }] }),
        ),
      );
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as Record<string, unknown>;
        if (msg.type !== 'heartbeat' && msg.type !== 'subscribe') {
          ws.close();
          resolve(msg);
        }
      });
      ws.on('error', reject);
    });
    expect(JSON.stringify(first)).toContain('BTCUSD');
  });
});
