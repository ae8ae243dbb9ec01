// coinop against the published OpenAPI description: every request it sends validates against the request schemas
// and parameters, and it reads the published example responses (prices under `prices`, the 409 already-exists).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parseQuery, Reply, Router, send, type Request } from '../../src/local/router.js';
import { baseEnv, runCoinop, runInProcess } from './helpers.js';

// The hosted service's description next to the repository (../shared/reference), or, when the repository stands
// alone, the extract of the paths coinop calls kept in fixtures/ (made from the same file by the script there).
const SPEC_FILE = join(__dirname, '../../../shared/reference/upstream-v2.openapi.json');
const EXTRACT = join(__dirname, 'fixtures/upstream-requests.openapi.json');
const spec = JSON.parse(readFileSync(existsSync(SPEC_FILE) ? SPEC_FILE : EXTRACT, 'utf8'));
const addFormats = addFormatsModule as unknown as (a: Ajv) => void;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...spec, $id: 'openapi.json' });

interface Recorded {
  method: string;
  path: string;
  problems: string[];
}

const resolveRef = (o: any): any => {
  if (!o?.$ref) return o;
  const parts = (o.$ref as string).replace(/^#\//, '').split('/');
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

function checkRequest(op: any, pathParams: Record<string, string>, query: Record<string, string | string[]>, body: unknown): string[] {
  const problems: string[] = [];
  const params = (op.parameters ?? []).map(resolveRef);
  for (const [k, raw] of Object.entries(query)) {
    const p = params.find((x: any) => x.in === 'query' && x.name === k);
    if (!p) {
      problems.push(`unknown query parameter ${k}`);
      continue;
    }
    const values = Array.isArray(raw) ? raw : [raw];
    const schema = resolveRef(p.schema);
    const value = schema.type === 'array' ? values : values.length === 1 ? values[0] : values;
    const typed = schema.type === 'integer' ? Number(value) : schema.type === 'array' && resolveRef(schema.items).type === 'integer' ? (value as string[]).map(Number) : value;
    if (!ajv.validate(p.schema.$ref ? { $ref: `openapi.json${p.schema.$ref}` } : schema, typed)) problems.push(`query ${k}: ${ajv.errorsText()}`);
  }
  for (const p of params.filter((x: any) => x.in === 'path')) {
    const schema = p.schema.$ref ? { $ref: `openapi.json${p.schema.$ref}` } : p.schema;
    if (!ajv.validate(schema, pathParams[p.name])) problems.push(`path ${p.name}: ${ajv.errorsText()}`);
  }
  const rb = op.requestBody?.content?.['application/json']?.schema;
  if (rb) {
    if (!ajv.validate({ $ref: `openapi.json${rb.$ref}` }, body)) problems.push(`body: ${ajv.errorsText()}`);
  } else if (body !== undefined && body !== null && Object.keys(body as object).length) problems.push('unexpected body');
  return problems;
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
  router.post('/oauth2/token', () => ({ access_token: 'stub-token', expires_in: 3600, token_type: 'bearer', scope: 'all' }));
  for (const [path, item] of Object.entries<any>(spec.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post'].includes(method)) continue;
      const url = '/v2' + path.replace(/\{(\w+)\}/g, ':$1');
      (method === 'get' ? router.get : router.post).call(router, url, (req: Request, reply: Reply) => {
        const raw = typeof req.body === 'string' && req.body ? JSON.parse(req.body) : undefined;
        recorded.push({ method: method.toUpperCase(), path: req.url, problems: checkRequest(op, req.params, req.query, raw) });
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
    const req = { raw, method: raw.method, url, path, headers: raw.headers, socket: raw.socket, routeUrl: match.route.pattern, params: match.params, query: parseQuery(q < 0 ? '' : url.slice(q + 1)), body } as Request;
    send(res, req.method, reply, await match.route.handler(req, reply));
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...baseEnv(dir), COINOP_BASE_URL: base, COINOP_AUTH_URL: base });
const run = (args: string[]) => runCoinop(args, env());
/** Most cases run in process (same client, same requests) to keep the suite quick; the first ones run for real. */
const runIn = (args: string[]) => runInProcess(args, env());
const take = () => recorded.splice(0);

describe('coinop against the OpenAPI description', () => {
  it('the checker itself catches unknown parameters, bad values and incomplete bodies', () => {
    const list = spec.paths['/transfer/deposit-addresses'].get;
    expect(checkRequest(list, {}, { bogus: '1' }, undefined)).toEqual(['unknown query parameter bogus']);
    expect(checkRequest(list, {}, { limit: 'ten' }, undefined)[0]).toMatch(/^query limit/);
    const withdraw = spec.paths['/transfer/crypto-withdrawals'].post;
    expect(checkRequest(withdraw, {}, {}, { asset: 'BTC' })[0]).toMatch(/^body: .*required property/);
    const prices = spec.paths['/markets/{market}/historical-prices'].get;
    expect(checkRequest(prices, { market: 'MOONUSD' }, {}, undefined)[0]).toMatch(/^path market/);
  });

  it('sends valid requests and reads the published examples of every operation it uses', async () => {
    const cases: [string[], (out: string) => void][] = [
      [['prices', 'BTCUSD', '--increment', 'ONE_MINUTE', '--from', '2020-01-17T18:00:00Z', '--limit', '10'], (o) => {
        // The published example names the list `prices`, not `items`.
        expect(JSON.parse(o)).toEqual([{ average_price: '9245.50', timestamp: '2020-01-17T18:36:00.000Z' }, { average_price: '9265.50', timestamp: '2020-01-17T18:37:00.000Z' }]);
      }],
      [['prices', 'ETHEUR', '--max-points', '20', '--from', '7d', '--to', 'now', '--offset', '3'], (o) => expect(JSON.parse(o)).toHaveLength(2)],
      [['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '--amount', '0.001', '--profile-id', 'b7b77d82-e6a7-4ae9-9904-36231aedf985', '--meta', 'my_id=1', '--memo', 'm', '--identity-id', 'i', '--account-id', 'a', '--beneficiary', '{"name":"Ada"}'], (o) => {
        expect(JSON.parse(o)).toMatchObject({ id: '373b7966-4290-4be3-a604-51929173437b', total: '0.00100223', auto_conversion: {} });
      }],
      [['withdraw', '--asset', 'USDP', '--network', 'ETHEREUM', '--address', '0xF0Aa84466e353E5390be37FE2934301c07c19a55', '--total', '10', '--balance-asset', 'USD', '--quote', '--profile-id', 'p'], (o) => expect(JSON.parse(o).status).toBe('PENDING')],
      [['fee', 'quote', '--asset', 'ETH', '--network', 'ETHEREUM', '--address', '0xF0Aa84466e353E5390be37FE2934301c07c19a55', '--amount', '0.001'], (o) => {
        expect(JSON.parse(o)).toMatchObject({ id: '34bd61ed-cf0a-4012-8be4-d347667b6154', fee: '0.00005' });
      }],
      [['addresses', 'list', '--network', 'ETHEREUM', '--network', 'BASE', '--profile-id', 'a,b', '--created-after', '2020-01-01T00:00:00Z', '--limit', '5', '--order', 'ASC', '--order-by', 'CREATED_AT', '--ref-id', 'r', '--id', 'x', '--identity-id', 'y', '--account-id', 'z'], (o) => expect(Array.isArray(JSON.parse(o))).toBe(true)],
      [['addresses', 'create', '--network', 'ETHEREUM', '--profile-id', 'b7b77d82-e6a7-4ae9-9904-36231aedf985', '--conversion', 'USD', '--meta', 'my_id=1', '--identity-id', 'i', '--account-id', 'a'], (o) => expect(JSON.parse(o).address).toBe('0x89205A3A3b2A69De6Dbf7f01ED13B2108B2c43e7')],
      [['sandbox', 'deposit', '--amount', '10.00', '--memo-id', '3CFXQSCMSPLFHXLZ', '--account-number', '1', '--routing-number', '021000021', '--bank-name', 'B', '--bank-country', 'US', '--owner-country', 'US', '--owner-city', 'NYC', '--owner-address', '1 Main St', '--institution', 'Bank'], (o) => expect(JSON.parse(o).initiated).toBe(true)],
      [['transfers', 'list', '--status', 'PENDING', '--type', 'CRYPTO_WITHDRAWAL', '--created-after', '1h', '--updated-before', 'now', '--limit', '3', '--order-by', 'UPDATED_AT', '--tx-hash', 'h', '--group-id', 'g', '--ref-id', 'r', '--id', 'i', '--profile-id', 'p'], (o) => expect(Array.isArray(JSON.parse(o))).toBe(true)],
      [['transfers', 'get', 'f190b163-208f-4d73-8deb-4fb8b24add00'], (o) => expect(JSON.parse(o).id).toBeTruthy()],
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

  it('reads the published 409 already-exists problem as "already submitted" when it matches the request', async () => {
    conflict = true;
    try {
      const same = await run(['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '--amount', '0.1', '--ref-id', 'already_used_ref_id', '--profile-id', 'b7b77d82-e6a7-4ae9-9904-36231aedf985']);
      expect(same.code, same.stderr).toBe(0);
      expect(same.stderr).toContain('already submitted');
      expect(JSON.parse(same.stdout).crypto_tx_hash).toBe('f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16');
      // A different amount under the same ref_id is not the same request: an API error, not a silent success.
      const other = await run(['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '--amount', '0.2', '--ref-id', 'already_used_ref_id', '--profile-id', 'b7b77d82-e6a7-4ae9-9904-36231aedf985']);
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(/Already Exists: transfer already exists with ref_id/);
    } finally {
      conflict = false;
    }
  });
});
