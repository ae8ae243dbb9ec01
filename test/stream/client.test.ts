import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../src/local/service.js';
import { DEMO } from '../../src/embedded/demo.js';
import { StreamClient, StreamAuthError, StreamNetworkError, backoffDelay } from '../../src/client/stream.js';
import { startService, token } from './helpers.js';
import { until } from '../support/wait.js';

let svc: LocalService;
beforeAll(async () => {
  svc = await startService({ messagesPerSecond: 1500, heartbeatIntervalMs: 200 });
});
afterAll(async () => {
  await svc?.close();
});

describe('stream client', () => {
  it('keeps books equal to the service through dropped connections and UPDATEs before SNAPSHOTs', async () => {
    const markets = ['BTCUSD', 'ETHGBP'];
    let tokens = 0;
    const states: string[] = [];
    const client = new StreamClient({
      url: svc.wsUrl,
      token: async () => {
        tokens++;
        return token(svc);
      },
      channels: markets.map((market) => ({ type: 'market_data', params: { market } })),
      books: true,
      backoffBaseMs: 20,
      backoffMaxMs: 200,
      onState: (s) => states.push(s),
    });
    const running = client.run();
    svc.config.stream.faults.dropConnectionsEveryMs = 600;
    svc.config.stream.faults.updatesBeforeSnapshot = true;
    try {
      await until(
        'updates and reconnects',
        () => client.reconnects >= 3 && [...client.books.values()].every((b) => b.updatesApplied >= 2500),
        { timeoutMs: 30_000 },
      );
      const dropped = [...client.books.values()].reduce((n, b) => n + b.updatesDropped, 0);
      // UPDATEs older than their SNAPSHOT arrived and were dropped, the newer ones applied.
      expect(dropped).toBeGreaterThan(0);
      expect([...client.books.values()].every((b) => b.snapshots >= 3)).toBe(true);
    } finally {
      svc.config.stream.faults.dropConnectionsEveryMs = 0;
      svc.config.stream.faults.updatesBeforeSnapshot = false;
      svc.config.stream.paused = true;
    }
    try {
      for (const market of markets) {
        const server = await (await fetch(`${svc.baseUrl}/_local/books/${market}`)).json();
        const book = client.books.get(market)!;
        await until(`the ${market} book to catch up`, () => book.state === 'live' && book.time === server.time);
        expect(book.toSnapshot()).toEqual(server);
      }
    } finally {
      svc.config.stream.paused = false;
      client.stop();
      await running;
    }
    expect(states).toContain('reconnecting');
    expect(tokens).toBeGreaterThanOrEqual(3);
  });

  it('reconnects when neither heartbeat nor data arrives', async () => {
    const client = new StreamClient({
      url: svc.wsUrl,
      token: () => token(svc),
      channels: [{ type: 'heartbeat' }],
      staleAfterMs: 600,
      backoffBaseMs: 20,
    });
    const running = client.run();
    try {
      await until('a heartbeat', () => client.lastHeartbeatAt > 0);
      svc.config.stream.faults.stallHeartbeats = true;
      await until('a reconnect', () => client.reconnects >= 1);
      expect(client.lastError).toMatch(/nothing received/);
    } finally {
      svc.config.stream.faults.stallHeartbeats = false;
    }
    const before = client.lastHeartbeatAt;
    await until('heartbeats again', () => client.lastHeartbeatAt > before && client.state === 'live');
    client.stop();
    await running;
  });

  it('does not retry a refused handshake', async () => {
    let calls = 0;
    const readonly = new StreamClient({
      url: svc.wsUrl,
      token: async () => {
        calls++;
        return token(svc, DEMO.readonlyClientId);
      },
      channels: [{ type: 'heartbeat' }],
    });
    const err = await readonly.run().catch((e) => e);
    expect(err).toBeInstanceOf(StreamAuthError);
    expect(err.status).toBe(403);
    expect(calls).toBe(1);
    // A bad token gets one fresh token (a cached one may be stale), then gives up.
    calls = 0;
    const bad = new StreamClient({
      url: svc.wsUrl,
      token: async () => {
        calls++;
        return 'nonsense';
      },
      channels: [{ type: 'heartbeat' }],
    });
    const err2 = await bad.run().catch((e) => e);
    expect(err2).toBeInstanceOf(StreamAuthError);
    expect(err2.status).toBe(401);
    expect(calls).toBe(2);
  });

  it('reports channels the service refused, and keeps the rest', async () => {
    const refused: unknown[] = [];
    const got: string[] = [];
    const client = new StreamClient({
      url: svc.wsUrl,
      token: () => token(svc),
      channels: [{ type: 'market_data', params: { market: 'MOONUSD' } }, { type: 'heartbeat' }],
      onChannelError: (ack) => refused.push(ack),
      onMessage: (m) => got.push(m.channel),
    });
    const running = client.run();
    await until('the refusal and a heartbeat', () => got.includes('heartbeat') && refused.length > 0);
    expect(refused).toEqual([
      {
        type: 'market_data',
        params: { market: 'MOONUSD' },
        success: false,
        error: 'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
      },
    ]);
    client.stop();
    await running;
  });

  it('gives up when nothing ever answers', async () => {
    const c = new StreamClient({
      url: 'ws://127.0.0.1:1/ws',
      token: async () => 't',
      channels: [{ type: 'heartbeat' }],
      backoffBaseMs: 5,
      maxInitialAttempts: 3,
    });
    const err = await c.run().catch((e) => e);
    expect(err).toBeInstanceOf(StreamNetworkError);
    expect(err.message).toMatch(/after 3 attempts/);
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelay(0, 100, 1000, () => 0)).toBe(50);
    expect(backoffDelay(0, 100, 1000, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, 1000, () => 1)).toBe(800);
    expect(backoffDelay(20, 100, 1000, () => 0.5)).toBe(750);
  });
});
