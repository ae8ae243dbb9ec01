// The gateway's door, on SQLite and on PostgreSQL: the upstream's 429 on a withdrawal comes back with its Retry-After
// (the money desk's answer carries it); the token endpoint limits failed attempts per client id and per remote address
// (429 with Retry-After, before any secret is hashed); an initiator who may also approve (an admin) cannot approve
// their own held withdrawal (403 own-request, nothing sent).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { openSql } from '../../src/gateway/sql.js';
import { approvalText, contentFromLines } from '../../src/policy/approvals.js';
import { approverKey } from '../../src/policy/keys.js';
import { baseEnv, ETH_ADDRESS, runInProcess, sandbox, type Sandbox } from '../cli/helpers.js';
import { clientToken, tokenAnswer } from '../support/tokens.js';
import { until } from '../support/wait.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { ENGINES, type TestStore } from './support.js';

for (const [engine, openStore] of ENGINES) {
  describe(`the gateway's door on ${engine}`, () => {
    let sb: Sandbox;
    let t: TestStore;
    let store: GatewayStore;
    let gw: TestGateway;
    let n = 0;

    beforeAll(async () => {
      sb = await sandbox();
      t = await openStore();
      store = new GatewayStore(await openSql(t.url));
      await store.init();
      gw = await startTestGateway(sb, t.url, { tokenFailuresPerMinute: { client: 3, address: 8 } });
    });
    afterAll(async () => {
      await gw?.close();
      await store?.sql.close();
      await t?.drop();
      await sb?.close();
    });

    async function operator(role: 'initiator' | 'admin') {
      const name = `${role}-${++n}`;
      const creds = await store.addOperator(name, role);
      return { name, creds, token: await clientToken(gw.url, creds) };
    }

    const withdrawal = (ref: string) => ({
      profile_id: DEMO.profileId,
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      destination_address: ETH_ADDRESS,
      amount: '0.001',
      ref_id: `${ref}-${engine}`,
    });
    const post = (token: string, path: string, body: unknown) =>
      fetch(`${gw.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const moneySent = async () =>
      (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));

    async function setPolicy(text: string): Promise<void> {
      const file = join(sb.dir, `policy-${engine}-${++n}.yaml`);
      writeFileSync(file, text);
      const r = await runInProcess(['gateway', 'policy', 'set', file, '--store', t.url], sb.env);
      expect(r.code, r.stderr).toBe(0);
    }

    it("passes the upstream's 429 on a withdrawal back with its Retry-After", async () => {
      const ivy = await operator('initiator');
      await sb.control('PUT', '/_local/faults', {
        rate429: 1,
        pathPrefix: '/v2/transfer/crypto-withdrawals',
        method: 'POST',
      });
      try {
        const r = await post(ivy.token, '/v2/transfer/crypto-withdrawals', withdrawal('gw-429'));
        expect(r.status).toBe(429);
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.headers.get('content-type')).toContain('application/problem+json');
      } finally {
        await sb.control('PUT', '/_local/faults', {});
      }
    });

    it('an admin who initiated a held withdrawal cannot approve it (403 own-request), and nothing is sent', async () => {
      const ada = await operator('admin');
      const keyDir = join(sb.dir, `ada-${engine}`);
      await setPolicy(
        `approvals:\n  required: 1\n  environments: [local]\n  keys:\n    - ${approverKey(keyDir).publicKey.text}\n`,
      );
      try {
        await moneySent();
        const held = await post(ada.token, '/v2/transfer/crypto-withdrawals', withdrawal('gw-own'));
        expect(held.status).toBe(202);
        const id = ((await held.json()) as { pending_id: string }).pending_id;
        const shown = (await (
          await fetch(`${gw.url}/_gateway/approvals/${id}`, { headers: { authorization: `Bearer ${ada.token}` } })
        ).json()) as { content: string[] };
        const approval = approvalText(
          contentFromLines(shown.content)!,
          approverKey(keyDir),
          `gateway:${id}`,
          new Date().toISOString(),
        );
        const r = await post(ada.token, `/_gateway/approvals/${id}/approve`, { approval });
        expect(r.status).toBe(403);
        expect(((await r.json()) as { type: string }).type).toMatch(/own-request$/);
        expect(await moneySent()).toEqual([]);
        expect((await store.pending(id))?.status).toBe('pending');
      } finally {
        await setPolicy('assets: [BTC, ETH]\n');
      }
    });

    interface Entry {
      kind: string;
      who: { operator?: string; client_id?: string };
      what: { method?: string; operation?: string; path?: string; http_status?: number; address?: string };
      outcome: { result: string };
    }
    const requests = async () =>
      (await store.auditLines())
        .map((l) => JSON.parse(l.line) as Entry)
        .filter((e) => e.kind === 'gateway_request')
        .map((e) => [
          e.who.operator,
          e.what.method,
          e.what.operation ?? e.what.path,
          e.what.http_status,
          e.outcome.result,
        ]);

    it('puts every request in the chain: refusals at the door and writes before the answer, reads soon after', async () => {
      const vi = await operator('initiator');
      const viewer = await store.addOperator(`viewer-${engine}`, 'viewer');
      const viewerToken = await clientToken(gw.url, viewer);
      const before = (await requests()).length;
      const last = async (count: number) => (await requests()).slice(before).slice(-count);
      // Refusals at the door, each in the chain when its answer comes.
      expect((await fetch(`${gw.url}/v2/profiles/${DEMO.profileId}`)).status).toBe(401);
      expect(await last(1)).toEqual([['unauthenticated', 'GET', `/v2/profiles/${DEMO.profileId}`, 401, 'refused']]);
      const cross = await fetch(`${gw.url}/v2/profiles`, {
        headers: { authorization: `Bearer ${vi.token}`, origin: 'https://evil.example' },
      });
      expect(cross.status).toBe(403);
      expect(await last(1)).toEqual([['unauthenticated', 'GET', '/v2/profiles', 403, 'refused']]);
      const big = await post(vi.token, '/v2/profiles', { pad: 'x'.repeat((1 << 20) + 10) });
      expect(big.status).toBe(413);
      expect(await last(1)).toEqual([['unauthenticated', 'POST', '/v2/profiles', 413, 'refused']]);
      const above = await post(viewerToken, '/v2/profiles', { nickname: 'nope' });
      expect(above.status).toBe(403);
      expect(await last(1)).toEqual([[`viewer-${engine}`, 'POST', 'createProfile', 403, 'refused']]);
      const money = await post(viewerToken, '/v2/transfer/crypto-withdrawals', withdrawal('gw-viewer'));
      expect(money.status).toBe(403);
      expect(await last(1)).toEqual([[`viewer-${engine}`, 'POST', 'createCryptoWithdrawal', 403, 'refused']]);
      // A write that moves no money: forwarded, in the chain before its answer.
      const made = await post(vi.token, '/v2/profiles', { nickname: `door-${engine}` });
      expect(made.status).toBe(200);
      expect(await last(1)).toEqual([[vi.name, 'POST', 'createProfile', 200, 'sent']]);
      // A read: answered first, its entry appended in the background (in a group with others).
      const reads = await Promise.all(
        [1, 2, 3].map(() =>
          fetch(`${gw.url}/v2/profiles/${DEMO.profileId}`, { headers: { authorization: `Bearer ${vi.token}` } }),
        ),
      );
      expect(reads.map((r) => r.status)).toEqual([200, 200, 200]);
      await until('the reads in the chain', async () => (await requests()).length >= before + 9);
      expect(await last(3)).toEqual(Array(3).fill([vi.name, 'GET', 'getProfile', 200, 'answered']));
      // The gateway's own API too: a read of it (in the background), and a write it refuses (before its answer).
      const mine = await fetch(`${gw.url}/_gateway/whoami`, { headers: { authorization: `Bearer ${vi.token}` } });
      expect(mine.status).toBe(200);
      await until('the whoami read in the chain', async () => (await requests()).length >= before + 10);
      expect(await last(1)).toEqual([[vi.name, 'GET', '/_gateway/whoami', 200, 'answered']]);
      const own = await post(viewerToken, '/_gateway/policy', { policy: 'approvals: nope' });
      expect(own.status).toBe(403);
      expect(await last(1)).toEqual([[`viewer-${engine}`, 'POST', '/_gateway/policy', 403, 'refused']]);
      // One chain, whole, and `audit list --gateway` says who asked what.
      const env = baseEnv(join(sb.dir, vi.name));
      const login = await gatewayLogin(gw, { client_id: vi.creds.clientId, client_secret: vi.creds.secret }, env);
      expect(login.code, login.stderr).toBe(0);
      const cli = (args: string[]) => runInProcess(args, { ...env, COINOP_CONTEXT: 'gw' });
      const verified = await cli(['audit', 'verify', '--gateway', '-o', 'json']);
      expect(verified.code, verified.stderr).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
      const listed = await cli(['audit', 'list', '--gateway', '--kind', 'gateway_request', '--all', '-o', 'table']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`${vi.name}: POST createProfile 200`);
      expect(listed.stdout).toMatch(/unauthenticated from [0-9a-f.:]+: GET \/v2\/profiles\/\S+ 401/);
    });

    it("appends a group of reads' entries in one statement, chained, and falls back entry by entry when raced", async () => {
      const who = { os_user: 'coinop-gateway', operator: 'group-test' };
      const event = (n: number) => ({
        kind: 'gateway_request' as const,
        what: { method: 'GET', path: `/v2/group/${n}`, http_status: 200 },
        outcome: { result: 'answered' as const },
      });
      const group = await store.appendAuditGroup([1, 2, 3].map((n) => ({ who, event: event(n) })));
      // Another store object on the same chain writes first: this one's known head is stale, so its group races.
      const other = new GatewayStore(await openSql(t.url));
      try {
        await other.appendAudit([{ who, event: event(4) }]);
      } finally {
        await other.sql.close();
      }
      const raced = await store.appendAuditGroup([5, 6].map((n) => ({ who, event: event(n) })));
      expect([...group, ...raced].map((e) => e.what.path)).toEqual([1, 2, 3, 5, 6].map((n) => `/v2/group/${n}`));
      const lines = (await store.auditLines()).map((l) => l.line);
      const entries = lines.map((l) => JSON.parse(l) as { seq: number; prev: string; what: { path?: string } });
      expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
      for (let i = 1; i < lines.length; i++)
        expect(entries[i].prev).toBe(
          createHash('sha256')
            .update(lines[i - 1])
            .digest('hex'),
        );
      // (Other requests of the file, this one's reads of the chain included, have entries of their own between.)
      const ours = entries.filter((e) => e.what.path?.startsWith('/v2/group/'));
      expect(ours.map((e) => e.what.path)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `/v2/group/${n}`));
    });

    // Last: it empties this address's bucket, so no operator can have a token after it.
    it('limits failed token requests per client id and per address: 429 with Retry-After, the right secret too', async () => {
      const ivy = await operator('initiator');
      const ask = (clientId: string, secret: string) => tokenAnswer(gw.url, { clientId, secret });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await ask(ivy.creds.clientId, `wrong-${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const locked = await ask(ivy.creds.clientId, ivy.creds.secret);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(locked.headers.get('content-type')).toContain('application/problem+json');
      expect(JSON.stringify(await locked.json())).not.toContain(ivy.creds.secret);
      // Another client id from the same address: its own bucket, until the address's is empty (3 + 5 = 8 failures).
      const other = await operator('initiator');
      const more: number[] = [];
      for (let i = 0; i < 6; i++) more.push((await ask(`guess-${engine}-${i}`, 'nothing')).status);
      expect(more).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await ask(other.creds.clientId, other.creds.secret)).status).toBe(429);
      // Each failed token request is in the chain with the client id asked for; no secret is anywhere in it.
      const chain = (await store.auditLines()).map((l) => l.line);
      const tokenEntries = chain.map((l) => JSON.parse(l) as Entry).filter((e) => e.what.path === '/oauth2/token');
      expect(tokenEntries.filter((e) => e.who.client_id === ivy.creds.clientId).map((e) => e.what.http_status)).toEqual(
        [200, 401, 401, 401, 429, 429],
      );
      // A token issued names its operator; a refusal, 'unauthenticated' and the address it came from.
      expect(
        tokenEntries.filter((e) => e.what.http_status === 200).every((e) => e.who.operator !== 'unauthenticated'),
      ).toBe(true);
      const refusals = tokenEntries.filter((e) => e.what.http_status !== 200);
      expect(refusals.length).toBe(12); // ivy 3 + 2, the guesses 5 + 1, the other operator 1
      expect(refusals.every((e) => e.who.operator === 'unauthenticated' && e.what.address)).toBe(true);
      for (const secret of [ivy.creds.secret, other.creds.secret, 'wrong-0', 'nothing'])
        expect(chain.join('\n')).not.toContain(secret);
    });
  });
}
