// A withdraw batch at a coinop gateway whose policy asks for two approvals, on SQLite and on PostgreSQL: held as ONE
// content (not row by row), shown to approvers with every row, destination and total, approved once per approver
// (Ed25519 over the exact statement; the initiator cannot; the same approver twice counts once), sent by the gateway
// when the last approval arrives, each row once by its ref_id; the initiator's `--wait-approval` run sees it to the
// end and a `--resume` sends nothing more; every step in the gateway's chain, which verifies whole. A held batch
// past its time expires and can no longer be approved.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dec, fmt } from '../../src/contract/index.js';
import { DEMO } from '../../src/embedded/demo.js';
import { approvalText, contentFromLines } from '../../src/policy/approvals.js';
import { approverKey } from '../../src/policy/keys.js';
import { BTC_ADDRESS, ETH_ADDRESS, baseEnv, runInProcess, type Run } from '../cli/helpers.js';
import { clientToken } from '../support/tokens.js';
import { until } from '../support/wait.js';
import { gatewayFixture, gatewayLogin, startTestGateway } from './harness.js';
import { ENGINES } from './support.js';

interface HeldJson {
  pending_id: string;
  status: string;
  operation: string;
  approvals: { operator: string }[];
  rows: { row: number; ref_id: string; destination: string; amount: string; status: string }[];
  totals: { asset: string; network: string; rows: number; sum: string }[];
}

for (const [engine, openStore] of ENGINES) {
  describe(`a batch held for approvals as one at a gateway on ${engine}`, () => {
    const fx = gatewayFixture(openStore);
    let n = 0;

    const moneySent = async () =>
      (await fx.sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));

    async function operator(role: string, at: { url: string; wsUrl: string } = fx.gw) {
      const name = `${role}-${++n}`;
      const added = await runInProcess(
        ['gateway', 'operators', 'add', name, '--role', role, '--store', fx.storeUrl, '-o', 'json'],
        { ...fx.sb.env, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined },
      );
      expect(added.code, added.stderr).toBe(0);
      const creds = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
      const env = { ...baseEnv(join(fx.sb.dir, name)) };
      const login = await gatewayLogin(at, creds, env);
      expect(login.code, login.stderr).toBe(0);
      const token = () => clientToken(at.url, { clientId: creds.client_id, secret: creds.client_secret });
      return {
        name,
        token,
        configDir: env.COINOP_CONFIG_DIR,
        run: (args: string[]): Promise<Run> => runInProcess(args, { ...env, COINOP_CONTEXT: 'gw' }),
      };
    }

    async function setPolicy(text: string): Promise<void> {
      const file = join(fx.sb.dir, `policy-${++n}.yaml`);
      writeFileSync(file, text);
      const r = await runInProcess(['gateway', 'policy', 'set', file, '--store', fx.storeUrl], fx.sb.env);
      expect(r.code, r.stderr).toBe(0);
    }

    const twoOf = (dirs: string[]) =>
      `approvals:\n  required: 2\n  environments: [local]\n  keys:\n${dirs.map((d) => `    - ${approverKey(d).publicKey.text}\n`).join('')}`;

    function batchFile(name: string, amounts: string[]): string {
      const file = join(fx.sb.dir, `${name}-${engine}.csv`);
      const rows = amounts.map((a, i) =>
        i === amounts.length - 1 ? `${ETH_ADDRESS},ETH,ETHEREUM,${a}` : `${BTC_ADDRESS},BTC,BITCOIN,${a}`,
      );
      writeFileSync(file, `destination_address,asset,crypto_network,amount\n${rows.join('\n')}\n`);
      return file;
    }

    it('is held as one, approved once by each of two approvers, and sent by the gateway exactly once', async () => {
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      const bo = await operator('approver');
      await setPolicy(twoOf([ana.configDir, bo.configDir]));
      const csv = batchFile('two', ['0.001', '0.002', '0.03']);
      await moneySent();

      const held = await ivy.run(['withdraw', 'batch', csv, '--yes', '-o', 'json']);
      expect(held.code, held.stderr).toBe(0);
      expect(held.stderr).toMatch(/holds this batch for approvals as one \(3 rows/);
      const id = (JSON.parse(held.stdout) as HeldJson).pending_id;
      expect(await moneySent()).toEqual([]);
      // The same batch again finds the one held: still one item in the inbox.
      expect((await ivy.run(['withdraw', 'batch', csv, '--yes', '-o', 'json'])).code).toBe(0);
      const inbox = JSON.parse((await ana.run(['approvals', 'list', '--status', 'pending', '-o', 'json'])).stdout);
      expect(inbox.map((h: HeldJson) => [h.pending_id, h.operation])).toEqual([[id, 'batch']]);

      // Approvers see every row, destination and total: as JSON and as a table.
      const shown = JSON.parse((await ana.run(['approvals', 'show', id, '-o', 'json'])).stdout) as HeldJson;
      expect(shown.rows.map((r) => [r.destination, r.amount])).toEqual([
        [BTC_ADDRESS, '0.001'],
        [BTC_ADDRESS, '0.002'],
        [ETH_ADDRESS, '0.03'],
      ]);
      expect(shown.totals).toEqual([
        { asset: 'BTC', network: 'BITCOIN', rows: 2, sum: '0.003' },
        { asset: 'ETH', network: 'ETHEREUM', rows: 1, sum: '0.03' },
      ]);
      const table = await bo.run(['approvals', 'show', id, '-o', 'table']);
      expect(table.code, table.stderr).toBe(0);
      for (const s of [BTC_ADDRESS, ETH_ADDRESS, '0.003 (2 rows)', '0.03 (1 row)', ...shown.rows.map((r) => r.ref_id)])
        expect(table.stdout).toContain(s);

      // The initiator follows it to the end; the initiator cannot approve their own.
      const waiting = ivy.run(['withdraw', 'batch', csv, '--yes', '--wait-approval', '-o', 'json']);
      expect((await ivy.run(['approvals', 'approve', id, '--yes'])).code).not.toBe(0);
      const first = await ana.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('approved (1 of 2)');
      // The same approver again: counted once.
      const twice = await ana.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(twice.stderr).toContain('approved (1 of 2)');
      expect(await moneySent()).toEqual([]);
      const last = await bo.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(last.code, last.stderr).toBe(0);
      expect(last.stderr).toContain('the gateway sent it (3 of 3 rows sent)');
      const sent = await moneySent();
      expect(sent.map((e) => e.status)).toEqual([200, 200, 200]);

      const done = await waiting;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toContain('approved (');
      const report = JSON.parse(done.stdout) as { ref_id: string; result: string; transfer_id: string }[];
      expect(report.map((r) => r.ref_id)).toEqual(shown.rows.map((r) => r.ref_id));
      expect(report.every((r) => r.transfer_id)).toBe(true);
      // Run again, or resumed: every row is found sent; nothing leaves twice.
      const again = await ivy.run(['withdraw', 'batch', csv, '--resume', '--yes', '-o', 'json']);
      expect(again.code, again.stderr).toBe(0);
      expect(await moneySent()).toEqual([]);

      const verified = await bo.run(['audit', 'verify', '--gateway', '-o', 'json']);
      expect(verified.code, verified.stderr).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
      const listed = await ana.run(['audit', 'list', '--gateway', '-o', 'json']);
      const entries = (
        JSON.parse(listed.stdout) as {
          kind: string;
          who: { operator: string };
          what: Record<string, unknown>;
          outcome: { result: string };
        }[]
      ).filter((e) => e.what.pending_id === id);
      expect(entries.map((e) => [e.kind, e.who.operator, e.outcome.result])).toEqual([
        ['batch', ivy.name, 'held'],
        ['approval', ana.name, 'approved'],
        ['approval', ana.name, 'approved'],
        ['approval', bo.name, 'approved'],
        ['batch', ivy.name, 'approved'],
        ['withdrawal', ivy.name, 'attempt'],
        ['withdrawal', ivy.name, 'sent'],
        ['withdrawal', ivy.name, 'attempt'],
        ['withdrawal', ivy.name, 'sent'],
        ['withdrawal', ivy.name, 'attempt'],
        ['withdrawal', ivy.name, 'sent'],
      ]);
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('straight to its endpoint: the role, a row by its ref_id (held, or a conflict), and the cap at the last approval', async () => {
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      const bo = await operator('approver');
      // The cap: what this upstream sent in BTC so far (by the tests before), and 0.005 more.
      const listed = await ivy.run(['transfers', 'list', '--type', 'CRYPTO_WITHDRAWAL', '-o', 'json']);
      const before = (JSON.parse(listed.stdout) as { asset: string; amount: string }[])
        .filter((x) => x.asset === 'BTC')
        .reduce((sum, x) => sum.plus(dec(x.amount)), dec(0));
      const cap = fmt(before.plus(dec('0.005')));
      await setPolicy(
        `${twoOf([ana.configDir, bo.configDir]).replace('required: 2', 'required: 2\n  above: { BTC: "0.0035" }')}max_per_24h:\n  BTC: "${cap}"\n`,
      );
      const row = (amount: string, ref: string) => ({
        profile_id: DEMO.profileId,
        asset: 'BTC',
        crypto_network: 'BITCOIN',
        destination_address: BTC_ADDRESS,
        amount,
        ref_id: `${ref}-${engine}`,
      });
      const post = async (who: { token(): Promise<string> }, path: string, body: unknown) =>
        fetch(`${fx.gw.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${await who.token()}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const rows = [row('0.002', 'cap-a'), row('0.002', 'cap-b')];
      expect((await post(ana, '/_gateway/batches', { rows })).status).toBe(403);
      await moneySent();
      const submitted = await post(ivy, '/_gateway/batches', { profile_id: DEMO.profileId, rows });
      expect(submitted.status).toBe(202);
      const id = ((await submitted.json()) as HeldJson).pending_id;
      // A row's own request while the batch is held: answered with the batch, not sent; another amount: a conflict.
      const alone = await post(ivy, '/v2/transfer/crypto-withdrawals', rows[0]);
      expect(alone.status).toBe(202);
      expect(((await alone.json()) as HeldJson).pending_id).toBe(id);
      expect((await post(ivy, '/v2/transfer/crypto-withdrawals', { ...rows[0], amount: '0.003' })).status).toBe(409);
      expect(await moneySent()).toEqual([]);
      // Meanwhile a withdrawal below the approvals threshold takes 0.002 of the 0.005 cap.
      expect((await post(ivy, '/v2/transfer/crypto-withdrawals', row('0.002', 'cap-single'))).status).toBe(200);
      await moneySent();
      expect((await ana.run(['approvals', 'approve', id, '--yes'])).code).toBe(0);
      const last = await bo.run(['approvals', 'approve', id, '--yes']);
      // 0.002 sent + 0.004 in the batch is over the cap: refused whole, nothing sent, still held for later.
      expect(last.code, last.stderr).toBe(8);
      expect(last.stderr).toMatch(/max_per_24h/);
      expect(await moneySent()).toEqual([]);
      const after = JSON.parse((await ana.run(['approvals', 'show', id, '-o', 'json'])).stdout) as HeldJson;
      expect([after.status, after.approvals.length, after.rows.map((r) => r.status)]).toEqual([
        'pending',
        2,
        ['planned', 'planned'],
      ]);
      expect((await bo.run(['approvals', 'reject', id, '--reason', 'over the cap'])).code).toBe(0);
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('two approvals at once, each enough to complete the set: the batch is sent once', async () => {
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      const bo = await operator('approver');
      await setPolicy(twoOf([ana.configDir, bo.configDir]).replace('required: 2', 'required: 1'));
      const held = await ivy.run([
        'withdraw',
        'batch',
        batchFile('race', ['0.0012', '0.0013', '0.012']),
        '--yes',
        '-o',
        'json',
      ]);
      expect(held.code, held.stderr).toBe(0);
      const id = (JSON.parse(held.stdout) as HeldJson).pending_id;
      await moneySent();
      // Both signed over the held statement and sent straight to the gateway at once: each completes the set.
      const shown = JSON.parse((await ana.run(['approvals', 'show', id, '-o', 'json'])).stdout) as {
        content: string[];
      };
      const content = contentFromLines(shown.content)!;
      const answers = await Promise.all(
        [ana, bo].map(async (approver) => {
          const approval = approvalText(
            content,
            approverKey(approver.configDir),
            `gateway:${id}`,
            new Date().toISOString(),
          );
          const r = await fetch(`${fx.gw.url}/_gateway/approvals/${id}/approve`, {
            method: 'POST',
            headers: { authorization: `Bearer ${await approver.token()}`, 'content-type': 'application/json' },
            body: JSON.stringify({ approval }),
          });
          return r.status;
        }),
      );
      // The one that moved it to sending sent it; the other found it sending (200, not sent again) or no longer pending.
      expect(answers).toContain(200);
      expect(answers.every((status) => status === 200 || status === 409)).toBe(true);
      expect((await moneySent()).map((e) => e.status)).toEqual([200, 200, 200]);
      const after = JSON.parse((await ana.run(['approvals', 'show', id, '-o', 'json'])).stdout) as HeldJson;
      expect([after.status, after.rows.map((r) => r.status)]).toEqual(['sent', ['sent', 'sent', 'sent']]);
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('a held batch past its time expires: no approval sends it; a rejected one is never sent', async () => {
      const short = await startTestGateway(fx.sb, fx.storeUrl, { approvalTtlMs: 400 });
      try {
        const ivy = await operator('initiator', short);
        const ana = await operator('approver', short);
        const bo = await operator('approver', short);
        await setPolicy(twoOf([ana.configDir, bo.configDir]));
        await moneySent();
        const held = await ivy.run([
          'withdraw',
          'batch',
          batchFile('expiring', ['0.0011', '0.021']),
          '--yes',
          '-o',
          'json',
        ]);
        expect(held.code, held.stderr).toBe(0);
        const id = (JSON.parse(held.stdout) as HeldJson).pending_id;
        await until('the held batch expired', async () => {
          const r = await ana.run(['approvals', 'show', id, '-o', 'json']);
          return (JSON.parse(r.stdout) as HeldJson).status === 'expired';
        });
        const late = await ana.run(['approvals', 'approve', id, '--yes']);
        expect(late.code).not.toBe(0);
        expect(late.stderr).toMatch(/expired/);
      } finally {
        await short.close();
      }
      // The rejection on the gateway with the usual lifetime: a 400 ms one can expire first on a loaded machine.
      try {
        const ivy = await operator('initiator');
        const ana = await operator('approver');
        const bo = await operator('approver');
        await setPolicy(twoOf([ana.configDir, bo.configDir]));
        const other = await ivy.run([
          'withdraw',
          'batch',
          batchFile('rejected', ['0.0031', '0.041']),
          '--yes',
          '-o',
          'json',
        ]);
        expect(other.code, other.stderr).toBe(0);
        const rid = (JSON.parse(other.stdout) as HeldJson).pending_id;
        const rejected = await bo.run(['approvals', 'reject', rid, '--reason', 'not ours']);
        expect(rejected.code, rejected.stderr).toBe(0);
        expect((await ana.run(['approvals', 'approve', rid, '--yes'])).code).not.toBe(0);
        expect(await moneySent()).toEqual([]);
      } finally {
        await setPolicy('assets: [BTC, ETH]\n');
      }
    });
  });
}
