// Responses of the local service validate against the hosted service's OpenAPI response schemas.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAD_ETH_ADDRESS, DEMO, ETH_ADDRESS, harness, withdrawal, type Harness } from './helpers.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv').default;
const addFormats = require('ajv-formats').default;

// The hosted service's OpenAPI next to the repository (../shared/reference), or the extract of its paths and
// response schemas kept in fixtures/ (made from the same file) when the repository stands alone.
const SHARED = new URL('../../../shared/reference/upstream-v2.openapi.json', import.meta.url);
const EXTRACT = new URL('./fixtures/upstream-responses.openapi.json', import.meta.url);
const spec = JSON.parse(readFileSync(existsSync(SHARED) ? SHARED : EXTRACT, 'utf8'));

/** OpenAPI 3.0 schema to JSON Schema: `nullable` becomes a null type; refs point into one document. */
function translate(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(translate);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'examples' || k === 'nullable') continue;
    out[k] = translate(v);
  }
  const n = node as Record<string, unknown>;
  if (n.nullable === true) {
    if (typeof n.type === 'string') out.type = [n.type, 'null'];
    else if (n.enum) out.enum = [...(n.enum as unknown[]), null];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
for (const f of ['decimal', 'int32', 'int64', 'uint64', 'byte', 'STATEMENT_FORMAT_CSV', 'STATEMENT_FORMAT_PDF']) ajv.addFormat(f, true);
ajv.addSchema({ $id: 'upstream', components: translate(spec.components) });

function responseSchema(method: string, suffix: string): object {
  const entry = Object.entries(spec.paths as Record<string, any>).find(([p]) => p.endsWith(suffix));
  if (!entry) throw new Error(`no path ${suffix}`);
  const schema = entry[1][method].responses['200'].content['application/json'].schema;
  const ref = (schema.$ref as string).replace('#/', 'upstream#/');
  return { $ref: ref };
}

function check(method: string, suffix: string, body: unknown): void {
  const validate = ajv.compile(responseSchema(method, suffix));
  const ok = validate(body);
  expect(ok, `${method.toUpperCase()} ${suffix}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true);
}

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('responses match the upstream OpenAPI response schemas', () => {
  it('the schemas are strict enough to catch a broken response', () => {
    const validate = ajv.compile(responseSchema('get', '/transfer/transfers/{id}'));
    expect(validate({ id: 'x' })).toBe(false);
    expect(validate({ id: 'x', customer_id: 'c', profile_id: 'p', amount: '1', total: '1', fee: '0', created_at: 'now', updated_at: 'now', asset: 'BTC', status: 'DONE', direction: 'DEBIT', type: 'CRYPTO_WITHDRAWAL' })).toBe(false);
  });

  it('transfers: withdrawal (pending, completed, failed), wire deposit, list and get', async () => {
    const w = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'oa1', metadata: { a: 'b' }, memo: 'm' }));
    check('post', '/transfer/crypto-withdrawals', w.body);
    const f = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
      profile_id: DEMO.profileId, asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: DEAD_ETH_ADDRESS, total: '1',
    });
    check('post', '/transfer/crypto-withdrawals', f.body);
    await h.admin('POST', '/v2/sandbox/fiat-deposits', { amount: '5.00', asset: 'USD', memo_id: DEMO.memoId, fiat_network_instructions: { wire: {} } });
    const beforeSettle = await h.admin('GET', '/v2/transfer/transfers');
    check('get', '/transfer/transfers', beforeSettle.body);
    await h.control('POST', '/_local/clock/advance', { seconds: 60 });
    const list = await h.admin('GET', '/v2/transfer/transfers?limit=2');
    expect(list.body.next_page_cursor).toBeTruthy();
    check('get', '/transfer/transfers', list.body);
    const statuses = new Set<string>();
    for (const t of (await h.admin('GET', '/v2/transfer/transfers')).body.items) {
      const one = await h.admin('GET', `/v2/transfer/transfers/${t.id}`);
      check('get', '/transfer/transfers/{id}', one.body);
      statuses.add(one.body.status);
    }
    expect([...statuses].sort()).toEqual(['COMPLETED', 'FAILED']);
  });

  it('fee quotes', async () => {
    const q = await h.admin('POST', '/v2/transfer/fees/crypto-withdrawal', { asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: ETH_ADDRESS, amount: '1' });
    check('post', '/transfer/fees/crypto-withdrawal', q.body);
  });

  it('deposit addresses: create and list', async () => {
    for (const n of ['BITCOIN', 'STELLAR', 'BASE']) {
      const a = await h.admin('POST', '/v2/transfer/deposit-addresses', { profile_id: DEMO.profileId, crypto_network: n, metadata: { k: 'v' }, identity_id: 'i' });
      check('post', '/transfer/deposit-addresses', a.body);
    }
    const list = await h.admin('GET', '/v2/transfer/deposit-addresses?limit=2');
    check('get', '/transfer/deposit-addresses', list.body);
  });

  it('sandbox fiat deposit', async () => {
    const r = await h.admin('POST', '/v2/sandbox/fiat-deposits', { amount: '5.00', asset: 'USD', memo_id: DEMO.memoId, fiat_network_instructions: { wire: {} } });
    check('post', '/sandbox/fiat-deposits', r.body);
  });

  it('historical prices', async () => {
    check('get', '/markets/{market}/historical-prices', (await h.admin('GET', '/v2/markets/ETHUSD/historical-prices?increment=ONE_HOUR&pagination.limit=5')).body);
    check('get', '/markets/{market}/historical-prices', (await h.admin('GET', '/v2/markets/PYUSDGBP/historical-prices?max_data_points=10')).body);
  });
});
