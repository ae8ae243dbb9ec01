// The gateway's own API (/_gateway/..., src/contract/gateway.ts): a request is matched to its operation and its query
// and body are checked against the operation's schemas before any handler runs; bad input is a problem+json 400
// naming the field, and nothing changes in the store.
import { describe, expect, it } from 'vitest';
import { gatewayOperationAt, gatewayOperations, gatewayPath } from '../../src/contract/gateway.js';
import { runInProcess } from '../cli/helpers.js';
import { clientToken } from '../support/tokens.js';
import { gatewayFixture } from './harness.js';
import { ENGINES } from './support.js';

describe('the gateway API operations', () => {
  it('match a method and path to one operation with its params, or name the methods the path answers', () => {
    expect(gatewayOperationAt('POST', '/_gateway/approvals/p-1/approve')).toEqual({
      op: gatewayOperations.approve,
      params: { id: 'p-1' },
    });
    expect(gatewayOperationAt('PUT', '/_gateway/policy')).toMatchObject({ op: gatewayOperations.setPolicy });
    expect(gatewayOperationAt('GET', '/_gateway/approvals/p-1/approve')).toEqual({ methods: ['POST'] });
    expect(gatewayOperationAt('GET', '/_gateway/nothing')).toBeUndefined();
    expect(gatewayOperationAt('GET', '/_gateway/approvals/%zz')).toEqual({
      op: gatewayOperations.showApproval,
      params: { id: '%zz' },
    });
    expect(gatewayPath(gatewayOperations.reject, { id: 'a/b' })).toBe('/_gateway/approvals/a%2Fb/reject');
  });
});

for (const [engine, openStore] of ENGINES) {
  describe(`the gateway's own API on ${engine}`, () => {
    const fx = gatewayFixture(openStore);
    let n = 0;

    async function tokenOf(role: string): Promise<string> {
      const added = await runInProcess(
        ['gateway', 'operators', 'add', `${role}-${++n}`, '--role', role, '--store', fx.storeUrl, '-o', 'json'],
        { ...fx.sb.env, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined },
      );
      expect(added.code, added.stderr).toBe(0);
      const creds = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
      return clientToken(fx.gw.url, { clientId: creds.client_id, secret: creds.client_secret });
    }

    const ask = async (token: string, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${fx.gw.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: r.status,
        type: r.headers.get('content-type') ?? '',
        json: (await r.json()) as { detail?: string },
      };
    };

    it('answers bad input with a problem+json 400 naming the field, before any handler', async () => {
      const admin = await tokenOf('admin');
      const cases: [string, string, unknown, string][] = [
        ['POST', '/_gateway/approvals/nope/approve', {}, 'approval'],
        ['POST', '/_gateway/approvals/nope/reject', { reason: 7 }, 'reason'],
        ['POST', '/_gateway/batches', { rows: [] }, 'rows'],
        ['POST', '/_gateway/batches', { rows: [1] }, 'rows'],
        ['PUT', '/_gateway/policy', { policy: 5 }, 'policy'],
        ['GET', '/_gateway/approvals?status=bogus', undefined, 'status'],
        ['GET', '/_gateway/audit?after=x', undefined, 'after'],
      ];
      for (const [method, path, body, field] of cases) {
        const answer = await ask(admin, method, path, body);
        expect(answer.status, `${method} ${path}`).toBe(400);
        expect(answer.type).toContain('application/problem+json');
        expect(answer.json.detail).toMatch(new RegExp(`^${field}\\b`));
      }
      // The approval of an id not held got past the check only with a well-formed body: then it is not found.
      expect((await ask(admin, 'POST', '/_gateway/approvals/nope/approve', { approval: 'x' })).status).toBe(404);
      expect((await ask(admin, 'GET', '/_gateway/policy/history')).json).toEqual({ items: [] });
    });

    it('answers a known path in another method 405 and an unknown path 404', async () => {
      const admin = await tokenOf('admin');
      expect((await ask(admin, 'POST', '/_gateway/whoami', {})).status).toBe(405);
      expect((await ask(admin, 'GET', '/_gateway/nothing')).status).toBe(404);
    });
  });
}
