// The one gate for money (src/gate), tried the way the reviews tried to get around it: a raw `coinop api` request,
// caps counted over every service profile, withdrawals started at once, refusals by coinop's own checks, an audit
// trail that cannot be written. Each refusal exits with its code, sends nothing, and leaves one audit entry with the
// request's fields, the whole reason and the result `refused`. Commands run in this process (sb.runIn) except where
// the process boundary is the point.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { auditEntries, type Entry } from './support.js';
import { transferFlags, internalTransfer } from '../support/command-lines.js';
import { apiWithdrawal } from '../support/command-lines.js';

const BTC2 = 'bc1qaf3e3jk48cp6fzyyyssgxzshvqnsg8z356z7xm';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const auditPath = () => join(sb.env.COINOP_DATA_DIR, 'audit', 'audit.log');
const policyPath = () => join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml');

const entries = (): Entry[] => auditEntries(sb.env.COINOP_DATA_DIR);

/** The audit entries written by `fn`. */
async function written<T>(fn: () => Promise<T>): Promise<{ result: T; entries: Entry[] }> {
  const before = entries().length;
  const result = await fn();
  return { result, entries: entries().slice(before) };
}

function writePolicy(text: string): void {
  mkdirSync(join(sb.env.COINOP_CONFIG_DIR, 'policies'), { recursive: true });
  writeFileSync(policyPath(), text);
}

/** The money-moving requests the service was sent since the last look. */
async function moneySent(): Promise<string[]> {
  return (await sb.sent())
    .filter((e) => e.method !== 'GET' && !e.url.startsWith('/oauth2') && !e.url.includes('/fees/'))
    .map((e) => `${e.method} ${e.url.split('?')[0]} ${e.status}`);
}

const W = (amount: string, more: string[] = []) => ['withdraw', ...transferFlags('BTC', amount), '--yes', ...more];

const lastError = (r: Run) => JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;

beforeEach(async () => {
  rmSync(policyPath(), { force: true });
  await sb.sent();
});

describe('coinop api goes through the gate for money', () => {
  it('a withdrawal the policy does not allow: exit 8, nothing sent, one refused entry with the request', async () => {
    writePolicy('assets: [ETH]\n');
    const { result: r, entries: e } = await written(() =>
      sb.runIn([...apiWithdrawal('0.01', 'api-policy-1'), '-o', 'json']),
    );
    expect(r.code, r.stderr).toBe(8);
    expect(lastError(r).message).toContain('refused by policy: rule assets: BTC is not an asset the policy allows');
    expect(await moneySent()).toEqual([]);
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({
      kind: 'withdrawal',
      ref_id: 'api-policy-1',
      what: {
        command: 'api',
        asset: 'BTC',
        network: 'BITCOIN',
        amount: '0.01',
        destination: BTC_ADDRESS,
        profile_id: DEMO.profileId,
        rules: ['assets'],
        policy_file: policyPath(),
      },
      outcome: { result: 'refused', error: { category: 'policy' } },
    });
    expect(e[0].outcome.error?.message).toContain('BTC is not an asset the policy allows');
  });

  it('a body the contract refuses (no ref_id, a bad address): exit 2, nothing sent, a refused entry', async () => {
    const noRef = await written(() =>
      sb.runIn(apiWithdrawal('0.01').map((a, i) => (i === 2 ? 'transfer/crypto-withdrawals' : a))),
    );
    expect(noRef.result.code).toBe(2);
    expect(noRef.result.stderr).toContain('ref_id: a request that moves money carries a ref_id');
    const bad = await written(() => sb.runIn(apiWithdrawal('0.01', 'api-bad-address', `${BTC_ADDRESS.slice(0, -1)}3`)));
    expect(bad.result.code).toBe(2);
    expect(await moneySent()).toEqual([]);
    for (const { entries: e } of [noRef, bad]) {
      expect(e).toHaveLength(1);
      expect(e[0]).toMatchObject({ kind: 'withdrawal', outcome: { result: 'refused', error: { category: 'usage' } } });
    }
    expect(bad.entries[0].what.destination).toBe(`${BTC_ADDRESS.slice(0, -1)}3`);
  });

  it('a body that is not a JSON object (none, a list, not JSON): exit 2, nothing sent, a refused entry', async () => {
    const list = join(sb.env.COINOP_CONFIG_DIR, 'api-body-list.json');
    writeFileSync(list, '[{"asset":"BTC"}]');
    const broken = join(sb.env.COINOP_CONFIG_DIR, 'api-body-broken.json');
    writeFileSync(broken, '{"asset":');
    for (const more of [[], ['--input', list], ['--input', broken], ['--input', list, '-f', 'asset=BTC']]) {
      const { result: r, entries: e } = await written(() =>
        sb.runIn(['api', 'POST', '/v2/transfer/crypto-withdrawals', ...more]),
      );
      expect(r.code, r.stderr).toBe(2);
      expect(e, more.join(' ')).toHaveLength(1);
      expect(e[0]).toMatchObject({
        kind: 'withdrawal',
        what: { command: 'api' },
        outcome: { result: 'refused', error: { category: 'usage' } },
      });
    }
    expect(await moneySent()).toEqual([]);
  });

  it('money the gate cannot judge (a settlement, a transfer to another customer, a trade): exit 8, nothing sent, recorded', async () => {
    for (const [method, path] of [
      ['POST', '/v2/settlement/transactions'],
      ['POST', 'transfer/paxos/'],
      ['post', `/v2/profiles/${DEMO.profileId}/orders`],
      ['POST', '/v2/transfer\\paxos'],
    ]) {
      const { result: r, entries: e } = await written(() =>
        sb.runIn(['api', method, path, '-f', 'asset=USD', '-f', 'amount=1000', '-f', `ref_id=unjudged-${path.length}`]),
      );
      expect(r.code, `${path}: ${r.stderr}`).toBe(8);
      expect(r.stderr).toContain('nothing was sent');
      expect(e).toHaveLength(1);
      expect(e[0]).toMatchObject({
        kind: 'policy_refusal',
        ref_id: `unjudged-${path.length}`,
        what: { command: 'api', asset: 'USD', amount: '1000' },
        outcome: { result: 'refused', error: { category: 'policy' } },
      });
    }
    expect(await moneySent()).toEqual([]);
  });

  it('a path whose .. segments climb above the root is refused before anything is sent', async () => {
    // Under an API address with a path of its own (https://proxy/paxos), /v2/../../paxos/v2/transfer/crypto-withdrawals
    // reaches the withdrawals endpoint while the path alone names none.
    for (const path of [
      '/v2/../../paxos/v2/transfer/crypto-withdrawals',
      '/v2/%2e%2e/%2E%2E/transfer/crypto-withdrawals',
    ]) {
      const r = await sb.runIn(
        [...apiWithdrawal('0.01', 'api-climb'), '-o', 'json'].map((a, i) => (i === 2 ? path : a)),
      );
      expect(r.code, r.stderr).toBe(2);
      expect(lastError(r).message).toContain('climbs above the API');
    }
    expect(await moneySent()).toEqual([]);
  });

  it('spelled another way (percent-encoded, doubled slashes, dot segments) the path is still a withdrawal', async () => {
    writePolicy('assets: [ETH]\n');
    for (const path of [
      '/v2/transfer//crypto-withdrawals',
      '/v2/transfer/./crypto%2Dwithdrawals/',
      '/v2/x/../transfer/crypto-withdrawals',
      // The URL parser sends these as /v2/transfer/crypto-withdrawals: a backslash is a slash, a fragment is dropped.
      '/v2/transfer\\crypto-withdrawals',
      '/v2/transfer/crypto-withdrawals#x',
      // A control character at the end of the address is trimmed by the URL parser.
      '/v2/transfer/crypto-withdrawals\u0001',
      '/v2/transfer/%2E%2e/transfer/crypto-withdrawals',
    ]) {
      const args = apiWithdrawal('0.01', `api-spelled-${path.length}-${path.charCodeAt(15)}`);
      args[2] = path;
      const r = await sb.runIn(args);
      expect(r.code, `${path}: ${r.stderr}`).toBe(8);
    }
    expect(await moneySent()).toEqual([]);
  });

  it('allowed, it is sent once: the attempt and the outcome in the trail, a repeat answers already submitted', async () => {
    const first = await written(() => sb.runIn(apiWithdrawal('0.001', 'api-once-1')));
    expect(first.result.code, first.result.stderr).toBe(0);
    expect(JSON.parse(first.result.stdout)).toMatchObject({ ref_id: 'api-once-1', status: 'PENDING' });
    expect(first.entries.map((x) => [x.kind, x.outcome.result])).toEqual([
      ['withdrawal', 'attempt'],
      ['withdrawal', 'sent'],
    ]);
    const again = await sb.runIn(apiWithdrawal('0.001', 'api-once-1'));
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already submitted: ref_id api-once-1 was sent before');
    expect((await moneySent()).filter((l) => l.includes('crypto-withdrawals'))).toHaveLength(2);
    const transfers = await sb.runIn(['transfers', 'list', '--ref-id', 'api-once-1', '-o', 'json']);
    expect(JSON.parse(transfers.stdout)).toHaveLength(1);
  });

  it('read-only requests are unchanged: no gate, no audit entry', async () => {
    writePolicy('assets: [ETH]\n');
    const { result: r, entries: e } = await written(() => sb.runIn(['api', 'GET', '/v2/profiles']));
    expect(r.code, r.stderr).toBe(0);
    expect(e).toEqual([]);
  });
});

describe('rolling caps', () => {
  it('count every service profile the context reaches: money moved to another profile and withdrawn there counts', async () => {
    // A day on: the withdrawals of the tests before are out of the window.
    await sb.control('POST', '/_local/clock/advance', { seconds: 2 * 86_400 });
    writePolicy('max_per_24h:\n  BTC: 0.05\n');
    const own = await sb.runIn(W('0.02'));
    expect(own.code, own.stderr).toBe(0);
    const move = await sb.runIn(internalTransfer('BTC', '0.1', '--yes'));
    expect(move.code, move.stderr).toBe(0);
    const other = await sb.runIn([...W('0.02'), '--profile-id', DEMO.emptyProfileId]);
    expect(other.code, other.stderr).toBe(0);
    await sb.sent();
    // 0.04 sent across two profiles: a third 0.02 from either would make 0.06.
    const third = await sb.runIn([...W('0.02'), '--profile-id', DEMO.emptyProfileId, '-o', 'json']);
    expect(third.code).toBe(8);
    expect(lastError(third).message).toContain('max_per_24h');
    expect(await moneySent()).toEqual([]);
  });

  it("a batch's rows left to send count for a withdrawal started beside it", async () => {
    await sb.control('POST', '/_local/clock/advance', { seconds: 2 * 86_400 });
    writePolicy('max_per_24h:\n  BTC: 0.05\n');
    const file = join(sb.dir, 'reserved.csv');
    writeFileSync(
      file,
      `destination_address,asset,crypto_network,amount,meta.invoice\n${[1, 2, 3, 4].map((i) => `${BTC_ADDRESS},BTC,BITCOIN,0.01,inv-${i}`).join('\n')}\n`,
    );
    // Each of the batch's withdrawals takes the service 1.5 s: while the batch runs, the service shows few of them.
    await sb.control('PUT', '/_local/faults', {
      latencyMs: 1500,
      pathPrefix: '/v2/transfer/crypto-withdrawals',
      method: 'POST',
      rateLimits: { enabled: false },
    });
    const reservations = () =>
      readdirSync(join(sb.env.COINOP_DATA_DIR, 'gate'))
        .filter((f) => f.endsWith('.json'))
        .flatMap((f) => JSON.parse(readFileSync(join(sb.env.COINOP_DATA_DIR, 'gate', f), 'utf8')).reservations);
    try {
      const batch = sb.runIn(['withdraw', 'batch', file, '--yes', '--concurrency', '1']);
      // Once the batch has reserved its rows (before its first row leaves)...
      await expect
        .poll(() => reservations().filter((r: { batch_id?: string }) => r.batch_id).length, { timeout: 30_000 })
        .toBe(4);
      // ...a withdrawal beside it counts them: 0.04 BTC of the batch + 0.02 would be 0.06, over 0.05, however many of
      // the batch's rows the service shows by now.
      const beside = await sb.runIn([...W('0.02'), '-o', 'json']);
      // The slow service has served its purpose (the row under way stays slow): the rest of the batch goes at speed.
      await sb.control('PUT', '/_local/faults', { rateLimits: { enabled: false } });
      expect(beside.code, beside.stderr).toBe(8);
      expect(lastError(beside).message).toContain('max_per_24h');
      expect((await batch).code).toBe(0);
    } finally {
      await sb.control('PUT', '/_local/faults', { rateLimits: { enabled: false } });
    }
    // The batch's rows now count on the service: 0.01 more fits (0.05), and its reservations are gone once seen.
    const fits = await sb.runIn(W('0.01'));
    expect(fits.code, fits.stderr).toBe(0);
    expect(reservations().filter((r: { batch_id?: string }) => r.batch_id)).toEqual([]);
  });

  it('20 withdrawals started at once against a cap that allows 2 send exactly 2', async () => {
    await sb.control('POST', '/_local/clock/advance', { seconds: 2 * 86_400 });
    writePolicy('max_per_24h:\n  ETH: 0.2\n');
    await sb.sent();
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sb.runIn(['withdraw', ...transferFlags('ETH', '0.1'), '--ref-id', `parallel-${i}`, '--yes']),
      ),
    );
    const codes = runs.map((r) => r.code).sort();
    expect(
      codes.filter((c) => c === 0),
      runs.map((r) => r.stderr).join('\n'),
    ).toHaveLength(2);
    expect(codes.filter((c) => c === 8)).toHaveLength(18);
    expect((await moneySent()).filter((l) => l.startsWith('POST /v2/transfer/crypto-withdrawals'))).toHaveLength(2);
  });
});

describe("refusals by coinop's own checks are in the trail", () => {
  it('insufficient funds: exit 2, nothing sent, a refused entry with the request', async () => {
    const { result: r, entries: e } = await written(() =>
      sb.runIn([...W('5000'), '--profile-id', DEMO.profileId, '--ref-id', 'too-much-1']),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/insufficient funds|over a transfer limit/);
    expect(await moneySent()).toEqual([]);
    expect(e.filter((x) => x.kind === 'withdrawal')).toEqual([
      expect.objectContaining({
        ref_id: 'too-much-1',
        what: expect.objectContaining({ asset: 'BTC', amount: '5000', destination: BTC_ADDRESS, command: 'withdraw' }),
        outcome: expect.objectContaining({ result: 'refused' }),
      }),
    ]);
  });

  it('a bad address: exit 2 before connecting, and a refused entry', async () => {
    const bad = `${BTC2.slice(0, -1)}q`;
    const { result: r, entries: e } = await written(() =>
      sb.runIn(['withdraw', ...transferFlags('BTC', '0.01', bad), '--yes']),
    );
    expect(r.code).toBe(2);
    expect(await moneySent()).toEqual([]);
    expect(e).toEqual([
      expect.objectContaining({
        kind: 'withdrawal',
        what: expect.objectContaining({ destination: bad }),
        outcome: expect.objectContaining({ result: 'refused', error: expect.objectContaining({ category: 'usage' }) }),
      }),
    ]);
  });

  it('a policy file that does not load: the refusal names what the flags asked for', async () => {
    writePolicy('assets: [BTC\n');
    const { result: r, entries: e } = await written(() => sb.runIn(W('0.001', ['--ref-id', 'broken-policy-1'])));
    expect(r.code).toBe(8);
    expect(await moneySent()).toEqual([]);
    expect(e).toEqual([
      expect.objectContaining({
        kind: 'policy_refusal',
        ref_id: 'broken-policy-1',
        what: expect.objectContaining({
          command: 'withdraw',
          asset: 'BTC',
          network: 'BITCOIN',
          amount: '0.001',
          destination: BTC_ADDRESS,
          policy_file: policyPath(),
        }),
        outcome: expect.objectContaining({ result: 'refused' }),
      }),
    ]);
  });

  it('an audit trail that cannot be written: nothing is sent', async () => {
    const log = auditPath();
    const kept = readFileSync(log);
    rmSync(log);
    mkdirSync(log);
    try {
      const r = await sb.runIn(W('0.001', ['--ref-id', 'no-audit-1']));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('cannot be written');
      expect(await moneySent()).toEqual([]);
    } finally {
      rmSync(log, { recursive: true });
      writeFileSync(log, kept, { mode: 0o600 });
    }
  });
});

describe('the MCP tools go through the same gate', () => {
  it('a withdrawal the policy refuses: a tool error, nothing sent, a refused withdrawal entry and a refused call', async () => {
    writePolicy('assets: [ETH]\n');
    const { inProcess, errorOf } = await import('../mcp/support.js');
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      const { result: r, entries: e } = await written(() =>
        s.call('withdraw', {
          asset: 'BTC',
          crypto_network: 'BITCOIN',
          destination_address: BTC_ADDRESS,
          amount: '0.01',
          ref_id: 'mcp-policy-1',
          confirm: true,
        }),
      );
      expect(errorOf(r)).toMatchObject({ category: 'policy' });
      expect(await moneySent()).toEqual([]);
      expect(e.map((x) => [x.kind, x.outcome.result])).toEqual([
        ['withdrawal', 'refused'],
        ['mcp_call', 'refused'],
      ]);
      expect(e[0]).toMatchObject({
        ref_id: 'mcp-policy-1',
        who: { agent: 'vitest-agent 1.2.3' },
        what: { command: 'mcp withdraw', asset: 'BTC', destination: BTC_ADDRESS, rules: ['assets'] },
      });
    } finally {
      await s.close();
    }
  });
});
