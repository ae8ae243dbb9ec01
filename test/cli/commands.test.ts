// Every command end to end as a child process against the local service, output piped (JSON by default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BTC_ADDRESS, ETH_ADDRESS, FAILING_ETH_ADDRESS, runInProcess, sandbox, type Sandbox } from './helpers.js';
import { saveContext } from '../support/contexts.js';
import { TLS_ENV, tlsFront } from '../support/tls.js';
import { DEMO } from '../../src/embedded/demo.js';
import { transferFlags } from '../support/command-lines.js';
import { until } from '../support/wait.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ withdrawalSettleSeconds: 1 });
});
afterAll(async () => sb?.close());

const json = (s: string) => JSON.parse(s);
const balance = async (asset: string) => {
  const { items } = await sb.control('GET', '/_local/profiles');
  return items.find((p: { id: string }) => p.id === DEMO.profileId).balances[asset] as string;
};

describe('coinop, piped', () => {
  it('prints the version and help with examples and exit codes', async () => {
    const v = await sb.run(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await sb.run(['withdraw', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Examples:');
    expect(h.stdout).toContain('--total');
    const top = await sb.runIn(['--help']);
    expect(top.stdout).toContain('Exit codes:');
    expect(top.stdout).toMatch(/4 {2}authentication/);
  });

  it('prices: JSON array when piped, both --increment and --max-points, CSV and NDJSON', async () => {
    const r = await sb.run(['prices', 'BTCUSD', '--limit', '5']);
    expect(r.code, r.stderr).toBe(0);
    const items = json(r.stdout);
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveProperty('average_price');
    expect(items[0].average_price).toMatch(/^\d+\.\d{2}$/);
    // Without --from the range holds one page ending now: --limit 5 gives the latest 5 prices, the last of them
    // the current mid at the request time.
    expect(Date.now() - Date.parse(items[0].timestamp)).toBeLessThan(5 * 3600_000);
    expect(Date.now() - Date.parse(items[4].timestamp)).toBeLessThan(60_000);
    const nd = await sb.runIn(['prices', 'ETHEUR', '--max-points', '10', '-o', 'ndjson']);
    expect(nd.code, nd.stderr).toBe(0);
    const lines = nd.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(10);
    for (const l of lines) expect(json(l)).toHaveProperty('timestamp');
    const csv = await sb.runIn(['prices', 'BTCUSD', '--increment', 'ONE_DAY', '--from', '30d', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csv.stdout.trim().split('\r\n');
    expect(rows[0]).toBe('timestamp,average_price');
    expect(rows.length).toBeGreaterThanOrEqual(29);
    const sent = await sb.sent();
    const q = sent.filter((e) => e.url.includes('historical-prices'));
    expect(q.some((e) => e.url.includes('increment=ONE_DAY') && e.url.includes('range.begin='))).toBe(true);
    expect(q.some((e) => e.url.includes('max_data_points=10') && !e.url.includes('increment'))).toBe(true);
  });

  it('prices --all pages through with pagination.offset and returns every point once', async () => {
    const r = await sb.run([
      'prices',
      'BTCUSD',
      '--increment',
      'ONE_HOUR',
      '--from',
      '2026-01-01T00:00:00Z',
      '--to',
      '2026-01-03T00:00:00Z',
      '--limit',
      '10',
      '--all',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const items = json(r.stdout);
    const ts = items.map((i: { timestamp: string }) => i.timestamp);
    expect(new Set(ts).size).toBe(ts.length);
    expect(items.length).toBe(47);
    const sent = (await sb.sent()).filter((e) => e.url.includes('historical-prices'));
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.some((e) => e.url.includes('pagination.offset=40'))).toBe(true);
  });

  it('withdraw: generated ref_id printed, transfer as JSON, balance debited by amount plus fee', async () => {
    const before = await balance('BTC');
    const r = await sb.run([
      'withdraw',
      ...transferFlags('BTC', '0.01'),
      '--meta',
      'invoice=42',
      '--meta',
      'note=a=b',
      '--memo',
      'hello',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const t = json(r.stdout);
    expect(t.status).toBe('PENDING');
    expect(t.amount).toBe('0.01');
    expect(t.metadata).toEqual({ invoice: '42', note: 'a=b' });
    const ref = /ref_id (coinop-[0-9a-f-]+)/.exec(r.stderr)?.[1];
    expect(ref).toBeDefined();
    expect(t.ref_id).toBe(ref);
    const after = await balance('BTC');
    const { dec } = await import('../../src/contract/index.js');
    expect(dec(before).minus(after).toFixed()).toBe(dec('0.01').plus(t.fee).toFixed());
  });

  it('withdraw twice with the same ref_id moves money once and says already submitted', async () => {
    const args = [
      'withdraw',
      '--asset',
      'ETH',
      '--network',
      'BASE',
      '--address',
      ETH_ADDRESS,
      '--total',
      '0.5',
      '--ref-id',
      'same-ref-1',
    ];
    const before = await balance('ETH');
    const a = await sb.run(args);
    expect(a.code, a.stderr).toBe(0);
    const b = await sb.run(args);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain('already submitted');
    expect(json(b.stdout).id).toBe(json(a.stdout).id);
    const { dec } = await import('../../src/contract/index.js');
    expect(
      dec(before)
        .minus(await balance('ETH'))
        .toFixed(),
    ).toBe('0.5');
  });

  it('withdraw: an EVM address in one case is sent but confirmed as carrying no checksum; a checksummed one is not', async () => {
    const args = ['withdraw', '--asset', 'ETH', '--network', 'BASE', '--amount', '0.5', '--dry-run', '-o', 'table'];
    const run = (address: string) => sb.run([...args, '--address', address]);
    const lower = await run(ETH_ADDRESS.toLowerCase());
    expect(lower.code, lower.stderr).toBe(0);
    // Sent in its EIP-55 casing; typed in one case, it carried no checksum, and the confirmation still says so.
    const note = `${ETH_ADDRESS} (given as ${ETH_ADDRESS.toLowerCase()}, which carries no checksum: check every character)`;
    expect(lower.stdout + lower.stderr).toContain(note);
    const checked = await run(ETH_ADDRESS);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout + checked.stderr).toContain(ETH_ADDRESS);
    expect(checked.stdout + checked.stderr).not.toContain('carries no checksum');
    // Solana carries none whatever its spelling.
    const sol = await sb.run([
      ...args.slice(0, 1),
      '--asset',
      'SOL',
      '--network',
      'SOLANA',
      ...args.slice(5),
      '--address',
      '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
    ]);
    expect(sol.code, sol.stderr).toBe(0);
    expect(sol.stdout + sol.stderr).toContain(
      '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV (carries no checksum: check every character)',
    );
  });

  it('withdraw --quote uses a guaranteed fee; --dry-run sends no withdrawal', async () => {
    await sb.sent();
    const d = await sb.run(['withdraw', ...transferFlags('SOL', '2'), '--quote', '--dry-run']);
    expect(d.code, d.stderr).toBe(0);
    const plan = json(d.stdout);
    expect(plan.dry_run).toBe(true);
    expect(plan.body.fee_id).toBe(plan.quote.id);
    const sent = await sb.sent();
    expect(sent.some((e) => e.url.includes('/crypto-withdrawals'))).toBe(false);
    expect(sent.some((e) => e.url.includes('/fees/crypto-withdrawal'))).toBe(true);
    const w = await sb.runIn(['withdraw', ...transferFlags('SOL', '2'), '--quote']);
    expect(w.code, w.stderr).toBe(0);
    const posted = (await sb.sent()).filter((e) => e.method === 'POST');
    expect(posted.map((e) => e.url)).toEqual(
      ['/v2/transfer/fees/crypto-withdrawal', '/v2/transfer/crypto-withdrawals'].filter((u) =>
        posted.some((p) => p.url === u),
      ),
    );
  });

  it('withdraw --wait follows to COMPLETED (exit 0) and to FAILED (exit 6)', async () => {
    const ok = await sb.run(['withdraw', ...transferFlags('ETH', '0.01'), '--wait']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok.stdout).status).toBe('COMPLETED');
    expect(ok.stderr).toMatch(/COMPLETED/);
    const bad = await sb.run(['withdraw', ...transferFlags('ETH', '0.01', FAILING_ETH_ADDRESS), '--wait']);
    expect(bad.code).toBe(6);
    expect(json(bad.stdout).status).toBe('FAILED');
    expect(bad.stderr).toMatch(/ended FAILED: invalid_destination_address/);
  });

  it('withdraw refuses in production without a terminal and without --yes', async () => {
    // A production profile whose saved addresses are an https front of this service (login would go to the hosted one).
    const front = await tlsFront(sb.svc.baseUrl);
    try {
      await saveContext(sb.env, 'prodlike', { environment: 'production', baseUrl: front.url });
      const env = { ...TLS_ENV, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined };
      await sb.sent();
      const r = await sb.run(['withdraw', '--context', 'prodlike', ...transferFlags('BTC', '0.01')], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/refusing to move money in production/);
      expect((await sb.sent()).filter((e) => e.url.includes('crypto-withdrawals'))).toEqual([]);
      const d = await sb.runIn(
        ['sandbox', 'deposit', '--context', 'prodlike', '--amount', '10.00', '--memo-id', DEMO.memoId],
        { env },
      );
      expect(d.code).toBe(2);
      expect(d.stderr).toMatch(/refused against production/);
      const y = await sb.run(['withdraw', '--context', 'prodlike', ...transferFlags('BTC', '0.01'), '--yes'], { env });
      expect(y.code, y.stderr).toBe(0);
      await sb.runIn(['logout', '--context', 'prodlike']);
    } finally {
      await front.close();
    }
  });

  it('fee quote: fee, amount, total and expiry', async () => {
    const r = await sb.run(['fee', 'quote', ...transferFlags('BTC', '0.5')]);
    expect(r.code, r.stderr).toBe(0);
    const q = json(r.stdout);
    expect(q.fee).toBe('0.00002');
    expect(q.asset).toBe('BTC');
    expect(Date.parse(q.expires_at)).toBeGreaterThan(Date.now() - 5000);
    const t = await sb.runIn([
      'fee',
      'quote',
      '--asset',
      'BTC',
      '--network',
      'BITCOIN',
      '--address',
      BTC_ADDRESS,
      '--total',
      '0.5',
      '-o',
      'table',
    ]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/fee\s+0\.00002 BTC/);
    expect(t.stdout).toMatch(/amount\s+0\.49998 BTC/);
    expect(t.stdout).toMatch(/expires\s+in \d+ (s|min)/);
  });

  it('addresses create (idempotent by ref_id) and list with filters, --limit and --all streaming every page', async () => {
    for (let i = 0; i < 7; i++) {
      // The first as a child process; the rest of the set-up in process to keep the suite quick.
      const args = ['addresses', 'create', '--network', 'LITECOIN', '--ref-id', `ltc-${i}`, '--meta', `n=${i}`];
      const r = i === 0 ? await sb.run(args) : await runInProcess(args, sb.env);
      expect(r.code, r.stderr).toBe(0);
      expect(json(r.stdout).crypto_network).toBe('LITECOIN');
    }
    const again = await sb.runIn(['addresses', 'create', '--network', 'LITECOIN', '--ref-id', 'ltc-0']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already exists/);
    await sb.sent();
    const page = await sb.run(['addresses', 'list', '--network', 'LITECOIN', '--limit', '3']);
    expect(page.code, page.stderr).toBe(0);
    expect(json(page.stdout)).toHaveLength(3);
    const all = await sb.run([
      'addresses',
      'list',
      '--network',
      'LITECOIN',
      '--limit',
      '3',
      '--all',
      '-o',
      'ndjson',
      '--order',
      'ASC',
    ]);
    expect(all.code, all.stderr).toBe(0);
    const lines = all.stdout
      .trim()
      .split('\n')
      .map((l) => json(l));
    expect(lines.map((l) => l.ref_id)).toEqual(['ltc-0', 'ltc-1', 'ltc-2', 'ltc-3', 'ltc-4', 'ltc-5', 'ltc-6']);
    const sent = await sb.sent();
    const lists = sent.filter((e) => e.url.startsWith('/v2/transfer/deposit-addresses'));
    expect(lists.length).toBe(4);
    expect(lists.slice(2).every((e) => e.url.includes('page_cursor='))).toBe(true);
    const byRef = await sb.runIn(['addresses', 'list', '--ref-id', 'ltc-1,ltc-2', '--created-after', '1h']);
    expect(
      json(byRef.stdout)
        .map((a: { ref_id: string }) => a.ref_id)
        .sort(),
    ).toEqual(['ltc-1', 'ltc-2']);
    const csv = await sb.runIn(['addresses', 'list', '--ref-id', 'ltc-1', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('id,crypto_network,address,conversion_target_asset,ref_id,created_at');
  });

  it('sandbox deposit from flags and from --file credits USD', async () => {
    const before = await balance('USD');
    const r = await sb.run([
      'sandbox',
      'deposit',
      '--amount',
      '100.25',
      '--account-number',
      '12345678',
      '--routing-number',
      '021000021',
      '--bank-name',
      'Test Bank',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ initiated: true, amount: '100.25', memo_id: DEMO.memoId });
    const file = join(sb.dir, 'wire.json');
    writeFileSync(
      file,
      JSON.stringify({
        account_number: '999',
        routing_details: { routing_number_type: 'ABA', routing_number: '021000021', bank_name: 'B' },
      }),
    );
    const f = await sb.runIn(['sandbox', 'deposit', '--amount', '0.75', '--file', file]);
    expect(f.code, f.stderr).toBe(0);
    const { dec } = await import('../../src/contract/index.js');
    // The deposit may settle asynchronously; the service credits on its next read.
    const after = await until('both deposits credited', async () => {
      const b = await balance('USD');
      return dec(b).minus(before).gte(101) && b;
    });
    expect(dec(after).minus(before).toFixed()).toBe('101');
  });

  it('transfers list, get (by id and by ref_id) and watch', async () => {
    const w = await sb.run([
      'withdraw',
      '--asset',
      'LTC',
      '--network',
      'LITECOIN',
      '--address',
      'LW98ceYNxYki9e9QxDACLn82TtVEPm4qmy',
      '--amount',
      '1',
      '--ref-id',
      'ltc-w-1',
    ]);
    expect(w.code, w.stderr).toBe(0);
    const id = json(w.stdout).id;
    const l = await sb.run(['transfers', 'list', '--type', 'CRYPTO_WITHDRAWAL', '--limit', '2']);
    expect(l.code, l.stderr).toBe(0);
    expect(json(l.stdout)).toHaveLength(2);
    const g = await sb.run(['transfers', 'get', id]);
    expect(json(g.stdout).id).toBe(id);
    const r = await sb.runIn(['transfers', 'get', '--ref-id', 'ltc-w-1']);
    expect(json(r.stdout).id).toBe(id);
    const watch = await sb.run(['transfers', 'watch', id]);
    expect(watch.code, watch.stderr).toBe(0);
    expect(json(watch.stdout)[0].status).toBe('COMPLETED');
    const missing = await sb.runIn(['transfers', 'get', '00000000-0000-0000-0000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^error: Not Found/);
  });

  it("transfers list filters by the OpenAPI's identity_ids, account_ids and secondary_statuses", async () => {
    const w = await sb.runIn([
      'withdraw',
      ...transferFlags('BTC', '0.001'),
      ...['--identity-id', 'ident-7', '--account-id', 'acct-7'],
    ]);
    expect(w.code, w.stderr).toBe(0);
    const id = json(w.stdout).id;
    await sb.sent();
    const ids = async (...args: string[]) => {
      const r = await sb.runIn(['transfers', 'list', ...args]);
      expect(r.code, r.stderr).toBe(0);
      return json(r.stdout).map((t: { id: string }) => t.id);
    };
    expect(await ids('--identity-id', 'ident-7')).toEqual([id]);
    expect(await ids('--account-id', 'acct-7,acct-8', '--identity-id', 'ident-7')).toEqual([id]);
    expect(await ids('--account-id', 'acct-8')).toEqual([]);
    expect(await ids('--identity-id', 'ident-7', '--secondary-status', 'travel_rule_info_requested')).toEqual([]);
    expect(await ids('--identity-id', 'ident-7', '--status', 'pending,completed')).toEqual([id]);
    // Either name of a platform transfer is taken; the OpenAPI's is sent (its enumeration has no PLATFORM_ one).
    expect(await ids('--type', 'PAXOS_TRANSFER_DEBIT', '--type', 'PLATFORM_TRANSFER_DEBIT')).toEqual([]);
    // The OpenAPI: ids, ref_ids, profile_ids, identity_ids, account_ids and type each go with the time filters only:
    // one is sent, coinop applies the others to each page.
    const urls = (await sb.sent()).map((e) => decodeURIComponent(e.url.replace(/\+/g, ' ')));
    expect(urls.filter((u) => u.startsWith('/v2/transfer/transfers?'))).toEqual([
      '/v2/transfer/transfers?identity_ids=ident-7',
      '/v2/transfer/transfers?account_ids=acct-7&account_ids=acct-8',
      '/v2/transfer/transfers?account_ids=acct-8',
      '/v2/transfer/transfers?identity_ids=ident-7',
      '/v2/transfer/transfers?identity_ids=ident-7',
      '/v2/transfer/transfers?type=PAXOS_TRANSFER_DEBIT',
    ]);
  });

  it('api: raw GET with fields and --paginate, raw POST with --input', async () => {
    const g = await sb.run(['api', 'GET', 'transfer/deposit-addresses', '-f', 'networks=LITECOIN', '-f', 'limit=2']);
    expect(g.code, g.stderr).toBe(0);
    const page = json(g.stdout);
    expect(page.items).toHaveLength(2);
    expect(page.next_page_cursor).toBeTruthy();
    const p = await sb.runIn([
      'api',
      'GET',
      '/v2/transfer/deposit-addresses',
      '-f',
      'networks=LITECOIN',
      '-f',
      'limit=2',
      '--paginate',
    ]);
    expect(json(p.stdout)).toHaveLength(7);
    const file = join(sb.dir, 'quote.json');
    writeFileSync(
      file,
      JSON.stringify({ asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS, amount: '1' }),
    );
    const q = await sb.run(['api', 'POST', '/v2/transfer/fees/crypto-withdrawal', '--input', file]);
    expect(q.code, q.stderr).toBe(0);
    expect(json(q.stdout).fee).toBe('0.00002');
    const bad = await sb.runIn(['api', 'POST', '/v2/transfer/fees/crypto-withdrawal', '-f', 'asset=BTC']);
    expect(bad.code).toBe(1);
    expect(json(bad.stdout).status).toBe(400);
  });

  it('login proves credentials, stores the secret owner-only, never prints it; auth status; profile list|use|show; logout', async () => {
    const secret = 'local-secret';
    // A sandbox or production secret goes only to the hosted token endpoint, so a custom profile stands in here.
    const custom = ['--env', 'custom', '--base-url', sb.svc.baseUrl];
    const bad = await sb.run(
      ['login', ...custom, '--client-id', DEMO.adminClientId, '--client-secret-stdin', '--name', 'wrong'],
      { input: 'not-the-secret' },
    );
    expect(bad.code, bad.stderr).toBe(4);
    expect(bad.stderr + bad.stdout).not.toContain('not-the-secret');
    expect((await sb.runIn(['context', 'show', 'wrong'])).code).toBe(2);

    const r = await sb.run(
      ['login', ...custom, '--client-id', DEMO.adminClientId, '--client-secret-stdin', '--name', 'sb', '--debug'],
      { input: `${secret}\n` },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stderr).toContain('[redacted]');
    const dir = sb.env.COINOP_CONFIG_DIR;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(secret);

    const env = { COINOP_CLIENT_SECRET: secret };
    const viaEnv = await sb.runIn(
      [
        'login',
        '--env',
        'custom',
        '--base-url',
        sb.svc.baseUrl,
        '--client-id',
        DEMO.readonlyClientId,
        '--name',
        'ro',
        '--scopes',
        'exchange:historical_prices,transfer:read_transfer',
      ],
      { env },
    );
    expect(viaEnv.code, viaEnv.stderr).toBe(0);

    const list = await sb.run(['context', 'list']);
    const names = json(list.stdout).map((p: { name: string; active: boolean }) => `${p.name}${p.active ? '*' : ''}`);
    // A read-only client's context is saved, not made the active one without --activate.
    expect(names).toEqual(expect.arrayContaining(['local', 'sb*', 'ro']));
    expect(viaEnv.stderr).toContain('is not made the active one without --activate');
    expect((await sb.run(['context', 'use', 'sb'])).code).toBe(0);
    const show = await sb.run(['context', 'show']);
    expect(json(show.stdout)).toMatchObject({ name: 'sb', environment: 'custom', has_secret: true });
    expect(show.stdout).not.toContain(secret);

    const st = await sb.run(['auth', 'status', '--debug']);
    expect(st.code, st.stderr).toBe(0);
    const s = json(st.stdout);
    expect(s.profile).toBe('sb');
    expect(s.context).toBe('sb');
    expect(s.scopes).toContain('transfer:write_crypto_withdrawal');
    expect(Date.parse(s.token_expires_at)).toBeGreaterThan(Date.now());
    expect(st.stdout + st.stderr).not.toContain(secret);
    // The token is cached: a second command asks for no new one.
    await sb.sent();
    await sb.run(['auth', 'status']);
    await sb.run(['transfers', 'list', '--limit', '1']);
    expect((await sb.sent()).filter((e) => e.url.startsWith('/oauth2'))).toEqual([]);
    expect(statSync(join(dir, 'tokens.json')).mode & 0o777).toBe(0o600);

    const lo = await sb.run(['logout']);
    expect(lo.code).toBe(0);
    const after = await sb.runIn(['auth', 'status', '--context', 'sb']);
    expect(after.code).toBe(2);
    expect(existsSync(join(dir, 'secrets.json')) ? readFileSync(join(dir, 'secrets.json'), 'utf8') : '').not.toContain(
      '"sb"',
    );
    await sb.runIn(['context', 'use', 'local']);
  });

  it('auth status exits 4 when the profile cannot authenticate, and with a bad COINOP_TOKEN', async () => {
    const r = await sb.run(['auth', 'status'], { env: { COINOP_TOKEN: 'bogus-token' } });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/hint: run: coinop login/);
    const w = await sb.runIn(['transfers', 'list'], { env: { COINOP_TOKEN: 'bogus-token' } });
    expect(w.code).toBe(4);
    const j = await sb.runIn(['transfers', 'list', '--json'], { env: { COINOP_TOKEN: 'bogus-token' } });
    expect(json(j.stderr.trim()).error).toMatchObject({ category: 'auth', exit_code: 4 });
  });

  it('a 401 on a cached token triggers one refresh and one retry', async () => {
    await sb.runIn(['transfers', 'list', '--limit', '1']);
    // Poison the cached token: the next command gets a 401, refreshes once and succeeds.
    const file = join(sb.env.COINOP_CONFIG_DIR, 'tokens.json');
    const tokens = json(readFileSync(file, 'utf8'));
    for (const k of Object.keys(tokens)) tokens[k].accessToken = 'revoked';
    writeFileSync(file, JSON.stringify(tokens));
    await sb.sent();
    const r = await sb.run(['transfers', 'list', '--limit', '1']);
    expect(r.code, r.stderr).toBe(0);
    const sent = await sb.sent();
    expect(sent.map((e) => `${e.status} ${e.url.split('?')[0]}`)).toEqual([
      '401 /v2/transfer/transfers',
      '200 /oauth2/token',
      '200 /v2/transfer/transfers',
    ]);
  });

  it('--debug logs method, URL, status, timing and bodies, with the token and secret redacted', async () => {
    const r = await sb.run(['withdraw', '--debug', ...transferFlags('BTC', '0.01')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/v2\/transfer\/crypto-withdrawals/);
    expect(r.stderr).toMatch(/< 20\d .*\(\d+ ms\)/);
    expect(r.stderr).toContain(`"destination_address":"${BTC_ADDRESS}"`);
    expect(r.stderr).toContain('"authorization":"[redacted]"');
    const tokens = json(readFileSync(join(sb.env.COINOP_CONFIG_DIR, 'tokens.json'), 'utf8'));
    for (const t of Object.values<{ accessToken: string }>(tokens)) {
      expect(r.stderr).not.toContain(t.accessToken);
      expect(r.stdout).not.toContain(t.accessToken);
    }
    expect(r.stderr + r.stdout).not.toContain(DEMO.clientSecret);
  });

  it('network errors exit 5 after retries', async () => {
    const r = await sb.run(['transfers', 'list'], {
      env: { COINOP_BASE_URL: 'http://127.0.0.1:9', COINOP_AUTH_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(5);
    // The local context's address is asked who it is before any secret leaves: nothing is sent.
    expect(r.stderr).toMatch(/cannot reach the local service at http:\/\/127\.0\.0\.1:9: ECONNREFUSED/);
    expect(r.stderr).toContain('nothing was sent');
  });

  it('completion scripts match the committed ones', async () => {
    for (const [shell, file] of [
      ['bash', 'coinop.bash'],
      ['zsh', '_coinop'],
      ['fish', 'coinop.fish'],
    ]) {
      const r = shell === 'bash' ? await sb.run(['completion', shell]) : await sb.runIn(['completion', shell]);
      expect(r.code).toBe(0);
      // On failure: npm run build && node completions/generate.mjs, and commit the scripts.
      expect(
        r.stdout === readFileSync(join(__dirname, '../../completions', file), 'utf8'),
        `completions/${file} is stale: run node completions/generate.mjs`,
      ).toBe(true);
    }
    const bash = (await sb.runIn(['completion', 'bash'])).stdout;
    expect(bash).toContain('"withdraw batch"');
    expect(bash).toContain('BTCUSD');
  });
});
