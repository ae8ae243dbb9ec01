// Every request the MCP server's tools send, held to the hosted service's OpenAPI (spec/), as
// test/cli/requests-openapi.test.ts holds the commands': each tool is called (the writes sent for real) against the
// local service behind a recording proxy, and every request recorded is validated by openapi-backend. Every answer
// was also held to the tool's output schema, by the SDK's client itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { type LocalService, startLocalService } from '../../src/local/service.js';
import { TOOLS } from '../../src/mcp/server.js';
import { baseEnv, BTC_ADDRESS, ETH_ADDRESS } from '../cli/helpers.js';
import { requestViolations } from '../support/openapi.js';
import { type RecordingProxy, recordingProxy } from '../support/recording-proxy.js';
import { answerOf, type InProcess, inProcess } from './support.js';
import { postFiatAccount } from '../support/requests.js';
import { adminToken } from '../support/tokens.js';

let svc: LocalService;
let proxy: RecordingProxy;
let dir: string;
let s: InProcess;
let fiatAccount: string;
/** Deposits held for their originator, made on the service's control API (one to update, one to reject). */
const held: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-mcp-openapi-'));
  svc = await startLocalService({ port: 0, memory: true, config: { rateLimits: { enabled: false } } });
  proxy = await recordingProxy(svc.baseUrl);
  const env = { ...baseEnv(dir), COINOP_BASE_URL: proxy.url, COINOP_AUTH_URL: proxy.url };
  s = await inProcess(env, { allowWrites: true, allowProduction: false });
  // A fiat account to withdraw to, made on the service directly (no tool makes one).
  fiatAccount = await postFiatAccount(svc.baseUrl, await adminToken(svc.authUrl, 'transfer:write_fiat_account'));
  for (const tool of ['deposit_update', 'deposit_reject']) {
    const r = await fetch(`${svc.baseUrl}/_local/crypto-deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ref_id: 'demo-btc', amount: '0.2', needs_info: true }),
    });
    held[tool] = ((await r.json()) as { id: string }).id;
  }
});
afterAll(async () => {
  await s?.close();
  await proxy?.close();
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

const BTC = { asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS };

/** One call of each tool (a write both previewed and sent), with every argument that changes what is sent. */
const CALLS: [string, Record<string, unknown>][] = [
  ['balances', { assets: ['BTC', 'USD'] }],
  ['profiles_list', { limit: 2, order: 'ASC', nickname: 'de' }],
  ['profile_get', { include_deactivated: true }],
  ['limits', { transfer_type: 'CRYPTO_WITHDRAWAL' }],
  [
    'transfers_list',
    { limit: 5, statuses: ['PENDING'], type: ['CRYPTO_WITHDRAWAL'], 'created_at.gte': '2020-01-01T00:00:00Z' },
  ],
  ['deposit_addresses_list', { limit: 3, networks: ['BITCOIN'], order: 'DESC' }],
  ['destinations_list', { limit: 3, crypto_networks: ['ETHEREUM'] }],
  ['fiat_accounts_list', { limit: 3, include_deleted: true, 'created_at.gte': '2020-01-01T00:00:00Z' }],
  [
    'fiat_withdrawal',
    { asset: 'USD', amount: '25.50', memo: 'invoice 9', metadata: { a: 'b' }, identity_id: 'i-1', confirm: true },
  ],
  ['vasps_list', { search: 'o', limit: 5, order: 'DESC', ids: ['8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94'] }],
  ['vasp_get', { id: '8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94' }],
  [
    'deposit_update',
    {
      identity_id: 'i-1',
      originator_address_info: { institution_info: { institution_name: 'Acme Ltd' } },
      confirm: true,
    },
  ],
  ['deposit_reject', { identity_id: 'i-1', confirm: true }],
  ['conversion', { source_asset: 'USD', target_asset: 'USDP', amount: '12.50', metadata: { a: 'b' }, confirm: true }],
  ['conversions_list', { limit: 3, 'created_at.begin': '2020-01-01T00:00:00Z', order: 'ASC' }],
  ['fee_quote', { ...BTC, total: '0.5' }],
  ['prices', { market: 'BTCUSD', increment: 'ONE_DAY', 'pagination.limit': 2, 'pagination.offset': 1 }],
  ['prices', { market: 'ETHUSD', max_data_points: 5 }],
  ['ticker', { market: 'BTCUSD' }],
  ['order_book', { market: 'ETHEUR', depth: 2 }],
  ['recent_trades', { market: 'BTCUSD', limit: 3 }],
  ['markets', {}],
  ['batch_dry_run', { rows: [{ ...BTC, amount: '0.01', 'meta.invoice': '7' }] }],
  [
    'withdraw',
    {
      ...BTC,
      amount: '0.01',
      quote: true,
      memo: 'm',
      metadata: { invoice: '42' },
      identity_id: 'i-1',
      account_id: 'a-1',
      beneficiary: { institution_details: { name: 'Ada Ltd' } },
      confirm: true,
    },
  ],
  [
    'withdraw',
    { asset: 'USDP', crypto_network: 'ETHEREUM', destination_address: ETH_ADDRESS, total: '20', balance_asset: 'USD' },
  ],
  [
    'internal_transfer',
    {
      to_profile_id: DEMO.emptyProfileId,
      asset: 'USD',
      amount: '3',
      metadata: { a: 'b' },
      recipient_metadata: { c: 'd' },
      confirm: true,
    },
  ],
  ['withdraw_batch', { rows: [{ ...BTC, amount: '0.02', 'meta.invoice': '8' }], confirm: true }],
  [
    'deposit_address_create',
    { crypto_network: 'SOLANA', metadata: { who: 'mcp' }, conversion_target_asset: 'NO_CONVERSION', confirm: true },
  ],
];

/** Tools called last, with what the calls before found (a transfer's id, an event's). */
const LAST = ['events_list', 'transfer_get', 'event_get', 'conversion_get'];

describe('requests by the OpenAPI', () => {
  it('every tool is called here', () => {
    const called = new Set(CALLS.map(([name]) => name));
    expect(TOOLS.map((t) => t.name).filter((n) => !called.has(n) && !LAST.includes(n))).toEqual([]);
  });

  it('every request every tool sends is one the hosted OpenAPI describes', async () => {
    proxy.take();
    const violations: string[] = [];
    let lastTransfer: string | undefined;
    let lastEvent: string | undefined;
    let lastConversion: string | undefined;
    for (const [name, args] of [...CALLS, ...LAST.map((n): [string, Record<string, unknown>] => [n, {}])]) {
      const a =
        name === 'transfer_get'
          ? { id: lastTransfer }
          : name === 'event_get'
            ? { id: lastEvent }
            : name === 'conversion_get'
              ? { id: lastConversion }
              : name === 'fiat_withdrawal'
                ? { ...args, fiat_account_id: fiatAccount }
                : held[name]
                  ? { ...args, id: held[name] }
                  : args;
      const answer = answerOf(await s.call(name, a));
      if (answer.transfer?.id) lastTransfer = answer.transfer.id;
      if (answer.conversion?.id) lastConversion = answer.conversion.id;
      if (name === 'events_list') lastEvent = answer.events[0]?.id;
      const sent = proxy.take().filter((r) => !r.url.startsWith('/_local') && !r.url.startsWith('/oauth2'));
      expect(sent.length, `${name} sent nothing`).toBeGreaterThan(0);
      for (const r of sent) violations.push(...requestViolations(r.method, r.url, r.body).map((v) => `${name}: ${v}`));
    }
    expect(violations).toEqual([]);
  });
});
