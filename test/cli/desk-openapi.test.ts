// coinop profiles, balances and transfer internal against the hosted service's OpenAPI, checked by openapi-backend:
// every request they send validates against the description's parameters and request bodies (and names no query
// parameter it lacks), and they read the answers the description publishes (its mock responses).
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationOf, publishedAnswer, requestViolations, STUB_HEALTH } from '../support/openapi.js';
import { baseEnv, runInProcess } from './helpers.js';
import { closeServer, listenOnLoopback } from '../support/http-server.js';

interface Recorded {
  operation?: string;
  problems: string[];
}

let server: Server;
let base: string;
let dir: string;
const recorded: Recorded[] = [];

/** Query parameters the operation does not declare. */
function unknownQuery(method: string, url: URL): string[] {
  const declared = new Set(
    (operationOf(method, url.pathname)?.parameters ?? [])
      .map((p) => p as { in?: string; name?: string })
      .filter((p) => p.in === 'query')
      .map((p) => p.name),
  );
  return [...new Set(url.searchParams.keys())]
    .filter((k) => !declared.has(k))
    .map((k) => `unknown query parameter ${k}`);
}

/** The hosted service as its description has it: a token for anybody, each operation's request checked, its mock answered. */
async function answer(method: string, url: URL, text: string): Promise<{ status: number; body: unknown }> {
  if (url.pathname === '/oauth2/token')
    return { status: 200, body: { access_token: 't', expires_in: 3600, token_type: 'bearer' } };
  // The local context's probe of which service answers: the stub names an instance, as a local service does.
  if (url.pathname === '/_local/health') return { status: 200, body: STUB_HEALTH };
  if (url.pathname.startsWith('/_local/')) return { status: 404, body: { title: 'Not Found', status: 404 } };
  const target = url.pathname + url.search;
  const operation = operationOf(method, target);
  if (!operation) {
    recorded.push({ problems: [`no operation ${method} ${url.pathname}`] });
    return { status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404 } };
  }
  recorded.push({
    operation: operation.operationId,
    problems: [...requestViolations(method, target, text ? JSON.parse(text) : undefined), ...unknownQuery(method, url)],
  });
  return publishedAnswer(operation.operationId as string);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-desk-openapi-'));
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const { status, body } = await answer(req.method ?? 'GET', url, Buffer.concat(chunks).toString('utf8'));
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  base = await listenOnLoopback(server);
});
afterAll(async () => {
  await closeServer(server);
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) =>
  runInProcess(args, { ...baseEnv(dir), COINOP_BASE_URL: base, COINOP_AUTH_URL: base, COINOP_RETRY_BASE_MS: '1' });

describe('coinop profiles, balances and transfer internal against the OpenAPI description', () => {
  it('the checks catch a request the description does not allow', () => {
    expect(requestViolations('POST', '/v2/transfer/internal', { asset: 'BTC' })).not.toEqual([]);
    expect(unknownQuery('GET', new URL('http://stub/v2/profiles?bogus=1'))).toEqual(['unknown query parameter bogus']);
  });

  it('sends valid requests of every operation and reads the published answers', async () => {
    const cases: [string[], string[], (out: string) => void][] = [
      [
        [
          'profiles',
          'list',
          '--nickname',
          'My',
          '--id',
          'a,b',
          '--created-after',
          '24h',
          '--created-until',
          'now',
          '--limit',
          '5',
          '--order',
          'DESC',
        ],
        ['ListProfiles'],
        (o) => expect(JSON.parse(o).map((p: any) => p.type)).toEqual(['DEFAULT', 'NORMAL']),
      ],
      [
        ['profiles', 'get', 'default', '--include-deactivated'],
        ['GetProfile'],
        (o) => expect(JSON.parse(o).id).toBeTruthy(),
      ],
      [
        ['profiles', 'create', '--nickname', 'payroll', '--description', 'salaries'],
        ['CreateProfile'],
        (o) => expect(JSON.parse(o)).toHaveProperty('nickname'),
      ],
      [
        ['balances', 'BTC', 'USD', '--profile-id', 'b7b77d82-e6a7-4ae9-9904-36231aedf985'],
        // A profile named on the command line is looked up first (an unknown one is refused by name).
        ['ListProfiles', 'ListProfileBalances'],
        // The published answer, its ".25" as written.
        (o) => expect(JSON.parse(o)[0]).toEqual({ asset: 'BTC', available: '1.23103715', trading: '.25' }),
      ],
      [
        ['balances', '--all-profiles'],
        ['ListProfiles', 'ListProfileBalances', 'ListProfileBalances'],
        (o) => expect(JSON.parse(o).length).toBeGreaterThan(1),
      ],
      [
        [
          'transfer',
          'internal',
          '--from-profile-id',
          'b7b77d82-e6a7-4ae9-9904-36231aedf985',
          '--to-profile-id',
          // The published list's DEFAULT profile: an internal transfer's recipient is one of the caller's profiles.
          '1a763ac5-13d9-4568-bb8b-747c416b105c',
          '--asset',
          'BTC',
          '--amount',
          '0.05',
          '--meta',
          'my_id=1',
          '--recipient-meta',
          'your_id=2',
          '--yes',
        ],
        // Both profiles looked up by one list; the gate's funds preflight reads the sender's balance first.
        ['ListProfiles', 'ListProfileBalances', 'CreateInternalTransfer'],
        (o) => expect(JSON.parse(o)).toMatchObject({ type: 'INTERNAL_TRANSFER_DEBIT', group_id: expect.any(String) }),
      ],
    ];
    for (const [args, operations, check] of cases) {
      recorded.splice(0);
      const r = await run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      check(r.stdout);
      expect(recorded, args.join(' ')).toEqual(operations.map((operation) => ({ operation, problems: [] })));
    }
  });
});
