// A change of the gateway's policy end to end, on SQLite and on PostgreSQL: an admin operator proposes it over HTTP
// (PUT /_gateway/policy) and another at the store (coinop gateway policy set); approvers see it with coinop approvals
// list|show (the new text and its SHA-256) and approve it from their own machines; the last approval sets it.
// vitest project: unit
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approverKey } from '../../src/policy/keys.js';
import { baseEnv, runInProcess, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { ENGINES, type TestStore } from './support.js';
import { clientToken } from '../support/tokens.js';

for (const [engine, openStore] of ENGINES) {
  describe(`a policy change through the gateway on ${engine}`, () => {
    let sb: Sandbox;
    let t: TestStore;
    let gw: TestGateway;

    beforeAll(async () => {
      [sb, t] = await Promise.all([sandbox(), openStore()]);
      gw = await startTestGateway(sb, t.url);
    });
    afterAll(async () => {
      await gw?.close();
      await Promise.all([t?.drop(), sb?.close()]);
    });

    const admin = (args: string[]) =>
      runInProcess([...args, '--store', t.url], { ...sb.env, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined });

    /** An operator added at the store and logged in from a config directory of their own; their token too. */
    async function member(name: string, role: string) {
      const added = await admin(['gateway', 'operators', 'add', name, '--role', role, '-o', 'json']);
      expect(added.code, added.stderr).toBe(0);
      const creds = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
      const env = baseEnv(join(sb.dir, name));
      expect((await gatewayLogin(gw, creds, env)).code).toBe(0);
      return {
        token: await clientToken(gw.url, { clientId: creds.client_id, secret: creds.client_secret }),
        key: approverKey(env.COINOP_CONFIG_DIR).publicKey.text,
        run: (args: string[]): Promise<Run> => runInProcess(args, { ...env, COINOP_CONTEXT: 'gw' }),
      };
    }

    const put = (token: string, policy: unknown) =>
      fetch(`${gw.url}/_gateway/policy`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ policy, file: 'team.yaml' }),
      });

    it('is held for the approvals the policy in force asks, shown with its text and SHA-256, and set by the last', async () => {
      const boss = await member('boss', 'admin');
      const ana = await member('ana', 'approver');
      const bo = await member('bo', 'approver');
      const ivy = await member('ivy', 'initiator');
      const rule = `policy_changes:\n  required: 2\n  keys: [${ana.key}, ${bo.key}, ${boss.key}]\n`;
      // Only an admin sets it over HTTP; a policy that does not load is refused with its line.
      expect((await put(ivy.token, rule)).status).toBe(403);
      const bad = await put(boss.token, 'policy_changes:\n  required: 2\n');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { detail: string }).detail).toContain('team.yaml:1: policy_changes.keys');
      const first = await put(boss.token, rule);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ version: 1 });
      // From now on a change waits: over HTTP, and at the store too.
      const next = `assets: [BTC]\n${rule}`;
      const held = await put(boss.token, next);
      expect(held.status).toBe(202);
      const { pending_id: id } = (await held.json()) as { pending_id: string };
      const file = join(sb.dir, 'other.yaml');
      writeFileSync(file, `assets: [ETH]\n${rule}`);
      const atStore = await admin(['gateway', 'policy', 'set', file, '-o', 'json']);
      expect(atStore.code, atStore.stderr).toBe(0);
      expect(atStore.stderr).toContain('held: the policy in force (version 1) needs 2 approvals');
      expect(JSON.parse(atStore.stdout)).toMatchObject({ status: 'pending' });
      const listed = await ana.run(['approvals', 'list', '-o', 'json']);
      expect(JSON.parse(listed.stdout).map((h: { pending_id: string }) => h.pending_id)).toContain(id);
      const shown = await ana.run(['approvals', 'show', id, '-o', 'table']);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(createHash('sha256').update(next).digest('hex'));
      expect(shown.stdout).toContain('  assets: [BTC]');
      // The proposer cannot approve their own; an initiator cannot approve at all.
      const own = await boss.run(['approvals', 'approve', id, '--yes']);
      expect(own.stderr).toContain('the proposer cannot approve their own request');
      expect((await ivy.run(['approvals', 'approve', id, '--yes'])).code).not.toBe(0);
      const one = await ana.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr).toContain('approved (1 of 2)');
      const version = async () =>
        (
          (await (
            await fetch(`${gw.url}/_gateway/policy`, { headers: { authorization: `Bearer ${ivy.token}` } })
          ).json()) as {
            version: number;
          }
        ).version;
      expect(await version()).toBe(1);
      const two = await bo.run(['approvals', 'approve', id, '--yes', '-o', 'json']);
      expect(two.code, two.stderr).toBe(0);
      expect(two.stderr).toContain("the gateway's policy is version 2 now");
      expect(await version()).toBe(2);
      const history = await admin(['gateway', 'policy', 'history', '-o', 'json']);
      expect(JSON.parse(history.stdout).map((p: { set_by: string }) => p.set_by)).toEqual([
        'boss',
        'boss (approved by ana, bo)',
      ]);
      // The admin's own coinop sends a change through the gateway; an approver rejects it and nothing changes.
      const third = join(sb.dir, 'third.yaml');
      writeFileSync(third, `assets: [BTC, ETH]\n${rule}`);
      const proposed = await boss.run(['gateway', 'policy', 'set', third, '--gateway', '-o', 'json']);
      expect(proposed.code, proposed.stderr).toBe(0);
      expect(proposed.stderr).toContain('held: the policy in force needs 2 approvals');
      const thirdId = (JSON.parse(proposed.stdout) as { pending_id: string }).pending_id;
      const no = await bo.run(['approvals', 'reject', thirdId, '--reason', 'not yet', '-o', 'json']);
      expect(no.code, no.stderr).toBe(0);
      expect(JSON.parse(no.stdout)).toMatchObject({ status: 'rejected' });
      expect(await version()).toBe(2);
      const notAdmin = await ana.run(['gateway', 'policy', 'set', third, '--gateway']);
      expect(notAdmin.code).not.toBe(0);
      expect(notAdmin.stderr).toContain('only an admin sets the policy');
      const verified = await ana.run(['audit', 'verify', '--gateway', '-o', 'json']);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
    });
  });
}
