// Input, as a person types it: every choice in any case (what is printed and sent is its one spelling), errors that
// list what is valid and point at where to look, an invalid --asset picked again on a terminal (refused when piped),
// and times as dates, years and weeks, named by their flag.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRYPTO_ASSETS } from '../../src/contract/index.js';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

describe('choices in any case', () => {
  it('a withdrawal: asset and network as typed, sent and shown in capitals', async () => {
    const r = await sb.run([
      'withdraw',
      '--asset',
      'usdp',
      '--network',
      'Ethereum',
      '--address',
      ETH_ADDRESS,
      '--amount',
      '5',
      '--balance-asset',
      'usd',
      '--dry-run',
      '-o',
      'JSON',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body).toMatchObject({
      asset: 'USDP',
      crypto_network: 'ETHEREUM',
      balance_asset: 'USD',
    });
    const table = await sb.run([
      'withdraw',
      '--asset',
      'btc',
      '--network',
      'bitcoin',
      '--address',
      BTC_ADDRESS,
      '--amount',
      '0.01',
      '--dry-run',
      '-o',
      'Table',
    ]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toMatch(/asset\s+BTC\n\s+network\s+BITCOIN/);
  });

  it('lists, prices, limits, fee quotes, addresses, destinations, streams and the completion shells', async () => {
    await sb.sent();
    for (const args of [
      [
        'transfers',
        'list',
        '--status',
        'pending',
        '--type',
        'crypto_withdrawal',
        '--order',
        'asc',
        '--order-by',
        'created_at',
        '--limit',
        '1',
      ],
      ['prices', 'btcusd', '--increment', 'one_hour', '--limit', '2'],
      ['limits', '--type', 'crypto_withdrawal'],
      ['fee', 'quote', '--asset', 'eth', '--network', 'base', '--address', ETH_ADDRESS, '--amount', '0.5'],
      ['addresses', 'list', '--network', 'bitcoin', '--order', 'desc'],
      ['destinations', 'list', '--network', 'ethereum'],
      ['deposit-instructions', 'list', '--order', 'asc'],
      ['stream', '--channel', 'HEARTBEAT', '--count', '1'],
    ]) {
      const r = await sb.run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const sent = (await sb.sent()).map((e) => decodeURIComponent(e.url));
    // type goes with the time filters only (the OpenAPI): the statuses are applied by coinop.
    expect(sent).toContainEqual('/v2/transfer/transfers?type=CRYPTO_WITHDRAWAL&limit=1&order=ASC&order_by=CREATED_AT');
    expect(sent).toContainEqual(expect.stringMatching(/\/markets\/BTCUSD\/historical-prices\?increment=ONE_HOUR/));
    expect(sent).toContainEqual('/v2/transfer/limits/utilizations?transfer_type=CRYPTO_WITHDRAWAL');
    expect(sent).toContainEqual('/v2/transfer/crypto-destination-addresses?crypto_networks=ETHEREUM');
    expect(sent).toContainEqual(expect.stringMatching(/deposit-addresses\?networks=BITCOIN&order=DESC/));
    const bash = await sb.run(['completion', 'BASH']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toMatch(/^# coinop shell completion/);
  });

  it('a batch file with lower-case networks and assets and its columns in any case', async () => {
    const file = join(sb.dir, 'cases.csv');
    writeFileSync(
      file,
      `Destination_Address,ASSET,crypto_network,Amount\n${BTC_ADDRESS},btc,bitcoin,0.01\n${ETH_ADDRESS},eth,Base,0.2\n`,
    );
    const r = await sb.run(['withdraw', 'batch', file, '--dry-run', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(
      JSON.parse(r.stdout).map((t: { asset: string; crypto_network: string }) => [t.asset, t.crypto_network]),
    ).toEqual([
      ['BTC', 'BITCOIN'],
      ['ETH', 'BASE'],
    ]);
  });

  it('a value outside a closed choice names the flag and lists the choices, in JSON too', async () => {
    const r = await sb.run(['-o', 'xml', 'markets']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --output: must be one of table, json, ndjson, csv\n');
    const j = await sb.run(['limits', '--type', 'gift', '--json']);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stderr).error.message).toMatch(/^--type: must be one of INTERNAL_TRANSFER_DEBIT, /);
  });
});

describe('errors that say what is valid', () => {
  it('an asset outside the catalogue lists the valid ones, or names a close one; nothing is sent', async () => {
    await sb.sent();
    const close = await sb.run(['withdraw', '--asset', 'dogx', '--network', 'BITCOIN', '--address', BTC_ADDRESS]);
    expect(close.stderr).toBe(
      'error: --asset: DOGX is not a crypto asset this service withdraws (did you mean DOGE?)\n',
    );
    const r = await sb.run([
      'withdraw',
      '--asset',
      'moon',
      '--network',
      'BITCOIN',
      '--address',
      BTC_ADDRESS,
      '--amount',
      '1',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --asset: MOON is not a crypto asset this service withdraws (${CRYPTO_ASSETS.join(', ')})\n`,
    );
    expect(await sb.sent()).toEqual([]);
  });

  it('an asset given without its network names the networks it moves on', async () => {
    const r = await sb.run(['withdraw', '--asset', 'doge', '--address', 'x', '--amount', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: missing --network: DOGE moves on DOGECOIN (hint: give --network, or run on a terminal to be asked)\n',
    );
  });

  it('a market that is not one points at coinop markets, which lists them', async () => {
    for (const args of [
      ['prices', 'FOOUSD'],
      ['ticker', 'FOOUSD'],
      ['stream', 'trades', 'FOOUSD'],
      ['prices', 'BTC-USD'],
    ]) {
      const r = await sb.run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/\(hint: coinop markets lists them\)\n$/);
    }
    const listed = await sb.run(['markets', '-o', 'json']);
    expect(JSON.parse(listed.stdout).map((m: { market: string }) => m.market)).toContain('BTCUSD');
  });
});

describe('an invalid --asset on a terminal', () => {
  it('opens the picker with a note instead of stopping; the network is kept when the asset picked has it', async () => {
    const t = new Term(
      ['withdraw', '--asset', 'DOGX', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.01'],
      sb.env,
    );
    await t.waitFor('note: --asset: DOGX is not a crypto asset this service withdraws; pick one instead');
    await t.waitFor('Asset');
    t.type(KEY.enter); // BTC, first in the list
    await t.waitFor('Send this withdrawal?');
    expect(t.screen()).toMatch(/asset\s+BTC/);
    t.type(`n${KEY.enter}`);
    expect(await t.exit()).toBe(3);
  });

  it('with --yes it is a usage error instead: no picker whose first answer one Enter would send (issue 23)', async () => {
    const t = new Term(
      ['withdraw', '--asset', 'DOGX', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.01', '--yes'],
      sb.env,
    );
    expect(await t.exit()).toBe(2);
    expect(t.screen()).toContain('error: --asset: DOGX is not a crypto asset');
    expect(t.screen()).not.toContain('pick one instead');
  });

  it('a network the picked asset does not move on is picked too', async () => {
    const t = new Term(
      ['fee', 'quote', '--asset', 'ETH', '--network', 'BITCOIN', '--address', ETH_ADDRESS, '--amount', '0.5'],
      sb.env,
    );
    await t.waitFor('note: --network: ETH cannot be withdrawn on BITCOIN; pick one instead');
    await t.waitFor('Network for ETH');
    t.type(KEY.down + KEY.enter); // ETHEREUM, BASE
    expect(await t.exit()).toBe(0);
    expect(t.screen()).toMatch(/network\s+BASE/);
  });
});

describe('times', () => {
  it('a date alone is its midnight UTC; years and weeks back from now; the error names the flag and the forms', async () => {
    await sb.sent();
    const day = await sb.run(['prices', 'BTCUSD', '--increment', 'ONE_HOUR', '--from', '2026-01-01', '--limit', '1']);
    expect(day.code, day.stderr).toBe(0);
    const years = await sb.run([
      'transfers',
      'list',
      '--created-after',
      '10y',
      '--created-before',
      '2w',
      '--limit',
      '1',
    ]);
    expect(years.code, years.stderr).toBe(0);
    const sent = (await sb.sent()).map((e) => decodeURIComponent(e.url));
    expect(sent).toContainEqual(expect.stringContaining('range.begin=2026-01-01T00:00:00Z'));
    expect(sent).toContainEqual(expect.stringMatching(/created_at\.gt=20\d\d-\d\d-\d\dT/));
    const bad = await sb.run(['prices', 'BTCUSD', '--from', 'yesterday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: --from: "yesterday" is not a time; give an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)\n',
    );
    const order = await sb.run(['prices', 'BTCUSD', '--from', '2h', '--to', '3h']);
    expect(order.code).toBe(2);
    expect(order.stderr).toMatch(/^error: --from: \S+ is after --to \S+; the range must start before it ends\n$/);
    expect(order.stderr).not.toMatch(/range\.(begin|end)/);
    const help = await sb.run(['prices', '--help']);
    expect(help.stdout).toMatch(/--from <time>\s+range start: RFC 3339, a date \(midnight UTC\)/);
  });
});
