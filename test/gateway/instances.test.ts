// Two gateway instances on one PostgreSQL store, an operator's batch begun through one: the instance is stopped while
// the batch is under way, and the batch resumes through the other. Both answer as the same service (the store's id),
// so the journal carries over; every row is sent once, the cap holds across both, and the chain stays whole.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLog } from '../../src/audit/verify.js';
import { BIN, baseEnv, runInProcess, sandbox, type Sandbox } from '../cli/helpers.js';
import { ETH_ADDRESS } from '../support/addresses.js';
import { until } from '../support/wait.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { postgresStore, type TestStore } from './support.js';
import { clientToken } from '../support/tokens.js';

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
    const csv = join(sb.dir, 'payouts.csv');
    writeFileSync(
      csv,
      `destination_address,asset,crypto_network,amount\n${Array.from({ length: 30 }, () => `${ETH_ADDRESS},ETH,ETHEREUM,0.001`).join('\n')}\n`,
    );
    await withdrawals();
    // Each withdrawal takes a while upstream, so the batch is still sending when the first instance stops.
    await sb.control('PUT', '/_local/faults', {
      latencyMs: 150,
      pathPrefix: '/v2/transfer/crypto-withdrawals',
      method: 'POST',
    });
    // The first run is a process of its own: the operator stops it with Ctrl-C once its gateway is gone.
    const child = spawn(
      process.execPath,
      [BIN, 'withdraw', 'batch', csv, '--yes', '--concurrency', '2', '-o', 'json'],
      {
        env: { ...env, COINOP_CONTEXT: 'gw', COINOP_BASE_URL: a.url, COINOP_AUTH_URL: a.url } as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let firstErr = '';
    child.stderr.on('data', (d) => (firstErr += d));
    child.stdout.resume();
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    let sentBefore = 0;
    await until('a few rows sent through the first instance', async () => {
      sentBefore += (await withdrawals()).length;
      return sentBefore >= 4;
    });
    await a.close();
    child.kill('SIGINT');
    expect(await exited, firstErr).not.toBe(0);
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
    const token = await clientToken(b.url, { clientId: client_id, secret: client_secret });
    const chain = (await (
      await fetch(`${b.url}/_gateway/audit`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { lines: string[]; head: { seq: number; sha256: string } };
    const file = join(sb.dir, 'chain.jsonl');
    writeFileSync(file, `${chain.lines.join('\n')}\n`);
    expect(verifyLog(file, chain.head).problems).toEqual([]);
  });
});
