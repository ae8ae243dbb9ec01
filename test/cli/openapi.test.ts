// coinop against the published OpenAPI description: every request it sends validates against the request schemas
// and parameters, and it reads the published example responses (prices under `prices`, the 409 already-exists).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { parseQuery, Reply, Router, send, type Request } from '../../src/local/router.js';
import { OPENAPI, requestViolations, STUB_HEALTH } from '../support/openapi.js';
import { baseEnv, runCoinop, runInProcess } from './helpers.js';
import { transferFlags, FIVE_OLDEST } from '../support/command-lines.js';
import { closeServer, listenOnLoopback } from '../support/http-server.js';

// The hosted service's description, as the project keeps it (spec/README.md says where it came from); requests are
// checked by the independent validator of test/support/openapi.ts.
const spec = OPENAPI;

interface Recorded {
  method: string;
  path: string;
  problems: string[];
  /** The request carried an Authorization header. */
  token?: boolean;
}

const resolveRef = (node: any): any => {
  if (!node?.$ref) return node;
  const parts = (node.$ref as string).replace(/^#\//, '').split('/');
  return resolveRef(parts.reduce((a: any, k: string) => a[k], spec));
};

/** The published example of an operation's answer: content example, named examples, else the schema's own. */
function exampleOf(op: any, status: string): unknown {
  const content: any = Object.values(op.responses[status]?.content ?? {})[0];
  if (!content) return {};
  if (content.example !== undefined) return content.example;
  if (content.examples) return resolveRef(Object.values(content.examples)[0]).value;
  const schema = resolveRef(content.schema);
  if (schema.example !== undefined) return schema.example;
  const itemSchema = resolveRef(schema.properties?.items?.items);
  if (itemSchema?.example !== undefined) return { items: [itemSchema.example] };
  return {};
}

let server: Server;
let base: string;
let dir: string;
const recorded: Recorded[] = [];
let conflict = false;

async function bodyText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-openapi-'));
  // The hosted service as its description has it, on the local service's router: each operation records whether the
  // request validates and answers the published example.
  const router = new Router();
  router.get('/_local/health', () => STUB_HEALTH);
  router.post('/oauth2/token', () => ({
    access_token: 'stub-token',
    expires_in: 3600,
    token_type: 'bearer',
    scope: 'all',
  }));
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put'].includes(method)) continue;
      const url = `/v2${path.replace(/\{(\w+)\}/g, ':$1')}`;
      const add = method === 'get' ? router.get : method === 'put' ? router.put : router.post;
      add.call(router, url, (req: Request, reply: Reply) => {
        const raw = typeof req.body === 'string' && req.body ? JSON.parse(req.body) : undefined;
        recorded.push({
          method: method.toUpperCase(),
          path: req.url,
          problems: requestViolations(method.toUpperCase(), req.url, raw),
          token: req.headers.authorization !== undefined,
        });
        if (conflict && op.responses['409']) {
          reply.code(409).type('application/problem+json');
          return exampleOf(op, '409');
        }
        const status = Object.keys(op.responses).find((s) => s.startsWith('2')) ?? '200';
        reply.code(Number(status));
        return exampleOf(op, status);
      });
    }
  }
  server = createServer(async (raw, res) => {
    const url = raw.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const body = await bodyText(raw);
    const match = router.find(raw.method ?? 'GET', path);
    const reply = new Reply();
    if (!match) return send(res, raw.method ?? 'GET', reply.code(404), { title: 'Not Found', status: 404 });
    const req = {
      raw,
      method: raw.method,
      url,
      path,
      headers: raw.headers,
      socket: raw.socket,
      routeUrl: match.route.pattern,
      params: match.params,
      query: parseQuery(q < 0 ? '' : url.slice(q + 1)),
      body,
    } as Request;
    send(res, req.method, reply, await match.route.handler(req, reply));
  });
  base = await listenOnLoopback(server);
});
afterAll(async () => {
  await closeServer(server);
  rmSync(dir, { recursive: true, force: true });
});

/** The bank a sandbox deposit comes from. */
const SENDING_BANK = [
  ...['--account-number', '1', '--routing-number', '021000021', '--bank-name', 'B'],
  ...['--bank-country', 'US', '--owner-country', 'US'],
];

const env = () => ({ ...baseEnv(dir), COINOP_BASE_URL: base, COINOP_AUTH_URL: base });
const run = (args: string[]) => runCoinop(args, env());
/** Most cases run in process (same client, same requests) to keep the suite quick; the first ones run for real. */
const runIn = (args: string[]) => runInProcess(args, env());
const take = () => recorded.splice(0);

describe('coinop against the OpenAPI description', () => {
  it('the checker itself catches unknown parameters, bad values and incomplete bodies', () => {
    expect(requestViolations('GET', '/v2/transfer/deposit-addresses?bogus=1')).not.toEqual([]);
    expect(requestViolations('GET', '/v2/transfer/deposit-addresses?limit=ten')).not.toEqual([]);
    expect(requestViolations('POST', '/v2/transfer/crypto-withdrawals', { asset: 'BTC' })).not.toEqual([]);
    expect(requestViolations('GET', '/v2/markets/MOONUSD/historical-prices?increment=ONE_DAY')).not.toEqual([]);
  });

  it('sends valid requests and reads the published examples of every operation it uses', async () => {
    const cases: [string[], (out: string) => void][] = [
      [
        ['prices', 'BTCUSD', '--increment', 'ONE_MINUTE', '--from', '2020-01-17T18:00:00Z', '--limit', '10'],
        (stdout) => {
          // The published example names the list `prices`, not `items`.
          expect(JSON.parse(stdout)).toEqual([
            { average_price: '9245.50', timestamp: '2020-01-17T18:36:00.000Z' },
            { average_price: '9265.50', timestamp: '2020-01-17T18:37:00.000Z' },
          ]);
        },
      ],
      [
        ['prices', 'ETHEUR', '--max-points', '20', '--from', '7d', '--to', 'now', '--offset', '3'],
        (o) => expect(JSON.parse(o)).toHaveLength(2),
      ],
      [
        [
          'withdraw',
          ...transferFlags('BTC', '0.001', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'),
          '--profile-id',
          'b7b77d82-e6a7-4ae9-9904-36231aedf985',
          '--meta',
          'my_id=1',
          '--memo',
          'm',
          '--identity-id',
          'i',
          '--account-id',
          'a',
          '--beneficiary',
          '{"name":"Ada"}',
        ],
        (stdout) => {
          expect(JSON.parse(stdout)).toMatchObject({
            id: '373b7966-4290-4be3-a604-51929173437b',
            total: '0.00100223',
            auto_conversion: {},
          });
        },
      ],
      [
        [
          'withdraw',
          '--asset',
          'USDP',
          '--network',
          'ETHEREUM',
          '--address',
          '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
          '--total',
          '10',
          '--balance-asset',
          'USD',
          '--quote',
          '--profile-id',
          // The published list's profile (a profile on the command line is looked up in it).
          'b7b77d82-e6a7-4ae9-9904-36231aedf985',
        ],
        (o) => expect(JSON.parse(o).status).toBe('PENDING'),
      ],
      [
        ['fee', 'quote', ...transferFlags('ETH', '0.001', '0xF0Aa84466e353E5390be37FE2934301c07c19a55')],
        (stdout) => {
          expect(JSON.parse(stdout)).toMatchObject({ id: '34bd61ed-cf0a-4012-8be4-d347667b6154', fee: '0.00005' });
        },
      ],
      [
        [
          'addresses',
          'list',
          '--network',
          'ETHEREUM',
          '--network',
          'BASE',
          '--profile-id',
          // The published list's two profiles (a name would be looked up in it).
          '1a763ac5-13d9-4568-bb8b-747c416b105c,b7b77d82-e6a7-4ae9-9904-36231aedf985',
          '--created-after',
          '2020-01-01T00:00:00Z',
          ...FIVE_OLDEST,
          '--ref-id',
          'r',
          '--id',
          'x',
          '--identity-id',
          'y',
          '--account-id',
          'z',
        ],
        (o) => expect(Array.isArray(JSON.parse(o))).toBe(true),
      ],
      [
        [
          'addresses',
          'create',
          '--network',
          'ETHEREUM',
          '--profile-id',
          'b7b77d82-e6a7-4ae9-9904-36231aedf985',
          '--conversion',
          'USD',
          '--meta',
          'my_id=1',
          '--identity-id',
          'i',
          '--account-id',
          'a',
        ],
        (o) => expect(JSON.parse(o).address).toBe('0x89205A3A3b2A69De6Dbf7f01ED13B2108B2c43e7'),
      ],
      [
        [
          'sandbox',
          'deposit',
          '--amount',
          '10.00',
          '--memo-id',
          '3CFXQSCMSPLFHXLZ',
          ...SENDING_BANK,
          '--owner-city',
          'NYC',
          '--owner-address',
          '1 Main St',
          '--institution',
          'Bank',
        ],
        (o) => expect(JSON.parse(o).initiated).toBe(true),
      ],
      [
        [
          'transfers',
          'list',
          '--status',
          'PENDING',
          '--type',
          'CRYPTO_WITHDRAWAL',
          '--updated-after',
          '1h',
          '--updated-before',
          'now',
          '--limit',
          '3',
          '--order-by',
          'UPDATED_AT',
          '--tx-hash',
          'h',
          '--group-id',
          'g',
          '--ref-id',
          'r',
          '--id',
          'i',
          '--profile-id',
          // The published list's profile (a profile on the command line is looked up in it).
          'b7b77d82-e6a7-4ae9-9904-36231aedf985',
        ],
        (o) => expect(Array.isArray(JSON.parse(o))).toBe(true),
      ],
      [['transfers', 'get', 'f190b163-208f-4d73-8deb-4fb8b24add00'], (o) => expect(JSON.parse(o).id).toBeTruthy()],
      [
        [
          'destinations',
          'put',
          '--network',
          'ETHEREUM',
          '--address',
          '0xe4b0ACa9Fb669817775274775b20e52118595515',
          '--nickname',
          'my_new_address',
          '--bookmark',
          '--identity-id',
          'i',
          '--travel-rule',
          '{"custodian_type":"VASP","vasp":{"custom_vasp_name":"V","custom_vasp_website":"https://v.example"}}',
        ],
        (o) => expect(JSON.parse(o)).toBeTypeOf('object'),
      ],
      [['destinations', 'put', '--id', 'x', '--no-bookmark'], (o) => expect(JSON.parse(o)).toBeTypeOf('object')],
      [
        [
          'destinations',
          'list',
          '--nickname',
          'a,b',
          '--network',
          'ETHEREUM',
          '--address',
          // The OpenAPI example's casing is no valid EIP-55 checksum: the address in one case carries none.
          '0xe4b0aca9fb669817775274775b20e52118595515',
          '--id',
          'x',
          '--identity-id',
          'y',
          '--not-bookmarked',
          '--created-after',
          '2020-01-01T00:00:00Z',
          ...FIVE_OLDEST,
        ],
        (o) => expect(JSON.parse(o)).toEqual([]),
      ],
      [['limits', '--type', 'PAXOS_TRANSFER_DEBIT'], (o) => expect(Array.isArray(JSON.parse(o))).toBe(true)],
      [
        [
          'deposit-instructions',
          'create',
          '--network',
          'WIRE',
          '--routing-type',
          'SWIFT',
          '--profile-id',
          'b7b77d82-e6a7-4ae9-9904-36231aedf985', // the published list's profile
          '--identity-id',
          'i',
          '--account-id',
          'a',
          '--meta',
          'my_id=1',
        ],
        (o) => expect(JSON.parse(o)).toMatchObject({ memo_id: '9CFXQSCMSPLFHXLZ', status: 'VALID' }),
      ],
      [
        ['deposit-instructions', 'list', '--id', 'x', '--ref-id', 'r', '--created-before', 'now', '--limit', '3'],
        (o) => expect(JSON.parse(o)[0].memo_id).toBe('9CFXQSCMSPLFHXLZ'),
      ],
      [
        ['deposit-instructions', 'get', 'f190b163-208f-4d73-8deb-4fb8b24add00'],
        (o) => expect(JSON.parse(o).memo_id).toBe('9CFXQSCMSPLFHXLZ'),
      ],
      [
        [
          'sandbox',
          'deposit',
          '--amount',
          '10.00',
          '--instructions',
          'f190b163-208f-4d73-8deb-4fb8b24add00',
          ...SENDING_BANK,
        ],
        (o) => expect(JSON.parse(o)).toMatchObject({ initiated: true, memo_id: '9CFXQSCMSPLFHXLZ' }),
      ],
    ];
    for (const [i, [args, check]] of cases.entries()) {
      take();
      const r = i < 3 ? await run(args) : await runIn(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      check(r.stdout);
      const reqs = take();
      expect(reqs.length, args.join(' ')).toBeGreaterThan(0);
      for (const q of reqs) expect(q.problems, `${q.method} ${q.path}`).toEqual([]);
    }
  });

  it('market data: valid requests without a token, the published examples read, the market list kept per service', async () => {
    take();
    const list = await runIn(['markets', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    const markets = JSON.parse(list.stdout);
    // The catalogue, with the service's own details where it lists a market (the example lists BTCUSD).
    expect(markets.map((m: any) => m.market).slice(0, 4)).toEqual(['ETHEUR', 'ETHUSD', 'BTCEUR', 'BTCUSD']);
    expect(markets.find((m: any) => m.market === 'BTCUSD')).toMatchObject({
      tick_rate: '0.25',
      market_status: { buy_status: 'AVAILABLE', sell_status: 'AVAILABLE' },
    });
    const ticker = await runIn(['ticker', 'BTCUSD', '-o', 'json']);
    expect(JSON.parse(ticker.stdout)).toMatchObject({
      best_bid: { price: '9245.25' },
      last_execution: { price: '9273.75' },
    });
    const book = await runIn(['book', 'btcusd', '--depth', '1', '-o', 'json']);
    expect(JSON.parse(book.stdout)).toEqual({
      market: 'BTCUSD',
      bids: [{ price: '9220.50', amount: '3.7441300' }],
      asks: [{ price: '9240.25', amount: '1.2341300' }],
    });
    // The example lists the oldest trade first; coinop shows the newest first.
    const trades = await runIn(['trades', 'BTCUSD', '-o', 'json']);
    expect(JSON.parse(trades.stdout).map((t: any) => t.match_number)).toEqual(['5K8U4TTBKRIO', '5K8U4TTBKS1E']);
    const reqs = take();
    expect(reqs.map((q) => `${q.method} ${q.path}`)).toEqual([
      'GET /v2/markets',
      'GET /v2/markets/BTCUSD/ticker',
      'GET /v2/markets/BTCUSD/order-book',
      'GET /v2/markets/BTCUSD/recent-executions',
    ]);
    for (const q of reqs) {
      expect(q.problems, q.path).toEqual([]);
      expect(q.token, `${q.path} is public: no token`).toBe(false);
    }
    // A market neither the catalogue nor the service's kept list has: refused before anything is sent.
    const unknown = await runIn(['ticker', 'MOONUSD']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/MARKET: MOONUSD is not a market of this service/);
    expect(take()).toEqual([]);
    await runIn(['markets', '--refresh', '-o', 'json']);
    expect(take().map((q) => q.path)).toEqual(['/v2/markets']);
  });

  it('reads the published 409 already-exists problem as "already submitted" when it matches the request', async () => {
    conflict = true;
    try {
      const same = await run([
        'withdraw',
        ...transferFlags('BTC', '0.1', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'),
        '--ref-id',
        'already_used_ref_id',
        '--profile-id',
        'b7b77d82-e6a7-4ae9-9904-36231aedf985',
      ]);
      expect(same.code, same.stderr).toBe(0);
      expect(same.stderr).toContain('already submitted');
      expect(JSON.parse(same.stdout).crypto_tx_hash).toBe(
        'f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16',
      );
      // A different amount under the same ref_id is not the same request: an API error, not a silent success.
      const other = await run([
        'withdraw',
        ...transferFlags('BTC', '0.2', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'),
        '--ref-id',
        'already_used_ref_id',
        '--profile-id',
        'b7b77d82-e6a7-4ae9-9904-36231aedf985',
      ]);
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(/Already Exists: transfer already exists with ref_id/);
    } finally {
      conflict = false;
    }
  });
});
