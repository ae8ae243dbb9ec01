// coinop approvals' runs with fakes of their ports: a Display that keeps what it wrote, a confirmer that answers as
// told, the fixed clock, a configuration directory of the test's own (the approver key), and as the service a fake
// gateway in this test: its inbox of held requests, the operator it says the caller is, and what was posted to it.
import { describe, expect, it } from 'vitest';
import type { HeldRequest } from '../../src/client/gateway-calls.js';
import type { HttpResponse } from '../../src/client/transport.js';
import type { Connector } from '../../src/cli/ports.js';
import { CoinopError } from '../../src/cli/errors.js';
import { approve, list, reject, show } from '../../src/commands/approvals/run.js';
import { ContentBuilder, contentLines } from '../../src/policy/approvals.js';
import { fakeConfirmer, fakeDisplay, fixedClock, sharedLocalFixture, NOW } from './ports.js';
import { usageMessageOf } from './support.js';

const WITHDRAWAL = {
  profile_id: 'p-1',
  asset: 'BTC',
  crypto_network: 'BITCOIN',
  destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  amount: '0.25',
  ref_id: 'r-1',
};

/** A request the gateway holds, its statement made from its request as the gateway makes it. */
function heldRequest(id: string, initiator: string): HeldRequest {
  const b = new ContentBuilder({ kind: 'withdrawal', environment: 'local', service: 'http://gw', profileId: 'p-1' });
  b.add(WITHDRAWAL);
  return {
    pending_id: id,
    status: 'pending',
    operation: 'createCryptoWithdrawal',
    initiator,
    ref_id: 'r-1',
    request: WITHDRAWAL,
    what: { asset: 'BTC', network: 'BITCOIN', amount: '0.25', destination: WITHDRAWAL.destination_address },
    content: contentLines(b.finish()),
    approvals: [],
    approvals_required: 1,
    created_at: new Date(NOW).toISOString(),
    expires_at: new Date(NOW + 3_600_000).toISOString(),
    result: null,
  };
}

/** A gateway's approvals API over an inbox, as `operator` with `role`; what was posted is kept. */
function fakeGateway(operator: string, role: string) {
  const inbox = new Map<string, HeldRequest>();
  const posted: { path: string; body: unknown }[] = [];
  const answer = (status: number, json: unknown): HttpResponse => ({
    status,
    statusText: status === 200 ? 'OK' : 'Not Found',
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(json),
    json,
    ms: 1,
    attempts: 1,
    earlierAttemptMayHaveReached: false,
  });
  const client = {
    async raw(method: string, path: string, body: unknown): Promise<HttpResponse> {
      if (path === '/_gateway/whoami') return answer(200, { operator, role });
      if (path.startsWith('/_gateway/approvals?') || path === '/_gateway/approvals')
        return answer(200, { items: [...inbox.values()] });
      const [, id, action] = path.match(/^\/_gateway\/approvals\/([^/]+)(?:\/(\w+))?$/) ?? [];
      const h = inbox.get(decodeURIComponent(id ?? ''));
      if (!h) return answer(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such request' });
      if (method === 'POST') {
        posted.push({ path, body });
        if (action === 'approve') Object.assign(h, { approvals: [{ operator, at: new Date(NOW).toISOString() }] });
        Object.assign(h, action === 'approve' ? { status: 'sent', result: { id: 't-1' } } : { status: 'rejected' });
      }
      return answer(200, h);
    },
  };
  return { inbox, posted, client };
}

const local = sharedLocalFixture();

function ports(gw: ReturnType<typeof fakeGateway>, answer: 'confirmed' | 'no' = 'confirmed') {
  const real = local.connector();
  const service: Connector = {
    ...real,
    async connect() {
      return { ...(await real.connect()), client: gw.client as never };
    },
  };
  return {
    display: fakeDisplay(),
    service,
    confirmer: fakeConfirmer(answer),
    clock: fixedClock(),
    policy: local.policy,
  };
}

describe('approvals run', () => {
  it('list and show: the inbox as JSON, and one held request', async () => {
    const gw = fakeGateway('bob', 'approver');
    gw.inbox.set('h-1', heldRequest('h-1', 'alice'));
    const listed = ports(gw);
    await list(listed, 'pending');
    expect((JSON.parse(listed.display.stdout) as HeldRequest[]).map((h) => h.pending_id)).toEqual(['h-1']);
    const shown = ports(gw);
    await show(shown, 'h-1');
    expect(JSON.parse(shown.display.stdout)).toMatchObject({ pending_id: 'h-1', initiator: 'alice' });
  });

  it('approve: confirms the request worked out again here, then posts the signed approval', async () => {
    const gw = fakeGateway('bob', 'approver');
    gw.inbox.set('h-1', heldRequest('h-1', 'alice'));
    const p = ports(gw);
    await approve(p, 'h-1', true);
    expect(p.confirmer.shown[0].title).toBe("Approve alice's withdrawal held as h-1");
    expect(gw.posted.map((x) => x.path)).toEqual(['/_gateway/approvals/h-1/approve']);
    const signed = (gw.posted[0].body as { approval: string }).approval;
    for (const line of gw.inbox.get('h-1')!.content) expect(signed).toContain(line);
    expect(p.display.stderr).toContain('approved: that was the last approval needed, and the gateway sent it (t-1)');
  });

  it('approve refuses, signing nothing: a statement that is not the request, the initiator, a viewer, not pending', async () => {
    const forged = fakeGateway('bob', 'approver');
    const h = heldRequest('h-1', 'alice');
    forged.inbox.set('h-1', { ...h, request: { ...WITHDRAWAL, amount: '25' } });
    const e = await approve(ports(forged), 'h-1', true).catch((error: unknown) => error);
    expect(e instanceof CoinopError && [e.category, e.message.endsWith('nothing was signed')]).toEqual([
      'integrity',
      true,
    ]);

    const own = fakeGateway('alice', 'approver');
    own.inbox.set('h-1', heldRequest('h-1', 'alice'));
    const mine = await approve(ports(own), 'h-1', true).catch((error: unknown) => error);
    expect(mine instanceof CoinopError && mine.category).toBe('policy');

    const viewer = fakeGateway('carol', 'viewer');
    viewer.inbox.set('h-1', heldRequest('h-1', 'alice'));
    const notApprover = await approve(ports(viewer), 'h-1', true).catch((error: unknown) => error);
    expect(notApprover instanceof CoinopError && notApprover.message).toBe(
      'carol is a viewer at this gateway: only approvers approve',
    );

    const done = fakeGateway('bob', 'approver');
    done.inbox.set('h-1', { ...heldRequest('h-1', 'alice'), status: 'sent' });
    expect(await usageMessageOf(approve(ports(done), 'h-1', true))).toBe('ID: h-1 is sent, not waiting for approvals');
    for (const gw of [forged, own, viewer, done]) expect(gw.posted).toEqual([]);
  });

  it('the approver says no: nothing is posted', async () => {
    const gw = fakeGateway('bob', 'approver');
    gw.inbox.set('h-1', heldRequest('h-1', 'alice'));
    const e = await approve(ports(gw, 'no'), 'h-1', false).catch((error: unknown) => error);
    expect(e instanceof CoinopError && e.category).toBe('cancelled');
    expect(gw.posted).toEqual([]);
  });

  it('reject: posts the reason and says the request will never be sent', async () => {
    const gw = fakeGateway('bob', 'approver');
    gw.inbox.set('h-1', heldRequest('h-1', 'alice'));
    const p = ports(gw);
    await reject(p, 'h-1', 'wrong address');
    expect(gw.posted).toEqual([{ path: '/_gateway/approvals/h-1/reject', body: { reason: 'wrong address' } }]);
    expect(p.display.stderr).toBe('rejected: h-1 will never be sent\n');
    expect(JSON.parse(p.display.stdout)).toMatchObject({ pending_id: 'h-1', status: 'rejected' });
  });
});
