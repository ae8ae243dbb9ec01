// coinop gateway end to end, on SQLite and on PostgreSQL: the local service as the upstream, a gateway in front of it
// (started as `coinop gateway start` starts it, in this process), operators each on a config directory of their own
// running coinop (in process) against the gateway like any service. What must hold: operators never hold the upstream
// secret; reads pass within a role; the gateway's policy refuses money whatever client sends it; a withdrawal that
// needs two approvals is held, approved by two approvers on their own machines, and sent exactly once; the rolling
// cap holds under 50 parallel withdrawals from 5 operators; every step is in one hash chain the same verifier checks.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLog } from '../../src/audit/verify.js';
import { DEMO } from '../../src/embedded/demo.js';
import { approverKey } from '../../src/policy/keys.js';
import { BTC_ADDRESS, baseEnv, runInProcess, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { ENGINES, type TestStore } from './support.js';
import { until } from '../support/wait.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { transferFlags } from '../support/command-lines.js';
import { postBtcWithdrawal, postWithdrawal } from '../support/requests.js';
import { clientToken } from '../support/tokens.js';
import { OPERATOR_CACHE_MS } from '../../src/gateway/server.js';

for (const [engine, openStore] of ENGINES) {
  describe(`coinop gateway on ${engine}`, () => {
    let sb: Sandbox;
    let t: TestStore;
    let gw: TestGateway;
    let n = 0;

    beforeAll(async () => {
      sb = await sandbox();
      t = await openStore();
      gw = await startTestGateway(sb, t.url);
    });
    afterAll(async () => {
      await gw?.close();
      await t?.drop();
      await sb?.close();
    });

    /** The upstream's money-moving requests since the last look. */
    const moneySent = async () =>
      (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));

    /** An operator: added by the admin's command, logged in from a config directory of their own. */
    async function operator(role: string): Promise<{
      name: string;
      run: (args: string[]) => Promise<Run>;
      configDir: string;
      clientId: string;
      secret: string;
    }> {
      const name = `${role}-${++n}`;
      const added = await runInProcess(
        ['gateway', 'operators', 'add', name, '--role', role, '--store', t.url, '-o', 'json'],
        { ...sb.env, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined },
      );
      expect(added.code, added.stderr).toBe(0);
      const { client_id, client_secret } = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
      const dir = join(sb.dir, name);
      const env = { ...baseEnv(dir) };
      const login = await gatewayLogin(gw, { client_id, client_secret }, env);
      expect(login.code, login.stderr).toBe(0);
      return {
        name,
        clientId: client_id,
        secret: client_secret,
        configDir: env.COINOP_CONFIG_DIR,
        run: (args) => runInProcess(args, { ...env, COINOP_CONTEXT: 'gw' }),
      };
    }

    const withdraw = (amount: string, ref: string) => [
      'withdraw',
      ...transferFlags('BTC', amount),
      '--ref-id',
      ref,
      '--yes',
      '-o',
      'json',
    ];

    async function setPolicy(text: string): Promise<void> {
      const file = join(sb.dir, `policy-${++n}.yaml`);
      writeFileSync(file, text);
      const r = await runInProcess(['gateway', 'policy', 'set', file, '--store', t.url], sb.env);
      expect(r.code, r.stderr).toBe(0);
    }

    /** The gateway's chain, as an operator reads it, checked by the verifier of a machine's log. */
    async function chainWhole(token: string): Promise<{ lines: string[]; problems: unknown[] }> {
      const r = await fetch(`${gw.url}/_gateway/audit`, { headers: { authorization: `Bearer ${token}` } });
      const { lines, head } = (await r.json()) as { lines: string[]; head: { seq: number; sha256: string } };
      const file = join(tmpdir(), `gw-chain-${engine}-${process.pid}-${++n}.jsonl`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      return { lines, problems: verifyLog(file, head).problems };
    }

    const tokenOf = (op: { clientId: string; secret: string }): Promise<string> => clientToken(gw.url, op);

    it('operators read through it with tokens of their own; the upstream secret appears nowhere', async () => {
      const viewer = await operator('viewer');
      const r = await viewer.run(['balances', '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
      const bad = await fetch(`${gw.url}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: viewer.clientId,
          client_secret: 'nope',
        }),
      });
      expect(bad.status).toBe(401);
      expect((await fetch(`${gw.url}/v2/profiles`)).status).toBe(401);
      const cross = await fetch(`${gw.url}/v2/profiles`, {
        headers: { authorization: `Bearer ${await tokenOf(viewer)}`, origin: 'https://evil.example' },
      });
      expect(cross.status).toBe(403);
      const { lines } = await chainWhole(await tokenOf(viewer));
      expect(`${lines.join('\n')}${r.stdout}${r.stderr}`).not.toContain(DEMO.clientSecret);
    });

    it('a viewer cannot move money; an operator disabled is refused at once for money, within a second for reads', async () => {
      const viewer = await operator('viewer');
      await moneySent();
      const r = await viewer.run(withdraw('0.001', `gw-viewer-${engine}`));
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/viewer/);
      expect(await moneySent()).toEqual([]);
      const ivy = await operator('initiator');
      const token = await tokenOf(ivy);
      const read = async () =>
        (await fetch(`${gw.url}/v2/profiles`, { headers: { authorization: `Bearer ${token}` } })).status;
      // The gateway has read the operator for this read: the next reads may be answered from what it read.
      expect(await read()).toBe(200);
      const off = await runInProcess(['gateway', 'operators', 'disable', ivy.name, '--store', t.url], sb.env);
      expect(off.code, off.stderr).toBe(0);
      expect((await postBtcWithdrawal(gw.url, token, '0.001', `gw-disabled-${engine}`)).status).toBe(401);
      await until('a read by the disabled operator refused', async () => (await read()) === 401, {
        timeoutMs: OPERATOR_CACHE_MS + 5_000,
      });
      expect(await moneySent()).toEqual([]);
    });

    it("the gateway's policy refuses money whatever client sends it, and records who asked", async () => {
      await setPolicy('assets: [ETH]\nmax_per_withdrawal:\n  BTC: 0.0001\n');
      const ivy = await operator('initiator');
      await moneySent();
      const r = await ivy.run(withdraw('0.001', `gw-policy-${engine}`));
      expect(r.code, r.stderr).toBe(8);
      const raw = await postBtcWithdrawal(gw.url, await tokenOf(ivy), '0.001', `gw-policy-raw-${engine}`);
      expect(raw.status).toBe(403);
      const problem = (await raw.json()) as { type: string; detail: string };
      expect(problem.type).toMatch(/policy-refused$/);
      // Nothing showed the operator the violations: the answer says them (never "listed above").
      const said =
        /^2 violations of rules assets, max_per_withdrawal \(assets: BTC is not an asset the policy allows; max_per_withdrawal: 0\.001 BTC is over the most one withdrawal may send, 0\.0001 BTC; policy /;
      expect(problem.detail).toMatch(said);
      expect(await moneySent()).toEqual([]);
      const { lines, problems } = await chainWhole(await tokenOf(ivy));
      expect(problems).toEqual([]);
      const refused = lines.map((l) => JSON.parse(l)).filter((e) => e.outcome.result === 'refused');
      expect(refused.map((e) => [e.who.operator, e.ref_id])).toEqual(
        expect.arrayContaining([
          [ivy.name, `gw-policy-${engine}`],
          [ivy.name, `gw-policy-raw-${engine}`],
        ]),
      );
      const rawEntry = refused.find((e) => e.ref_id === `gw-policy-raw-${engine}`);
      expect(rawEntry.outcome.error.message.replace(/^refused by policy: /, '')).toMatch(said);
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('a withdrawal that needs two approvals is held, approved on two machines, and sent exactly once', async () => {
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      const bo = await operator('approver');
      const keys = [ana, bo].map((a) => approverKey(a.configDir).publicKey.text);
      await setPolicy(
        `approvals:\n  required: 2\n  environments: [custom, local]\n  keys:\n${keys.map((k) => `    - ${k}\n`).join('')}`,
      );
      await moneySent();
      const ref = `gw-held-${engine}`;
      const held = await ivy.run(withdraw('0.002', ref));
      expect(held.code, held.stderr).toBe(0);
      const { pending_id: id, status } = JSON.parse(held.stdout) as { pending_id: string; status: string };
      expect(status).toBe('pending');
      expect(held.stderr).toContain(`coinop approvals approve ${id}`);
      expect(await moneySent()).toEqual([]);
      // The initiator's own approval never counts (an initiator cannot approve at all here).
      expect((await ivy.run(['approvals', 'approve', id, '--yes'])).code).not.toBe(0);
      const shown = await ana.run(['approvals', 'show', id, '-o', 'json']);
      expect(JSON.parse(shown.stdout)).toMatchObject({ what: { destination: BTC_ADDRESS, amount: '0.002' } });
      const first = await ana.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout).status).toBe('pending');
      expect(await moneySent()).toEqual([]);
      const second = await bo.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout).status).toBe('sent');
      expect((await moneySent()).map((e) => e.status)).toEqual([200]);
      // Again: nothing more goes (it is not pending any more), and a retry of the same ref_id finds it.
      expect((await ana.run(['approvals', 'approve', id, '--yes'])).code).not.toBe(0);
      const again = await ivy.run(withdraw('0.002', ref));
      expect(again.code, again.stderr).toBe(0);
      expect(await moneySent()).toEqual([]);
      const { lines, problems } = await chainWhole(await tokenOf(ana));
      expect(problems).toEqual([]);
      // coinop audit reads and verifies the gateway's chain as it does this machine's log.
      const verified = await ana.run(['audit', 'verify', '--gateway', '-o', 'json']);
      expect(verified.code, verified.stderr).toBe(0);
      // Whole, and at least as long as read above (the reads of it since are entries too).
      const report = JSON.parse(verified.stdout) as { ok: boolean; entries: number };
      expect(report.ok).toBe(true);
      expect(report.entries).toBeGreaterThanOrEqual(lines.length);
      const listed = await bo.run(['audit', 'list', '--gateway', '--ref-id', ref, '-o', 'json']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).map((e: { outcome: { result: string } }) => e.outcome.result)).toEqual(
        expect.arrayContaining(['held', 'attempt', 'sent']),
      );
      const mine = lines.map((l) => JSON.parse(l)).filter((e) => e.what.pending_id === id || e.ref_id === ref);
      expect(mine.map((e) => [e.who.operator, e.outcome.result])).toEqual(
        expect.arrayContaining([
          [ivy.name, 'held'],
          [ana.name, 'approved'],
          [bo.name, 'approved'],
          [ivy.name, 'attempt'],
          [ivy.name, 'sent'],
        ]),
      );
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('withdraw --wait-approval follows a held withdrawal until an approver sends it', async () => {
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      await setPolicy(
        `approvals:\n  required: 1\n  environments: [custom, local]\n  keys:\n    - ${approverKey(ana.configDir).publicKey.text}\n`,
      );
      await moneySent();
      const ref = `gw-wait-${engine}`;
      const waiting = ivy.run([...withdraw('0.001', ref), '--wait-approval']);
      let id = '';
      await until('the withdrawal held at the gateway', async () => {
        const r = await ana.run(['approvals', 'list', '--status', 'pending', '-o', 'json']);
        id =
          (JSON.parse(r.stdout) as { pending_id: string; ref_id: string }[]).find((h) => h.ref_id === ref)
            ?.pending_id ?? '';
        return id !== '';
      });
      expect((await ana.run(['approvals', 'approve', id, '--yes'])).code).toBe(0);
      const done = await waiting;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toContain('approved and sent by the gateway');
      expect(JSON.parse(done.stdout)).toMatchObject({ ref_id: ref, amount: '0.001' });
      expect((await moneySent()).length).toBe(1);
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('a batch through the gateway: each row passes its gate; one needing approvals is held as one and sent once approved', async () => {
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      const csv = join(sb.dir, `batch-${engine}.csv`);
      writeFileSync(
        csv,
        `destination_address,asset,crypto_network,amount\n${[1, 2, 3].map((i) => `${BTC_ADDRESS},BTC,BITCOIN,0.00${i}`).join('\n')}\n`,
      );
      await moneySent();
      const plain = await ivy.run(['withdraw', 'batch', csv, '--yes', '-o', 'json']);
      expect(plain.code, plain.stderr).toBe(0);
      expect((await moneySent()).length).toBe(3);
      await setPolicy(
        `approvals:\n  required: 1\n  environments: [custom, local]\n  keys:\n    - ${approverKey(ana.configDir).publicKey.text}\n`,
      );
      const csv2 = join(sb.dir, `batch2-${engine}.csv`);
      writeFileSync(csv2, `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.004\n`);
      const held = await ivy.run(['withdraw', 'batch', csv2, '--yes', '-o', 'json']);
      expect(held.code, held.stderr).toBe(0);
      expect(held.stderr).toMatch(/holds this batch for approvals as one/);
      expect(await moneySent()).toEqual([]);
      const id = (JSON.parse(held.stdout) as { pending_id: string }).pending_id;
      const ok = await ana.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(ok.code, ok.stderr).toBe(0);
      expect((await moneySent()).length).toBe(1);
      // Run again, the batch learns its row was sent (its ref_id): nothing goes twice.
      const resumed = await ivy.run(['withdraw', 'batch', csv2, '--yes', '-o', 'json']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((JSON.parse(resumed.stdout) as { result: string }[]).map((r) => r.result)).toEqual(['created']);
      expect(await moneySent()).toEqual([]);
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('a rolling cap holds under 50 parallel withdrawals from 5 operators: exactly 10 are sent', async () => {
      await setPolicy('max_per_24h:\n  ETH: "0.01"\n');
      const ops: Awaited<ReturnType<typeof operator>>[] = [];
      for (let i = 0; i < 5; i++) ops.push(await operator('initiator'));
      const tokens = await Promise.all(ops.map(tokenOf));
      await moneySent();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          postWithdrawal(gw.url, tokens[i % 5], 'ETH', '0.001', `gw-cap-${engine}-${i}`).then((r) => r.status),
        ),
      );
      expect(answers.filter((s) => s === 200).length).toBe(10);
      expect(answers.filter((s) => s === 403).length).toBe(40);
      expect((await moneySent()).length).toBe(10);
      await setPolicy('assets: [BTC, ETH]\n');
    });
  });
}
