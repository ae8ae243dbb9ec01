// coinop events listen --forward-to, end to end: the listener is a child process, the receiver a real HTTP server
// in this test that checks every signature the way README's snippet does (HMAC-SHA256 over "t.body", node:crypto,
// nothing of coinop's) and fails deliveries on purpose: 503s (some events three times in a row) and answers slower
// than the listener's timeout. The listener is killed with SIGKILL mid-way and started again, and the receiver is
// shut down for a while. In the end every event of the feed arrived at least once, none was skipped, and for each
// object no event was accepted before an earlier event of that object was.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BIN, BTC_ADDRESS, FAILING_ETH_ADDRESS, type Sandbox, sandbox } from './helpers.js';
import { until as poll } from '../support/wait.js';
import { demoToken } from '../support/tokens.js';

let sb: Sandbox;
let token: string;
beforeAll(async () => {
  sb = await sandbox({ withdrawalSettleSeconds: 1, cryptoDepositSettleSeconds: 1 });
  token = await demoToken(sb.svc.authUrl);
});
afterAll(() => sb.close());

const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(sb.svc.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(r.status, `${method} ${path}`).toBe(200);
  return r.json() as Promise<any>;
};

/** Each step of the feed may take minutes on a loaded machine. */
const until = (what: string, ok: () => boolean | Promise<boolean>) =>
  poll(what, ok, { timeoutMs: 180_000, everyMs: 100 });

/** The receiver's check, as README shows it: the HMAC of "t.body" under the secret, compared in constant time. */
function signatureOk(secret: string, header: string | undefined, body: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const want = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= 300;
  return (
    fresh && !!parts.v1 && parts.v1.length === want.length && timingSafeEqual(Buffer.from(parts.v1), Buffer.from(want))
  );
}

/** What the receiver does with an event's nth attempt: some fail three times, some once, some take too long. */
function plan(eventId: string, attempt: number): 'ok' | 'fail' | 'slow' {
  const h = createHash('sha256').update(eventId).digest()[0];
  if (h % 5 === 0 && attempt <= 3) return 'fail';
  if (h % 5 === 1 && attempt === 1) return 'fail';
  if (h % 5 === 2 && attempt === 1) return 'slow';
  return 'ok';
}

interface Receipt {
  id: string;
  object: string;
  attempt: number;
  outcome: 'ok' | 'fail' | 'slow';
  signed: boolean;
}

class Receiver {
  readonly receipts: Receipt[] = [];
  server?: Server;
  port = 0;
  constructor(private readonly secret: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const event = JSON.parse(body);
        const attempt = Number(req.headers['coinop-delivery-attempt']);
        const outcome = plan(event.id, attempt);
        this.receipts.push({
          id: event.id,
          object: `${event.object_type}:${event.object.id}`,
          attempt,
          outcome,
          signed: signatureOk(this.secret, req.headers['coinop-signature'] as string, body),
        });
        if (req.headers['coinop-event-id'] !== event.id) throw new Error('Coinop-Event-Id differs from the body');
        if (outcome === 'fail') res.writeHead(503).end('try later');
        else if (outcome === 'slow') setTimeout(() => res.writeHead(200).end(), 2500);
        else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => this.server!.listen({ host: '127.0.0.1', port: this.port }, () => r()));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const done = new Promise((r) => this.server!.close(r));
    this.server!.closeAllConnections();
    await done;
  }

  /** Ids of the events accepted (answered 2xx at once), each once. */
  accepted(): Set<string> {
    return new Set(this.receipts.filter((r) => r.outcome === 'ok').map((r) => r.id));
  }
}

function listener(url: string) {
  const proc: ChildProcess = spawn(
    process.execPath,
    [BIN, 'events', 'listen', '--forward-to', url, '--timeout', '800ms', '--concurrency', '4'],
    { env: { ...sb.env, COINOP_RETRY_BASE_MS: '300', COINOP_POLL_MS: '100' } },
  );
  const o = { proc, stdout: '', stderr: '', exit: new Promise<number | null>((r) => proc.once('close', (c) => r(c))) };
  proc.stdout!.on('data', (d) => (o.stdout += d));
  proc.stderr!.on('data', (d) => (o.stderr += d));
  const guard = setTimeout(() => proc.kill('SIGKILL'), 240_000);
  void o.exit.then(() => clearTimeout(guard));
  return o;
}

/** Money moving: withdrawals (one in four to an address that fails), deposit addresses and crypto deposits. */
async function traffic(tag: string, total: number): Promise<void> {
  for (let i = 0; i < total; i++) {
    const dead = i % 4 === 3;
    await api('POST', '/v2/transfer/crypto-withdrawals', {
      profile_id: DEMO.profileId,
      ...(dead
        ? { asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: FAILING_ETH_ADDRESS }
        : { asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS }),
      amount: '0.001',
      ref_id: `${tag}-${i}`,
    });
    if (i % 3 === 0)
      await api('POST', '/v2/transfer/deposit-addresses', {
        profile_id: DEMO.profileId,
        crypto_network: 'ETHEREUM',
        ref_id: `${tag}-addr-${i}`,
      });
  }
  await sb.control('POST', '/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.01', count: 3 });
}

/** Every event of the feed, oldest first. */
async function feed(): Promise<{ id: string; object: string; type: string }[]> {
  const out: { id: string; object: string; type: string }[] = [];
  let cursor = '';
  for (;;) {
    const page = await api('GET', `/v2/events?limit=100${cursor ? `&page_cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const e of page.events) out.push({ id: e.id, object: `${e.object_type}:${e.object.id}`, type: e.type });
    if (!page.next_page_cursor) return out;
    cursor = page.next_page_cursor;
  }
}

const settled = async () => (await api('GET', '/v2/transfer/transfers?statuses=PENDING&limit=1')).items.length === 0;

describe('events listen --forward-to', () => {
  it('delivers every event at least once, signed and in order per object, through failures, a kill -9 and a receiver that is down', async () => {
    const secret = (await sb.runIn(['events', 'listen', '--print-secret'])).stdout.trim();
    const receiver = new Receiver(secret);
    await receiver.start();
    const url = `http://127.0.0.1:${receiver.port}/webhooks`;
    const before = new Set((await feed()).map((e) => e.id));

    // 1. The listener starts after the events there were: it forwards new ones only.
    const first = listener(url);
    await until('the listener to start', () => first.stderr.includes('Forwarding events to'));
    expect(first.stderr).toContain(secret);
    expect(first.stderr).toMatch(/the receiver's shared secret/);
    await traffic('l1', 12);
    await until('some deliveries', () => receiver.accepted().size >= 15);

    // 2. Killed without warning; more happens while it is away; started again, it resumes from its checkpoint.
    first.proc.kill('SIGKILL');
    await first.exit;
    await traffic('l2', 8);
    const second = listener(url);
    await until('the restart', () => second.stderr.includes('Forwarding events to'));
    expect(second.stderr).toMatch(/from after the checkpoint/);

    // 3. The receiver goes away for a while: deliveries fail to connect and wait; it comes back on the same port.
    await until('the feed to be delivered', async () => {
      const all = (await feed()).filter((e) => !before.has(e.id));
      return (await settled()) && all.every((e) => receiver.accepted().has(e.id));
    });
    await receiver.stop();
    const refused = () => second.stdout.split('\n').filter((l) => /ECONNREFUSED/.test(l)).length;
    const refusedBefore = refused();
    await traffic('l3', 4);
    await until('deliveries to fail while the receiver is down', () => refused() > refusedBefore);
    await receiver.start();

    // Every event of the feed since the first start arrived, at least once.
    let all: { id: string; object: string; type: string }[] = [];
    await until('every event to arrive', async () => {
      all = (await feed()).filter((e) => !before.has(e.id));
      return (await settled()) && all.every((e) => receiver.accepted().has(e.id));
    });
    second.proc.kill('SIGINT');
    expect(await second.exit).toBe(3);
    expect(second.stderr).toMatch(
      /interrupted: forwarding stopped; \d+ events? forwarded in order\. Every event up to/,
    );

    // Nothing but the feed's events came, all signed right; the failures happened and were retried.
    const ids = new Set(all.map((e) => e.id));
    expect(receiver.receipts.filter((r) => !ids.has(r.id))).toEqual([]);
    expect(receiver.receipts.filter((r) => !r.signed)).toEqual([]);
    expect(receiver.receipts.some((r) => r.outcome === 'fail' && r.attempt === 3)).toBe(true);
    expect(receiver.receipts.some((r) => r.outcome === 'slow')).toBe(true);
    const types = new Set(all.map((e) => e.type));
    for (const t of [
      'transfer.crypto_withdrawal.pending',
      'transfer.crypto_withdrawal.completed',
      'transfer.crypto_withdrawal.failed',
      'transfer.crypto_deposit.completed',
      'deposit_address.created',
    ])
      expect(types).toContain(t);

    // Per object: the order in which its events were first accepted is the feed's order.
    const firstAccepted = new Map<string, number>();
    receiver.receipts.forEach((receipt, index) => {
      if (receipt.outcome === 'ok' && !firstAccepted.has(receipt.id)) firstAccepted.set(receipt.id, index);
    });
    const byObject = new Map<string, string[]>();
    for (const e of all) byObject.set(e.object, [...(byObject.get(e.object) ?? []), e.id]);
    const outOfOrder = [...byObject].filter(([, evs]) => {
      const at = evs.map((id) => firstAccepted.get(id)!);
      return at.some((v, i) => i > 0 && v < at[i - 1]);
    });
    expect(outOfOrder).toEqual([]);
    expect([...byObject.values()].some((evs) => evs.length > 1)).toBe(true);

    // Each attempt was shown, as NDJSON (piped): the failures with their next try, then the delivery.
    const shown = [...first.stdout.split('\n'), ...second.stdout.split('\n')].filter(Boolean).map((l) => JSON.parse(l));
    expect(shown.some((d) => d.status === 503 && d.delivered === false && d.retry_in_ms > 0)).toBe(true);
    expect(shown.some((d) => d.status === null && /did not answer/.test(d.error))).toBe(true);
    expect(shown.some((d) => d.delivered === true && d.attempt >= 2)).toBe(true);
    await receiver.stop();
  }, 600_000);
});
