// Test helpers for the stream: a real local service, tokens from its token endpoint, and a WebSocket that queues messages.
import WebSocket from 'ws';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import { DEMO } from '../../src/embedded/demo.js';
import type { DeepPartial, LocalConfig } from '../../src/local/config.js';
import { demoToken } from '../support/tokens.js';

export async function startService(stream: DeepPartial<LocalConfig['stream']> = {}): Promise<LocalService> {
  return startLocalService({
    memory: true,
    seed: 7,
    config: { rateLimits: { enabled: false }, stream: { subscriptionRequestsPerSecond: 0, ...stream } },
  });
}

export const token = (svc: LocalService, clientId: string = DEMO.adminClientId, scope?: string): Promise<string> =>
  demoToken(svc.authUrl, clientId, scope || undefined);

/** A connected socket whose messages are queued for next(). */
export class TestSocket {
  readonly messages: unknown[] = [];
  private waiters: Array<() => void> = [];
  closed = false;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()));
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('close', () => {
      this.closed = true;
      for (const w of this.waiters.splice(0)) w();
    });
  }
  static async open(url: string, tok: string): Promise<TestSocket> {
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${tok}` } });
    const s = new TestSocket(ws);
    await new Promise<void>((res, rej) => {
      ws.once('open', () => res());
      ws.once('error', rej);
    });
    return s;
  }
  send(obj: unknown): void {
    this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj));
  }
  /** The next message matching `pred` (earlier non-matching ones are discarded). */
  async next<T = Record<string, any>>(pred: (m: any) => boolean = () => true, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.messages.length) {
        const m = this.messages.shift();
        if (pred(m)) return m as T;
      }
      if (this.closed) throw new Error('socket closed');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a message');
      await new Promise<void>((res) => {
        const t = setTimeout(res, left);
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }
  close(): void {
    this.ws.terminate();
  }
}

/** Status and body of a refused handshake. */
export function handshake(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}
