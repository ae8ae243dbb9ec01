// Two gateway instances on one PostgreSQL store, an operator's batch begun through one: the instance is stopped while
// the batch is under way, and the batch resumes through the other. Both answer as the same service (the store's id),
// so the journal carries over; every row is sent once, the cap holds across both, and the chain stays whole. And the
// rolling cap under 50 parallel withdrawals from 5 operators, split across two live instances on one store (a
// sandbox and store of its own, so what the first case sent counts for nothing): exactly 10 are sent. Then a real
// `coinop gateway start` process on that store, SIGKILLed while an operator's batch goes through it (rows in flight
// to the upstream, unrecorded), the batch resumed (--resume) through a live instance: every row once at the upstream,
// the cap held, the chain whole.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLog } from '../../src/audit/verify.js';
import { BIN, baseEnv, runInProcess, sandbox, type Sandbox } from '../cli/helpers.js';
import { dec, fmt } from '../../src/contract/index.js';
import { ETH_ADDRESS } from '../support/addresses.js';
import { until } from '../support/wait.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { postgresStore, type TestStore } from './support.js';
import { clientToken } from '../support/tokens.js';
import { postWithdrawal } from '../support/requests.js';

let sb: Sandbox;
let t: TestStore;
let a: TestGateway;
let b: TestGateway;

beforeAll(async () => {
  sb = await sandbox();
  t = await postgresStore();
  a = await startTestGateway(sb, t.url);
  b = await startTestGateway(sb, t.url);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await t?.drop();
  await sb?.close();
});

/** The chain as an instance serves it, checked by the verifier of a machine's log (its problems: none when whole). */
async function chainProblems(box: Sandbox, at: TestGateway, creds: { client_id: string; client_secret: string }) {
  const token = await clientToken(at.url, { clientId: creds.client_id, secret: creds.client_secret });
  const chain = (await (
    await fetch(`${at.url}/_gateway/audit`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { lines: string[]; head: { seq: number; sha256: string } };
  const file = join(box.dir, `chain-${chain.head.seq}.jsonl`);
  writeFileSync(file, `${chain.lines.join('\n')}\n`);
  return verifyLog(file, chain.head).problems;
}

/** A CSV of `count` rows of 0.001 ETH to the tests' address, in the sandbox's folder. */
function ethRows(box: Sandbox, name: string, count: number): string {
  const csv = join(box.dir, name);
  writeFileSync(
    csv,
    `destination_address,asset,crypto_network,amount\n${Array.from({ length: count }, () => `${ETH_ADDRESS},ETH,ETHEREUM,0.001`).join('\n')}\n`,
  );
  return csv;
}

/** `coinop withdraw batch` as a process of its own, through the gateway at `url`: its exit and what it said. */
function batchProcess(csv: string, env: Record<string, string | undefined>, url: string) {
  const child = spawn(process.execPath, [BIN, 'withdraw', 'batch', csv, '--yes', '--concurrency', '2', '-o', 'json'], {
    env: { ...env, COINOP_CONTEXT: 'gw', COINOP_BASE_URL: url, COINOP_AUTH_URL: url } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const said = { err: '' };
  child.stderr.on('data', (d) => (said.err += d));
  child.stdout.resume();
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { child, said, exited };
}

const withdrawals = async () =>
  (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));

describe('two gateway instances on one store', () => {
  it('a batch begun through one, stopped mid-way, resumes through the other: each row sent once, the cap held', async () => {
    // 30 rows of 0.001 ETH against a cap of 0.025: 25 may go, 5 are refused, whichever instance admits them.
    const policy = join(sb.dir, 'policy.yaml');
    writeFileSync(policy, 'max_per_24h:\n  ETH: "0.025"\n');
    expect((await runInProcess(['gateway', 'policy', 'set', policy, '--store', t.url], sb.env)).code).toBe(0);
    const added = await runInProcess(
      ['gateway', 'operators', 'add', 'ivy', '--role', 'initiator', '--store', t.url, '-o', 'json'],
      sb.env,
    );
    const { client_id, client_secret } = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
    const env = baseEnv(join(sb.dir, 'ivy'));
    const login = await gatewayLogin(a, { client_id, client_secret }, env);
    expect(login.code, login.stderr).toBe(0);
    const csv = ethRows(sb, 'payouts.csv', 30);
    await withdrawals();
    // Each withdrawal takes a while upstream, so the batch is still sending when the first instance stops.
    await sb.control('PUT', '/_local/faults', {
      latencyMs: 150,
      pathPrefix: '/v2/transfer/crypto-withdrawals',
      method: 'POST',
    });
    // The first run is a process of its own: the operator stops it with Ctrl-C once its gateway is gone.
    const { child, said, exited } = batchProcess(csv, env, a.url);
    let sentBefore = 0;
    await until('a few rows sent through the first instance', async () => {
      sentBefore += (await withdrawals()).length;
      return sentBefore >= 4;
    });
    await a.close();
    child.kill('SIGINT');
    expect(await exited, said.err).not.toBe(0);
    await sb.control('PUT', '/_local/faults', {});
    const resumed = await runInProcess(
      ['withdraw', 'batch', csv, '--yes', '--concurrency', '2', '-o', 'json', '--resume', '--retry-failed'],
      { ...env, COINOP_CONTEXT: 'gw', COINOP_BASE_URL: b.url, COINOP_AUTH_URL: b.url },
    );
    // Exit 6: the rows the cap refused.
    expect(resumed.code, resumed.stderr).toBe(6);
    const rows = JSON.parse(resumed.stdout) as { ref_id: string; result: string }[];
    const sent = rows.filter((r) => r.result === 'created' || r.result === 'exists');
    expect(sent.length).toBe(25);
    expect(rows.filter((r) => r.result !== 'created' && r.result !== 'exists').length).toBe(5);
    // The upstream holds each sent row's ref_id once.
    const held = (await sb.control('GET', '/_local/journal?limit=100000')) as {
      items: { method: string; url: string; status: number }[];
    };
    const created = held.items.filter(
      (e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals') && e.status === 200,
    );
    expect(created.length).toBe(25);
    // The chain both instances wrote is one, whole.
    expect(await chainProblems(sb, b, { client_id, client_secret })).toEqual([]);
  });
});

describe('gateway instances on one store: two live under load, one a process killed mid-batch', () => {
  let box: Sandbox;
  let store: TestStore;
  let one: TestGateway;
  let two: TestGateway;
  beforeAll(async () => {
    box = await sandbox();
    store = await postgresStore();
    one = await startTestGateway(box, store.url);
    two = await startTestGateway(box, store.url);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await store?.drop();
    await box?.close();
  });

  it('a rolling cap holds under 50 parallel withdrawals from 5 operators split across both: exactly 10 are sent', async () => {
    const policy = join(box.dir, 'cap.yaml');
    writeFileSync(policy, 'max_per_24h:\n  ETH: "0.01"\n');
    expect((await runInProcess(['gateway', 'policy', 'set', policy, '--store', store.url], box.env)).code).toBe(0);
    const creds: { client_id: string; client_secret: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const added = await runInProcess(
        ['gateway', 'operators', 'add', `op-${i}`, '--role', 'initiator', '--store', store.url, '-o', 'json'],
        box.env,
      );
      expect(added.code, added.stderr).toBe(0);
      creds.push(JSON.parse(added.stdout) as { client_id: string; client_secret: string });
    }
    const instances = [one, two];
    // Each operator's token from each instance (either would do: the operators are the store's).
    const tokens = await Promise.all(
      instances.map((at) =>
        Promise.all(creds.map((c) => clientToken(at.url, { clientId: c.client_id, secret: c.client_secret }))),
      ),
    );
    await box.sent();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        postWithdrawal(instances[i % 2].url, tokens[i % 2][i % 5], 'ETH', '0.001', `gw-cap-two-${i}`).then((r) => ({
          instance: i % 2,
          status: r.status,
        })),
      ),
    );
    expect(answers.filter((x) => x.status === 200).length).toBe(10);
    expect(answers.filter((x) => x.status === 403).length).toBe(40);
    // Both instances admitted some (the cap is the store's, not either instance's).
    expect(new Set(answers.filter((x) => x.status === 200).map((x) => x.instance)).size).toBe(2);
    const sent = (await box.sent()).filter(
      (e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'),
    );
    expect(sent.map((e) => e.status)).toEqual(Array(10).fill(200));
    const reserved = await store.sql.query<{ ref_id: string }>('SELECT ref_id FROM gw_reservations');
    expect(reserved.length).toBe(10);
    expect(await chainProblems(box, one, creds[0])).toEqual([]);
  });

  it('a `coinop gateway start` process SIGKILLed mid-batch: resumed through a live instance, every row once, the cap held', async () => {
    // What went through this store so far (the case before), and 25 rows of 0.001 ETH more: 30 rows, 5 refused.
    const spent = (await store.sql.query<{ amount: string }>("SELECT amount FROM gw_reservations WHERE asset = 'ETH'"))
      .map((r) => dec(String(r.amount)))
      .reduce((sum, x) => sum.plus(x), dec(0));
    const policy = join(box.dir, 'cap-batch.yaml');
    writeFileSync(policy, `max_per_24h:\n  ETH: "${fmt(spent.plus(dec('0.025')))}"\n`);
    expect((await runInProcess(['gateway', 'policy', 'set', policy, '--store', store.url], box.env)).code).toBe(0);
    const added = await runInProcess(
      ['gateway', 'operators', 'add', 'kim', '--role', 'initiator', '--store', store.url, '-o', 'json'],
      box.env,
    );
    const creds = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
    // The gateway an operator starts: a process of its own, plain http, on the same store.
    let printed = '';
    const gateway: ChildProcess = spawn(
      process.execPath,
      [BIN, 'gateway', 'start', '--upstream', 'local', '--store', store.url, '--port', '0'],
      { env: box.env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const gone = new Promise<NodeJS.Signals | null>((resolve) =>
      gateway.on('exit', (_code, signal) => resolve(signal)),
    );
    gateway.stdout!.on('data', (d) => (printed += d));
    gateway.stderr!.on('data', (d) => (printed += d));
    try {
      const url = await until(
        () => `the gateway's address; printed: ${printed}`,
        () => {
          if (gateway.exitCode !== null) throw new Error(`gateway start exited ${gateway.exitCode}: ${printed}`);
          return /http:\/\/127\.0\.0\.1:[1-9]\d*/.exec(printed)?.[0];
        },
        { timeoutMs: 30_000 },
      );
      const env = baseEnv(join(box.dir, 'kim'));
      const login = await gatewayLogin({ url, wsUrl: `${url.replace('http://', 'ws://')}/ws` }, creds, env);
      expect(login.code, login.stderr).toBe(0);
      const csv = ethRows(box, 'killed.csv', 30);
      const upstream: { status: number }[] = [];
      const look = async () => {
        upstream.push(
          ...(await box.sent()).filter(
            (e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'),
          ),
        );
        return upstream.length;
      };
      await look();
      upstream.length = 0;
      // Slow at the upstream, so rows are in flight when the process is killed.
      await box.control('PUT', '/_local/faults', {
        latencyMs: 150,
        pathPrefix: '/v2/transfer/crypto-withdrawals',
        method: 'POST',
      });
      const first = batchProcess(csv, env, url);
      await until('4 rows at the upstream through the gateway process', async () => (await look()) >= 4);
      gateway.kill('SIGKILL');
      expect(await gone).toBe('SIGKILL');
      // Killed mid-batch: some rows went, not all (the rest are the resume's).
      expect(await look()).toBeLessThan(25);
      first.child.kill('SIGINT');
      expect(await first.exited, first.said.err).not.toBe(0);
      await box.control('PUT', '/_local/faults', {});
      const resumed = await runInProcess(
        ['withdraw', 'batch', csv, '--yes', '--concurrency', '2', '-o', 'json', '--resume', '--retry-failed'],
        { ...env, COINOP_CONTEXT: 'gw', COINOP_BASE_URL: two.url, COINOP_AUTH_URL: two.url },
      );
      // Exit 6: the rows the cap refused.
      expect(resumed.code, resumed.stderr).toBe(6);
      const rows = JSON.parse(resumed.stdout) as { ref_id: string; result: string }[];
      const sent = rows.filter((r) => r.result === 'created' || r.result === 'exists');
      expect([sent.length, rows.length]).toEqual([25, 30]);
      // Every sent row once at the upstream (its own list, by ref_id); the refused ones never.
      await look();
      expect(upstream.filter((e) => e.status === 200).length).toBe(25);
      const listed = await runInProcess(['transfers', 'list', '--type', 'CRYPTO_WITHDRAWAL', '--all', '-o', 'json'], {
        ...env,
        COINOP_CONTEXT: 'gw',
        COINOP_BASE_URL: two.url,
        COINOP_AUTH_URL: two.url,
      });
      expect(listed.code, listed.stderr).toBe(0);
      const refs = (JSON.parse(listed.stdout) as { ref_id?: string }[]).map((x) => x.ref_id);
      for (const r of rows)
        expect([r.ref_id, refs.filter((x) => x === r.ref_id).length]).toEqual([r.ref_id, sent.includes(r) ? 1 : 0]);
      // The cap held: each sent row reserved once, nothing over it.
      const reserved = await store.sql.query<{ ref_id: string }>('SELECT ref_id FROM gw_reservations');
      const mine = reserved.map((r) => String(r.ref_id)).filter((ref) => rows.some((r) => r.ref_id === ref));
      expect(mine.sort()).toEqual(sent.map((r) => r.ref_id).sort());
      expect(await chainProblems(box, two, creds)).toEqual([]);
    } finally {
      if (gateway.exitCode === null && gateway.signalCode === null) gateway.kill('SIGKILL');
    }
  });
});
