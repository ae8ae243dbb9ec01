// The catalogue is the local service's: against it an asset, network or market outside the catalogue is refused
// before anything is sent. Against any other service (here a custom one, as the hosted sandbox would be) such a name
// is checked for its shape, said in a one-line note on stderr and sent for the service to decide; a market the
// service lists itself (GET /markets, kept per service in the data directory for a day) is taken without a note, one
// it does not list is refused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketCacheFile } from '../../src/client/market-list.js';
import { ETH_ADDRESS } from '../support/addresses.js';
import { saveContext } from '../support/contexts.js';
import { BTC_ADDRESS, baseEnv, runInProcess, sandbox, type Sandbox } from './helpers.js';
import { transferFlags } from '../support/command-lines.js';
import { SOL_ADDRESS as sol } from '../support/addresses.js';

interface Seen {
  method: string;
  url: string;
  body?: any;
}

let server: Server;
let url: string;
const seen: Seen[] = [];
/** What GET /v2/markets answers: a list, or a 404 page (a service without the list). */
let listed: string[] | undefined = ['BTCUSD', 'ETHSGD'];
let sb: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'coinop-catalogue-'));
const env = { ...baseEnv(dir), COINOP_CONTEXT: 'hosted' };
const OP_ADDRESS = ETH_ADDRESS; // an Ethereum address serves on Optimism too

const transfer = (body: any) => ({
  id: 't1',
  customer_id: 'c',
  profile_id: 'p',
  amount: body?.amount ?? '1',
  total: body?.amount ?? '1',
  fee: '0',
  asset: body?.asset ?? 'X',
  direction: 'DEBIT',
  type: 'CRYPTO_WITHDRAWAL',
  status: 'PENDING',
  created_at: '2026-11-23T12:00:00Z',
  updated_at: '2026-11-23T12:00:00Z',
});

/** A service that is not the local one: it takes whatever names it is sent. */
function answer(method: string, path: string, body: any): [number, unknown] {
  if (path === '/oauth2/token') return [200, { access_token: 't', expires_in: 3600, token_type: 'bearer' }];
  if (path === '/v2/markets' && method === 'GET')
    return listed ? [200, { markets: listed.map((market) => ({ market })) }] : [404, '<html>404</html>'];
  if (/^\/v2\/markets\/\w+\/historical-prices$/.test(path)) return [200, { items: [] }];
  if (path === '/v2/transfer/crypto-withdrawals') return [200, transfer(body)];
  if (path === '/v2/transfer/fees/crypto-withdrawal')
    return [
      200,
      {
        id: 'f1',
        fee: '0.1',
        asset: body.asset,
        expires_at: '2099-01-01T00:00:00Z',
        destination_address: body.destination_address,
        crypto_network: body.crypto_network,
      },
    ];
  if (path === '/v2/transfer/transfers') return [200, { items: [] }];
  // Enough of every asset these tests send, so the funds preflight lets each withdrawal go.
  if (/^\/v2\/profiles\/[^/]+\/balances$/.test(path))
    return [200, { items: ['USDC', 'ETH', 'BTC'].map((asset) => ({ asset, available: '1000', trading: '0' })) }];
  if (path === '/v2/transfer/deposit-addresses') return [200, { items: [] }];
  // No transfer limits: the limits preflight has nothing to check.
  if (path === '/v2/transfer/limits/utilizations') return [200, { items: [] }];
  return [404, '<html>404</html>'];
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text && /json/.test(req.headers['content-type'] ?? '') ? JSON.parse(text) : undefined;
    const path = (req.url ?? '/').split('?')[0];
    seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', body });
    const [status, out] = answer(req.method ?? 'GET', path, body);
    res.writeHead(status, { 'content-type': typeof out === 'string' ? 'text/html' : 'application/json' });
    res.end(typeof out === 'string' ? out : JSON.stringify(out));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Its addresses as the docs' table writes the hosted ones.
  await saveContext(env, 'hosted', { environment: 'custom', baseUrl: `${url}/v2`, authUrl: `${url}/oauth2/token` });
  sb = await sandbox();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => runInProcess(args, env);
/** The API requests since the last call (the token's, and the funds and limits preflights' reads, left out). */
const sent = () =>
  seen
    .splice(0)
    .filter(
      (s) =>
        s.url.startsWith('/v2') &&
        !/^\/v2\/profiles\/[^/]+\/balances/.test(s.url) &&
        !s.url.startsWith('/v2/transfer/limits/'),
    );
const notes = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('note: '));

describe('against another service, names outside the catalogue are its to decide', () => {
  it('a withdrawal of an asset on a network coinop does not know: one note each, sent as given', async () => {
    sent();
    const args = ['withdraw', '--asset', 'USDC', '--network', 'OPTIMISM', '--address', OP_ADDRESS, '--amount', '5'];
    const r = await run([...args, '--yes', '--quote']);
    expect(r.code, r.stderr).toBe(0);
    expect(notes(r.stderr)).toEqual([
      "note: --network: OPTIMISM is not a network in coinop's catalogue; it is sent as is, for the service to decide",
      "note: --asset: USDC is not a crypto asset in coinop's catalogue; it is sent as is, for the service to decide",
    ]);
    const reqs = sent();
    expect(reqs.map((q) => q.url)).toEqual(['/v2/transfer/fees/crypto-withdrawal', '/v2/transfer/crypto-withdrawals']);
    expect(reqs[1].body).toMatchObject({ asset: 'USDC', crypto_network: 'OPTIMISM', amount: '5', fee_id: 'f1' });
  });

  it('a known asset on a network the catalogue does not give it, and more decimals than the catalogue has', async () => {
    sent();
    const r = await run([
      'withdraw',
      '--asset',
      'ETH',
      '--network',
      'SOLANA',
      '--address',
      sol,
      '--amount',
      '1',
      '--yes',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(notes(r.stderr)).toEqual([
      "note: --network: coinop's catalogue has no ETH on SOLANA; it is sent as is, for the service to decide",
    ]);
    const btc = await run(['withdraw', ...transferFlags('BTC', '0.000000001'), '--yes']);
    expect(btc.code, btc.stderr).toBe(0);
    expect(notes(btc.stderr)).toEqual([
      "note: --amount: BTC has 8 decimals in coinop's catalogue; it is sent as is, for the service to decide",
    ]);
    expect(sent().map((q) => q.body.amount)).toEqual(['1', '0.000000001']);
  });

  it('the shape is still checked: nothing is sent', async () => {
    seen.splice(0);
    const r = await run([
      'withdraw',
      '--asset',
      'us-dc',
      '--network',
      'OPTIMISM',
      '--address',
      OP_ADDRESS,
      '--amount',
      '5',
      '--yes',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --asset: "us-dc" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)\n');
    expect(seen).toEqual([]);
  });

  it('balances, deposit addresses and a batch with names outside the catalogue (the local limits left to the service)', async () => {
    sent();
    const b = await run(['balances', 'USDC', 'EURC']);
    expect(b.code, b.stderr).toBe(0);
    expect(notes(b.stderr)).toHaveLength(2);
    const a = await run(['addresses', 'list', '--network', 'OPTIMISM']);
    expect(a.code, a.stderr).toBe(0);
    expect(notes(a.stderr)).toEqual([
      "note: --network: OPTIMISM is not a network in coinop's catalogue; it is sent as is, for the service to decide",
    ]);
    const file = join(dir, 'rows.csv');
    writeFileSync(
      file,
      `destination_address,asset,crypto_network,amount\n${OP_ADDRESS},USDC,OPTIMISM,5\n${OP_ADDRESS},USDC,OPTIMISM,6\n${BTC_ADDRESS},BTC,BITCOIN,150\n`,
    );
    const batch = await run(['withdraw', 'batch', file, '--yes', '--journal', join(dir, 'rows.journal')]);
    expect(batch.code, batch.stderr).toBe(0);
    // Once per name, not once per row; 150 BTC, above the local service's largest withdrawal, is sent too.
    expect(notes(batch.stderr)).toHaveLength(2);
    const withdrawals = sent().filter((q) => q.url === '/v2/transfer/crypto-withdrawals');
    expect(withdrawals.map((q) => `${q.body.amount} ${q.body.asset}`).sort()).toEqual(['150 BTC', '5 USDC', '6 USDC']);
  });
});

describe('markets: the service says which it has', () => {
  it('a market outside the catalogue that the service lists: asked once, kept a day, no note', async () => {
    sent();
    const r = await run(['prices', 'ETHSGD', '--limit', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(notes(r.stderr)).toEqual([]);
    expect(sent().map((q) => q.url.split('?')[0])).toEqual(['/v2/markets', '/v2/markets/ETHSGD/historical-prices']);
    expect(readdirSync(join(dir, 'data', 'markets'))).toHaveLength(1);
    // From the cache now.
    const again = await run(['prices', 'ethsgd', '--limit', '1']);
    expect(again.code, again.stderr).toBe(0);
    expect(sent().map((q) => q.url.split('?')[0])).toEqual(['/v2/markets/ETHSGD/historical-prices']);
    // A market of the catalogue never asks.
    expect((await run(['prices', 'BTCUSD', '--limit', '1'])).code).toBe(0);
    expect(sent().map((q) => q.url.split('?')[0])).toEqual(['/v2/markets/BTCUSD/historical-prices']);
  });

  it('a market the service does not list is refused, naming what it lists; nothing else is sent', async () => {
    sent();
    const r = await run(['prices', 'MOONUSD', '--limit', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: MARKET: "MOONUSD" is not a market of this service \(it lists 2: BTCUSD, ETHSGD\)/,
    );
    expect(sent()).toEqual([]);
  });

  it('a list older than a day is asked for again; a service without the list leaves the market to it, with a note', async () => {
    const files = readdirSync(join(dir, 'data', 'markets'));
    const file = join(dir, 'data', 'markets', files[0]);
    writeFileSync(
      file,
      JSON.stringify({
        service_id: `custom:${url}`,
        fetched_at: Date.now() - 25 * 3600_000,
        markets: [{ market: 'BTCUSD' }],
      }),
    );
    expect(file).toBe(marketCacheFile(join(dir, 'data'), `custom:${url}`));
    sent();
    listed = ['BTCUSD', 'ETHSGD', 'BTCSGD'];
    expect((await run(['prices', 'BTCSGD', '--limit', '1'])).code).toBe(0);
    expect(sent().map((q) => q.url.split('?')[0])).toEqual(['/v2/markets', '/v2/markets/BTCSGD/historical-prices']);
    // Another service (another data directory, no cache) without the list.
    listed = undefined;
    const other = await runInProcess(['prices', 'XRPUSD', '--limit', '1'], {
      ...env,
      COINOP_DATA_DIR: join(dir, 'data2'),
    });
    expect(other.code, other.stderr).toBe(0);
    expect(notes(other.stderr)).toEqual([
      "note: MARKET: XRPUSD is not a market in coinop's catalogue; it is sent as is, for the service to decide",
    ]);
    expect(existsSync(join(dir, 'data2', 'markets'))).toBe(false);
    listed = ['BTCUSD', 'ETHSGD'];
  });
});

describe('against the local service the catalogue is authoritative', () => {
  it.each([
    [
      ['withdraw', '--asset', 'USDC', '--network', 'ETHEREUM', '--address', OP_ADDRESS, '--amount', '5', '--yes'],
      /^error: --asset: USDC is not a crypto asset this service withdraws/,
    ],
    [
      ['withdraw', '--asset', 'ETH', '--network', 'OPTIMISM', '--address', OP_ADDRESS, '--amount', '5', '--yes'],
      /^error: --network: must be one of BITCOIN, ETHEREUM/,
    ],
    [['prices', 'ETHSGD'], /^error: MARKET: "ETHSGD" is not a market \(did you mean ETHUSD\?\)/],
    [
      ['stream', 'trades', 'ETHSGD', '--count', '1'],
      /^error: MARKET: "ETHSGD" is not a market \(did you mean ETHUSD\?\)/,
    ],
    [['prices', 'QQQQQQ'], /^error: MARKET: "QQQQQQ" is not a market \(such as/],
    [['balances', 'USDC'], /^error: ASSET: USDC is not an asset of this service/],
    [['addresses', 'create', '--network', 'OPTIMISM'], /^error: --network: must be one of BITCOIN/],
    [
      ['transfer', 'internal', '--to-profile-id', 'x', '--asset', 'USDC', '--amount', '1', '--yes'],
      /^error: --asset: USDC is not an asset of this service/,
    ],
  ])('%j', async (args, message) => {
    await sb.sent();
    const r = await sb.runIn(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(await sb.sent()).toEqual([]);
  });
});
