// A change of the gateway's policy held for approvals, on SQLite and on PostgreSQL, with the store and a clock of the
// test's own: the policy in force decides whether a change is held (policy_changes) and by whose keys it is approved;
// the proposer cannot approve their own; the approval that completes the set makes it the next version exactly once
// (even when two arrive together); a rejection, an expiry or another version set in between leaves the policy as it
// was; every step is in the store's chain, which the machine log's verifier finds whole.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyLog } from '../../src/audit/verify.js';
import { type PolicyChangeBody, PolicyChanges } from '../../src/gateway/held-policy-changes.js';
import { GatewayStore, type Operator } from '../../src/gateway/store.js';
import type { Role } from '../../src/gateway/operators.js';
import { approvalText, contentFromLines } from '../../src/policy/approvals.js';
import { approverKey } from '../../src/policy/keys.js';
import { ENGINES, type TestStore } from './support.js';

type Key = ReturnType<typeof approverKey>;

const keyOf = (): Key => approverKey(mkdtempSync(join(tmpdir(), 'coinop-key-')));
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A policy whose changes need `required` approvals by these keys. */
const guarded = (required: number, keys: Key[], extra = '') =>
  `${extra}policy_changes:\n  required: ${required}\n  keys:\n${keys.map((k) => `    - ${k.publicKey.text}\n`).join('')}`;

for (const [engine, openStore] of ENGINES) {
  describe(`policy changes held for approvals on ${engine}`, () => {
    let t: TestStore;
    let store: GatewayStore;
    let clock: number;
    let changes: PolicyChanges;
    const ops = new Map<string, Operator>();

    beforeEach(async () => {
      t = await openStore();
      clock = Date.parse('2026-11-26T12:00:00Z');
      store = new GatewayStore(t.sql, () => clock);
      await store.init();
      changes = new PolicyChanges(store, { now: () => clock, ttlMs: 60_000 });
      for (const [name, role] of [
        ['adm', 'admin'],
        ['ana', 'approver'],
        ['bo', 'approver'],
        ['ivy', 'initiator'],
      ] as [string, Role][]) {
        await store.addOperator(name, role);
        ops.set(name, (await store.operator(name))!);
      }
    });
    afterEach(async () => {
      await t?.drop();
    });

    const who = (name: string) => ({ os_user: 'test', operator: name });
    const propose = (text: string, proposer = 'adm') =>
      changes.propose({ text, sha256: sha(text), file: 'team.yaml', proposer, who: who(proposer) });

    /** `name`'s signed approval of a held change, over the statement the gateway holds. */
    async function approveAs(name: string, key: Key, id: string) {
      const held = (await store.pending(id))!;
      const text = approvalText(contentFromLines(held.content)!, key, `gateway:${id}`, new Date(clock).toISOString());
      return changes.approve(ops.get(name)!, who(name), held, text);
    }

    it('without policy_changes in force a version is set at once; with it, the change is held until the last approval', async () => {
      const [ana, bo] = [keyOf(), keyOf()];
      const first = await propose(guarded(2, [ana, bo], 'assets: [BTC]\n'));
      expect(first).toEqual({ set: true, version: 1 });
      const next = guarded(2, [ana, bo], 'assets: [BTC, ETH]\n');
      const held = await propose(next);
      if (held.set) throw new Error('the change was not held');
      expect(held).toMatchObject({ required: 2, replaces: 1 });
      expect((await store.policy())?.version).toBe(1);
      const shown = (await changes.answer(held.pending)).body;
      expect(shown).toMatchObject({ status: 'pending', initiator: 'adm', approvals_required: 2 });
      expect(shown.content).toEqual(
        expect.arrayContaining([
          'kind: policy',
          `replaces: 1 sha256:${(await store.policy())!.sha256}`,
          `content: sha256:${sha(next)}`,
        ]),
      );
      // An initiator approves nothing; the proposer cannot approve their own, even as an admin.
      expect((await approveAs('ivy', ana, held.pending.id)).status).toBe(403);
      expect((await approveAs('adm', ana, held.pending.id)).body).toMatchObject({
        type: expect.stringMatching(/own-request$/),
      });
      // A key the policy in force does not list does not count.
      expect((await approveAs('ana', keyOf(), held.pending.id)).status).toBe(422);
      expect((await approveAs('ana', ana, held.pending.id)).body).toMatchObject({ status: 'pending' });
      expect((await store.policy())?.version).toBe(1);
      const done = await approveAs('bo', bo, held.pending.id);
      expect(done.body).toMatchObject({ status: 'sent', result: { version: 2 } });
      const now = await store.policy();
      expect(now).toMatchObject({ version: 2, sha256: sha(next), body: next, setBy: 'adm (approved by ana, bo)' });
      // Once set it is not pending: a further approval changes nothing.
      expect((await approveAs('ana', ana, held.pending.id)).status).toBe(409);
      expect((await store.policyHistory()).length).toBe(2);
      const lines = (await store.auditLines()).map((l) => l.line);
      const events = lines.map(
        (l) => JSON.parse(l) as { kind: string; what: Record<string, unknown>; outcome: { result: string } },
      );
      expect(events.map((e) => [e.kind, e.what.change, e.outcome.result])).toEqual([
        ['gateway_admin', 'policy_set', 'sent'],
        ['gateway_admin', 'policy_proposed', 'held'],
        ['approval', 'policy', 'approved'],
        ['approval', 'policy', 'approved'],
        ['gateway_admin', 'policy_set', 'sent'],
      ]);
      const file = join(mkdtempSync(join(tmpdir(), 'coinop-chain-')), 'chain.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);
      expect(verifyLog(file, await store.auditHead()).problems).toEqual([]);
    });

    it('two last approvals arriving together set the version once', async () => {
      const [ana, bo] = [keyOf(), keyOf()];
      await propose(guarded(1, [ana, bo]));
      const held = await propose(guarded(1, [ana, bo], 'networks: [BITCOIN]\n'));
      if (held.set) throw new Error('the change was not held');
      const answers = await Promise.all([approveAs('ana', ana, held.pending.id), approveAs('bo', bo, held.pending.id)]);
      expect(answers.some((a) => a.body.status === 'sent')).toBe(true);
      expect((await store.policyHistory()).map((p) => p.version)).toEqual([1, 2]);
      expect((await store.pending(held.pending.id))?.status).toBe('sent');
    });

    it('a rejection, an expiry, or another version set first leave the policy as it is', async () => {
      const [ana, bo] = [keyOf(), keyOf()];
      await propose(guarded(1, [ana, bo]));
      const rejected = await propose(guarded(1, [ana, bo], 'assets: [BTC]\n'));
      const expiring = await propose(guarded(1, [ana, bo], 'assets: [ETH]\n'));
      const stale = await propose(guarded(1, [ana, bo], 'assets: [SOL]\n'));
      const winner = await propose(guarded(1, [ana, bo], 'assets: [USD]\n'));
      if (rejected.set || expiring.set || stale.set || winner.set) throw new Error('a change was not held');
      const no = await changes.reject(ops.get('bo')!, who('bo'), rejected.pending, 'not now');
      expect(no.body).toMatchObject({ status: 'rejected', result: { rejected_by: 'bo', reason: 'not now' } });
      expect((await approveAs('ana', ana, rejected.pending.id)).status).toBe(409);
      // The winner is approved: the others replace version 1, which is no longer in force.
      expect((await approveAs('ana', ana, winner.pending.id)).body).toMatchObject({ status: 'sent' });
      const stalled = await approveAs('bo', bo, stale.pending.id);
      expect(stalled.body).toMatchObject({ type: expect.stringMatching(/stale$/) });
      expect((await store.pending(stale.pending.id))?.status).toBe('failed');
      clock += 61_000;
      const late = await approveAs('bo', bo, expiring.pending.id);
      expect(late.body).toMatchObject({ type: expect.stringMatching(/expired$/) });
      expect((await store.pending(expiring.pending.id))?.status).toBe('expired');
      const body = (await store.policy())!;
      expect(body.sha256).toBe((winner.pending.body as unknown as PolicyChangeBody).sha256);
      expect((await store.policyHistory()).length).toBe(2);
      const ends = (await store.auditLines())
        .map((l) => JSON.parse(l.line) as { what: { change?: string }; outcome: { result: string } })
        .filter((e) => /^policy_(rejected|stale|expired)$/.test(e.what.change ?? ''))
        .map((e) => [e.what.change, e.outcome.result]);
      expect(ends).toEqual([
        ['policy_rejected', 'rejected'],
        ['policy_stale', 'failed'],
        ['policy_expired', 'expired'],
      ]);
    });
  });
}
