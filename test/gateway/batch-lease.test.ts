// A batch whose sending gateway instance stops mid-send, on SQLite and on PostgreSQL: two instances on one store, a
// held batch approved through the first, which stops after the upstream answered its third row and before it
// recorded it (a hook that throws there). While its lease holds, the other instance takes nothing over; once the
// lease has run out (the shared clock moved past it, no waiting) the initiator's `--resume --wait-approval` through
// the other instance takes the batch over and sends the rest: every ref_id once at the upstream (the third row comes
// back as the same transfer), each row reserved once against the cap, and the chain whole. An approver's approve of
// a batch left sending does the same, and so does a row's own v2 request by its ref_id (answered with its transfer).
// A single held withdrawal whose sender stopped after the upstream answered it and before recording it is taken over
// the same way, by each of the same three (the initiator's retry of its ref_id with --wait-approval, a GET of it, an
// approve): sent once by its ref_id (the upstream's 409 with the same transfer), reserved once, the chain whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec, fmt } from '../../src/contract/index.js';
import { approverKey } from '../../src/policy/keys.js';
import { BTC_ADDRESS, baseEnv, runInProcess, type Run, type Sandbox, sandbox } from '../cli/helpers.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { transferFlags } from '../support/command-lines.js';
import { clientToken } from '../support/tokens.js';
import { ENGINES, type TestStore } from './support.js';

const LEASE_MS = 60_000;

interface HeldJson {
  pending_id: string;
  status: string;
  rows: { ref_id: string; status: string; transfer_id: string | null }[];
  request: { rows: Record<string, unknown>[] };
}

for (const [engine, openStore] of ENGINES) {
  describe(`a held request (a batch or a single one) whose sender stopped, taken over by another instance on ${engine}`, () => {
    let sb: Sandbox;
    let t: TestStore;
    let a: TestGateway;
    let b: TestGateway;
    /** The instances' clock: the machine's, moved on by the test past a lease. */
    let skew = 0;
    const now = () => Date.now() + skew;
    /** Rows the first instance had answered by the upstream; at `stopAt` it stops before recording it. */
    let answeredByA = 0;
    let stopAt = 0;
    /** Whether the first instance stops once the upstream answered a single held request, before recording it. */
    let stopHeld = false;
    let n = 0;
    /** The first instance: it stops (its hooks throw) once the upstream answered row `stopAt` or a held request. */
    const first = () =>
      startTestGateway(sb, t.url, {
        now,
        desk: {
          batchLeaseMs: LEASE_MS,
          afterBatchRowSent: () => {
            if (++answeredByA === stopAt) throw new Error('the instance stopped');
          },
          afterHeldSent: () => {
            if (stopHeld) throw new Error('the instance stopped');
          },
        },
      });

    beforeAll(async () => {
      sb = await sandbox();
      t = await openStore();
      a = await first();
      b = await startTestGateway(sb, t.url, { now, desk: { batchLeaseMs: LEASE_MS } });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await t?.drop();
      await sb?.close();
    });

    const moneySent = async () =>
      (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));

    async function operator(role: string) {
      const name = `${role}-${++n}`;
      const added = await runInProcess(
        ['gateway', 'operators', 'add', name, '--role', role, '--store', t.url, '-o', 'json'],
        { ...sb.env, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined },
      );
      expect(added.code, added.stderr).toBe(0);
      const creds = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
      const env = { ...baseEnv(join(sb.dir, name)) };
      const login = await gatewayLogin(a, creds, env);
      expect(login.code, login.stderr).toBe(0);
      return {
        name,
        configDir: env.COINOP_CONFIG_DIR,
        /** A v2 request of this operator's straight to an instance. */
        post: async (at: TestGateway, path: string, body: unknown) => {
          const access_token = await clientToken(at.url, { clientId: creds.client_id, secret: creds.client_secret });
          return fetch(`${at.url}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        },
        /** Through one instance or the other (the context's addresses overridden). */
        run: (args: string[], at: TestGateway = a): Promise<Run> =>
          runInProcess(args, { ...env, COINOP_CONTEXT: 'gw', COINOP_BASE_URL: at.url, COINOP_AUTH_URL: at.url }),
      };
    }

    async function setPolicy(text: string): Promise<void> {
      const file = join(sb.dir, `policy-${++n}.yaml`);
      writeFileSync(file, text);
      const r = await runInProcess(['gateway', 'policy', 'set', file, '--store', t.url], sb.env);
      expect(r.code, r.stderr).toBe(0);
    }

    /** Each ref_id's withdrawals at the upstream (its own database, as the service lists them). */
    async function upstreamRefs(who: { run(args: string[], at?: TestGateway): Promise<Run> }) {
      const listed = await who.run(['transfers', 'list', '--type', 'CRYPTO_WITHDRAWAL', '--all', '-o', 'json'], b);
      expect(listed.code, listed.stderr).toBe(0);
      const count = new Map<string, string[]>();
      for (const x of JSON.parse(listed.stdout) as { id: string; ref_id?: string }[])
        if (x.ref_id) count.set(x.ref_id, [...(count.get(x.ref_id) ?? []), x.id]);
      return count;
    }

    const reservations = async (refIds: string[]) =>
      (await t.sql.query<{ ref_id: string; amount: string }>('SELECT ref_id, amount FROM gw_reservations'))
        .filter((r) => refIds.includes(String(r.ref_id)))
        .map((r) => [String(r.ref_id), String(r.amount)]);

    const leaseOf = async (id: string) =>
      (
        await t.sql.query<{ status: string; lease_holder: string | null; lease_until: number | null }>(
          'SELECT status, lease_holder, lease_until FROM gw_pending WHERE id = $1',
          [id],
        )
      )[0];

    /** A BTC cap that leaves 0.0005 once `amounts` are sent too: what went so far, the amounts, and 0.0005 more. */
    async function tightCap(who: { run(args: string[]): Promise<Run> }, amounts: string[]): Promise<string> {
      const listed = await who.run(['transfers', 'list', '--type', 'CRYPTO_WITHDRAWAL', '--all', '-o', 'json']);
      const before = (JSON.parse(listed.stdout) as { asset: string; amount: string }[])
        .filter((x) => x.asset === 'BTC')
        .reduce((sum, x) => sum.plus(dec(x.amount)), dec(0));
      return fmt(before.plus(amounts.reduce((s, x) => s.plus(dec(x)), dec(0))).plus(dec('0.0005')));
    }

    /** The cap held: 0.0005 is left of it, so 0.001 more is refused, nothing sent. */
    async function capHeld(who: { run(args: string[], at?: TestGateway): Promise<Run> }, cap: string) {
      await setPolicy(`max_per_24h:\n  BTC: "${cap}"\n`);
      const over = await who.run(['withdraw', ...transferFlags('BTC', '0.001'), '--yes'], b);
      expect(over.code, over.stderr).not.toBe(0);
      expect(over.stderr).toMatch(/max_per_24h/);
      expect(await moneySent()).toEqual([]);
    }

    async function heldBatch(name: string, amounts: string[], stopAfter: number) {
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      const bo = await operator('approver');
      const cap = await tightCap(ivy, amounts);
      const keys = [ana.configDir, bo.configDir].map((d) => `    - ${approverKey(d).publicKey.text}\n`).join('');
      await setPolicy(
        `approvals:\n  required: 2\n  environments: [local]\n  keys:\n${keys}max_per_24h:\n  BTC: "${cap}"\n`,
      );
      const csv = join(sb.dir, `${name}-${engine}.csv`);
      writeFileSync(
        csv,
        `destination_address,asset,crypto_network,amount\n${amounts.map((x) => `${BTC_ADDRESS},BTC,BITCOIN,${x}`).join('\n')}\n`,
      );
      const held = await ivy.run(['withdraw', 'batch', csv, '--yes', '-o', 'json']);
      expect(held.code, held.stderr).toBe(0);
      const shown = JSON.parse(held.stdout) as HeldJson;
      await moneySent();
      expect((await ana.run(['approvals', 'approve', shown.pending_id, '--yes'])).code).toBe(0);
      // The last approval through the first instance: it sends, and stops after the upstream answered row 3.
      answeredByA = 0;
      stopAt = stopAfter;
      const last = await bo.run(['approvals', 'approve', shown.pending_id, '--yes']);
      expect(last.code).not.toBe(0);
      expect((await moneySent()).map((e) => e.status)).toEqual(Array(stopAfter).fill(200));
      const refIds = (
        JSON.parse((await ana.run(['approvals', 'show', shown.pending_id, '-o', 'json'])).stdout) as HeldJson
      ).rows.map((r) => r.ref_id);
      return { ivy, ana, bo, csv, id: shown.pending_id, refIds, cap };
    }

    it('the initiator resumes through the other instance once the lease ran out: every row once, the cap held, the chain whole', async () => {
      const { ivy, ana, bo, csv, id, refIds, cap } = await heldBatch(
        'resume',
        ['0.0011', '0.0012', '0.0013', '0.0014', '0.0015'],
        3,
      );
      const left = await leaseOf(id);
      expect(left.status).toBe('sending');
      expect(left.lease_holder).toBeTruthy();
      expect(Number(left.lease_until)).toBeGreaterThan(now());
      // Every row reserved once at release, none twice.
      expect((await reservations(refIds)).sort()).toEqual(
        [
          [refIds[0], '0.0011'],
          [refIds[1], '0.0012'],
          [refIds[2], '0.0013'],
          [refIds[3], '0.0014'],
          [refIds[4], '0.0015'],
        ].sort(),
      );
      await a.close();

      // The lease still holds: the other instance takes nothing over (shown, approved, resubmitted: all still sending).
      const shownB = await ana.run(['approvals', 'show', id, '-o', 'json'], b);
      expect((JSON.parse(shownB.stdout) as HeldJson).status).toBe('sending');
      expect((await bo.run(['approvals', 'approve', id, '--yes'], b)).code).not.toBe(0);
      const early = await ivy.run(['withdraw', 'batch', csv, '--resume', '--yes', '-o', 'json'], b);
      expect(early.stderr).toMatch(/holds this batch/);
      expect(await moneySent()).toEqual([]);
      expect(await leaseOf(id)).toEqual(left);

      // Past the lease: the initiator's run through the other instance takes it over and sees it to the end.
      skew += LEASE_MS + 1000;
      const done = await ivy.run(['withdraw', 'batch', csv, '--resume', '--yes', '--wait-approval', '-o', 'json'], b);
      expect(done.code, done.stderr).toBe(0);
      const report = JSON.parse(done.stdout) as { ref_id: string; transfer_id: string }[];
      expect(report.map((r) => r.ref_id)).toEqual(refIds);
      // Rows 3 (sent, not recorded: the upstream's 409 with the same transfer), 4 and 5 went from the other instance.
      expect((await moneySent()).map((e) => e.status)).toEqual([409, 200, 200]);
      const upstream = await upstreamRefs(ivy);
      for (const [i, ref] of refIds.entries()) {
        expect(upstream.get(ref), ref).toHaveLength(1);
        expect(report[i].transfer_id).toBe(upstream.get(ref)![0]);
      }
      const after = await leaseOf(id);
      expect([after.status, after.lease_holder, after.lease_until]).toEqual(['sent', null, null]);
      expect((await reservations(refIds)).length).toBe(5);
      await capHeld(ivy, cap);

      const verified = await bo.run(['audit', 'verify', '--gateway', '-o', 'json'], b);
      expect(verified.code, verified.stderr).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
      const listed = await ana.run(['audit', 'list', '--gateway', '-o', 'json'], b);
      const entries = (
        JSON.parse(listed.stdout) as {
          kind: string;
          ref_id: string | null;
          what: Record<string, unknown>;
          outcome: { result: string };
        }[]
      ).filter((e) => e.what.pending_id === id);
      const resumed = entries.filter((e) => e.kind === 'batch' && e.what.resumed === true);
      expect(resumed.map((e) => [e.outcome.result, e.what.rows_planned])).toEqual([['attempt', 3]]);
      // Each row's transfer in the chain: rows 1-3 by the first instance, row 3 again and 4-5 by the other.
      const sentOf = (ref: string) => entries.filter((e) => e.ref_id === ref && e.outcome.result === 'sent').length;
      expect(refIds.map(sentOf)).toEqual([1, 1, 2, 1, 1]);
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it('an approver approving a batch left sending past its lease completes it through the other instance', async () => {
      // The first instance was closed by the test before: a fresh one, which stops once row 1 is answered.
      a = await first();
      const { ivy, ana, id, refIds } = await heldBatch('approve', ['0.0021', '0.0022'], 1);
      await a.close();
      skew += LEASE_MS + 1000;
      // Its approve reads the batch first: that read takes it over and sends the rest; nothing is left to approve.
      const approved = await ana.run(['approvals', 'approve', id, '--yes', '-o', 'json'], b);
      expect(approved.stderr).toMatch(/is sent, not waiting for approvals/);
      expect((await moneySent()).map((e) => e.status)).toEqual([409, 200]);
      const shown = JSON.parse((await ivy.run(['approvals', 'show', id, '-o', 'json'], b)).stdout) as HeldJson;
      expect([shown.status, shown.rows.map((r) => r.status)]).toEqual(['sent', ['sent', 'sent']]);
      const upstream = await upstreamRefs(ivy);
      expect(refIds.map((ref) => upstream.get(ref)?.length)).toEqual([1, 1]);
      expect(shown.rows.map((r) => r.transfer_id)).toEqual(refIds.map((ref) => upstream.get(ref)![0]));
      await setPolicy('assets: [BTC, ETH]\n');
    });

    it("a row's own request by its ref_id, past the lease, takes the batch over and is answered with its transfer", async () => {
      a = await first();
      const { ivy, id, refIds } = await heldBatch('row', ['0.0031', '0.0032'], 1);
      await a.close();
      const shown = JSON.parse((await ivy.run(['approvals', 'show', id, '-o', 'json'], b)).stdout) as HeldJson;
      const second = shown.request.rows[1];
      // Still leased: answered 202 with the batch, nothing sent.
      expect((await ivy.post(b, '/v2/transfer/crypto-withdrawals', second)).status).toBe(202);
      expect(await moneySent()).toEqual([]);
      skew += LEASE_MS + 1000;
      const answered = await ivy.post(b, '/v2/transfer/crypto-withdrawals', second);
      expect(answered.status).toBe(200);
      expect((await moneySent()).map((e) => e.status)).toEqual([409, 200]);
      const upstream = await upstreamRefs(ivy);
      expect(refIds.map((ref) => upstream.get(ref)?.length)).toEqual([1, 1]);
      expect(((await answered.json()) as { id: string }).id).toBe(upstream.get(refIds[1])![0]);
      expect((await leaseOf(id)).status).toBe('sent');
      await setPolicy('assets: [BTC, ETH]\n');
    });

    /** A single withdrawal held for two approvals, approved through the first instance, which stops once it is sent. */
    async function heldSingle(name: string, amount: string) {
      a = await first();
      const ivy = await operator('initiator');
      const ana = await operator('approver');
      const bo = await operator('approver');
      const keys = [ana.configDir, bo.configDir].map((d) => `    - ${approverKey(d).publicKey.text}\n`).join('');
      const cap = await tightCap(ivy, [amount]);
      await setPolicy(
        `approvals:\n  required: 2\n  environments: [local]\n  keys:\n${keys}max_per_24h:\n  BTC: "${cap}"\n`,
      );
      const ref = `held-lease-${name}-${engine}`;
      const withdraw = ['withdraw', ...transferFlags('BTC', amount), '--ref-id', ref, '--yes', '-o', 'json'];
      const held = await ivy.run(withdraw);
      expect(held.code, held.stderr).toBe(0);
      const id = (JSON.parse(held.stdout) as HeldJson).pending_id;
      expect((await ana.run(['approvals', 'approve', id, '--yes'])).code).toBe(0);
      expect(await moneySent()).toEqual([]);
      stopHeld = true;
      const last = await bo.run(['approvals', 'approve', id, '--yes']);
      stopHeld = false;
      expect(last.code).not.toBe(0);
      expect((await moneySent()).map((e) => e.status)).toEqual([200]);
      const left = await leaseOf(id);
      expect([left.status, Boolean(left.lease_holder)]).toEqual(['sending', true]);
      expect(Number(left.lease_until)).toBeGreaterThan(now());
      await a.close();
      // The lease still holds: the other instance takes nothing over (shown, approved, retried: all still sending).
      const shown = await ana.run(['approvals', 'show', id, '-o', 'json'], b);
      expect((JSON.parse(shown.stdout) as HeldJson).status).toBe('sending');
      expect((await bo.run(['approvals', 'approve', id, '--yes'], b)).code).not.toBe(0);
      const retried = await ivy.run(withdraw, b);
      expect((JSON.parse(retried.stdout) as HeldJson).status).toBe('sending');
      expect(await moneySent()).toEqual([]);
      expect(await leaseOf(id)).toEqual(left);
      skew += LEASE_MS + 1000;
      return { ivy, ana, bo, id, ref, withdraw, cap };
    }

    /** The held request sent once past its lease: one transfer at the upstream, reserved once, the chain whole. */
    async function sentOnce(who: Awaited<ReturnType<typeof operator>>, held: Awaited<ReturnType<typeof heldSingle>>) {
      const { id, ref } = held;
      // Sent by the stopped instance, not recorded: the upstream's 409 with the same transfer, nothing moved again.
      expect((await moneySent()).map((e) => e.status)).toEqual([409]);
      const upstream = await upstreamRefs(who);
      expect(upstream.get(ref)).toHaveLength(1);
      const after = await leaseOf(id);
      expect([after.status, after.lease_holder, after.lease_until]).toEqual(['sent', null, null]);
      const shown = JSON.parse((await who.run(['approvals', 'show', id, '-o', 'json'], b)).stdout) as HeldJson & {
        result: { id: string };
      };
      expect(shown.result.id).toBe(upstream.get(ref)![0]);
      expect((await reservations([ref])).length).toBe(1);
      const verified = await who.run(['audit', 'verify', '--gateway', '-o', 'json'], b);
      expect(verified.code, verified.stderr).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
      const listed = await who.run(['audit', 'list', '--gateway', '--ref-id', ref, '-o', 'json'], b);
      const entries = JSON.parse(listed.stdout) as { what: Record<string, unknown>; outcome: { result: string } }[];
      expect(entries.filter((e) => e.what.resumed === true).map((e) => e.outcome.result)).toEqual(['attempt']);
      // Its transfer in the chain twice: by the stopped instance (the attempt before it) and by the other.
      expect(entries.filter((e) => e.outcome.result === 'sent').length).toBe(2);
      // Reserved once: the cap (with this withdrawal counted once) leaves 0.0005 to the initiator.
      await capHeld(held.ivy, held.cap);
      await setPolicy('assets: [BTC, ETH]\n');
      return upstream.get(ref)![0];
    }

    it("a single held withdrawal left sending: the initiator's --wait-approval retry of its ref_id completes it once", async () => {
      const held = await heldSingle('retry', '0.0041');
      const done = await held.ivy.run([...held.withdraw, '--wait-approval'], b);
      expect(done.code, done.stderr).toBe(0);
      const transfer = await sentOnce(held.ivy, held);
      expect(JSON.parse(done.stdout)).toMatchObject({ id: transfer, ref_id: held.ref, amount: '0.0041' });
    });

    it('a single held withdrawal left sending: a GET of it past the lease completes it once', async () => {
      const held = await heldSingle('show', '0.0042');
      const shown = JSON.parse(
        (await held.ana.run(['approvals', 'show', held.id, '-o', 'json'], b)).stdout,
      ) as HeldJson;
      expect(shown.status).toBe('sent');
      await sentOnce(held.ana, held);
    });

    it('a single held withdrawal left sending: an approve of it past the lease completes it once', async () => {
      const held = await heldSingle('approve', '0.0043');
      const approved = await held.bo.run(['approvals', 'approve', held.id, '--yes'], b);
      expect(approved.stderr).toMatch(/is sent, not waiting for approvals/);
      await sentOnce(held.bo, held);
    });
  });
}
