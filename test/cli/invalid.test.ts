// Every invalid flag or value of every command: exit 2, one line naming the flag, and nothing sent to the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BTC_ADDRESS, ETH_ADDRESS, runInProcess, sandbox, type Sandbox } from './helpers.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
  writeFileSync(join(sb.dir, 'bad.json'), '{not json');
});
afterAll(async () => sb?.close());

const W = ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS];
const Q = ['fee', 'quote', '--asset', 'ETH', '--network', 'ETHEREUM', '--address', ETH_ADDRESS];
const long = 'x'.repeat(101);

// [arguments, text the one-line message must contain]
const CASES: [string[], string][] = [
  // global
  [['--output', 'xml', 'prices', 'BTCUSD'], '--output'],
  [['--bogus', 'prices'], "unknown option '--bogus'"],
  [['nosuchcommand'], "unknown command 'nosuchcommand'"],
  [['--context', 'nope', 'prices', 'BTCUSD'], '--context: no context named "nope"'],
  // login
  [['login', '--env', 'moon'], '--env'],
  [['login', '--env', 'sandbox'], 'missing --client-id'],
  [['login', '--env', 'sandbox', '--client-id', 'abc'], 'missing client secret'],
  [
    ['login', '--env', 'custom', '--client-id', 'abc', '--base-url', 'not a url'],
    '--base-url: must be an absolute URL',
  ],
  [['login', '--env', 'custom', '--client-id', 'abc', '--base-url', 'ftp://x.example'], '--base-url: must start with'],
  [
    ['login', '--env', 'sandbox', '--client-id', 'abc', '--scopes', 'money:print'],
    '--scopes: "money:print" is not a scope',
  ],
  [['login', '--env', 'local', '--client-id', 'abc', '--base-url', 'https://x.example'], 'not with --env local'],
  [
    ['login', '--env', 'production', '--client-id', 'abc', '--auth-url', 'http://x.example'],
    "--auth-url: a production context's addresses must start with https://",
  ],
  [
    ['login', '--env', 'sandbox', '--client-id', 'abc', '--client-secret-stdin'],
    '--client-secret-stdin: stdin was empty',
  ],
  [['login', '--env', 'sandbox', '--client-id', 'abc', '--client-secret', 'shh'], "unknown option '--client-secret'"],
  // withdraw
  [[...W, '--amount', '1', '--total', '2'], '--amount and --total'],
  [[...W], 'missing --amount or --total'],
  [['withdraw', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '1'], 'missing --asset'],
  [['withdraw', '--asset', 'BTC', '--address', BTC_ADDRESS, '--amount', '1', '--no-input'], 'missing --network'],
  [['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--amount', '1'], 'missing --address'],
  [
    ['withdraw', '--asset', 'MOON', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '1'],
    '--asset: MOON is not a crypto asset',
  ],
  [
    ['withdraw', '--asset', 'USD', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '1'],
    '--asset: USD is not a crypto asset',
  ],
  [
    ['withdraw', '--asset', 'BTC', '--network', 'ETHEREUM', '--address', BTC_ADDRESS, '--amount', '1'],
    '--network: BTC cannot be withdrawn on ETHEREUM',
  ],
  [
    ['withdraw', '--asset', 'BTC', '--network', 'MOON', '--address', BTC_ADDRESS, '--amount', '1'],
    '--network: must be one of',
  ],
  [['withdraw', ...transferFlags('BTC', '1', '0xnope')], '--address: has a character outside the base58 alphabet'],
  // The issue "Never send wrong money": one character off, a too-short bech32, a wrong EIP-55 casing.
  [
    [...W.slice(0, -1), '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', '--amount', '0.001', '--yes'],
    '--address: checksum does not match: a character is mistyped',
  ],
  [[...W.slice(0, -1), 'bc1qqqqqqqqqqqqqq', '--amount', '0.001', '--yes'], '--address: checksum does not match'],
  [[...W.slice(0, -1), 'ltc1qg82tgjh5nq8fys0q0fstp8a8hezdpm4qgg2a4d', '--amount', '1'], 'bech32 prefix must be bc'],
  [
    [...Q.slice(0, -1), '0xF0Aa84466e353E5390be37FE2934301c07c19A55', '--amount', '1'],
    '--address: checksum does not match: a character is mistyped (EIP-55',
  ],
  [
    [
      ...['withdraw', '--asset', 'ETH', '--network', 'BASE', '--address', '0xF0Aa84466e353E5390be37FE2934301c07c19A55'],
      ...['--amount', '0.5', '--yes'],
    ],
    '--address: checksum does not match',
  ],
  [[...W, '--amount', '-1'], '--amount: must be a plain decimal'],
  [[...W, '--amount', '1e5'], '--amount: must be a plain decimal'],
  [[...W, '--amount', '0'], '--amount: must be greater than 0'],
  [[...W, '--total', '0.000000001'], '--total: has more than the 8 decimals'],
  [[...W, '--amount', '1', '--meta', 'novalue'], '--meta: "novalue" must be key=value'],
  [
    [...W, '--amount', '1', ...[1, 2, 3, 4, 5, 6, 7].flatMap((i) => ['--meta', `k${i}=v`])],
    '--meta: must have at most 6 pairs',
  ],
  [[...W, '--amount', '1', '--meta', `k=${long}`], '--meta.k: must be at most 100 characters'],
  [[...W, '--amount', '1', '--meta', 'k=a', '--meta', 'k=b'], '--meta: key "k" is given twice'],
  [[...W, '--amount', '1', '--fee-id', 'abc', '--quote'], '--fee-id and --quote'],
  [[...W, '--amount', '1', '--beneficiary', '{oops'], '--beneficiary: must be a JSON object'],
  [[...W, '--amount', '1', '--wait-timeout', 'soon'], '--wait-timeout: must be a positive time such as 30'],
  [[...W, '--amount', '1', '--balance-asset', 'EUR'], '--balance-asset: must be BTC'],
  [[...W, '--amount', '1', '--ref-id', ''], '--ref-id: must not be empty'],
  [[...W, '--amount', '1', '--memo', 'm'.repeat(1001)], '--memo: must be at most 1000 characters'],
  [[...W, '--amount', '1', '--profile-id', 'p'.repeat(129)], '--profile-id: must be at most 128 characters'],
  // fee quote
  [['fee', 'quote', '--asset', 'ETH', '--network', 'ETHEREUM', '--amount', '1'], 'missing --address'],
  [[...Q, '--amount', '1', '--total', '1'], '--amount and --total'],
  [[...Q, '--amount', '1.5.2'], '--amount: must be a plain decimal'],
  [[...Q], 'missing --amount or --total'],
  [
    ['fee', 'quote', '--asset', 'ETH', '--network', 'BITCOIN', '--address', ETH_ADDRESS, '--amount', '1'],
    '--network: ETH cannot be withdrawn on BITCOIN',
  ],
  // addresses list
  [['addresses', 'list', '--limit', '0'], '--limit: must be at least 1'],
  [['addresses', 'list', '--limit', '1001'], '--limit: must be at most 1000'],
  [['addresses', 'list', '--limit', 'ten'], '--limit: must be a whole number'],
  [['addresses', 'list', '--network', 'MOON'], '--network: must be one of'],
  [
    ['addresses', 'list', '--profile-id', Array.from({ length: 101 }, (_, i) => `p${i}`).join(',')],
    '--profile-id: must have at most 100 entries',
  ],
  [
    ['addresses', 'list', '--ref-id', Array.from({ length: 101 }, (_, i) => `r${i}`).join(',')],
    '--ref-id: must have at most 100 entries',
  ],
  [['addresses', 'list', '--created-after', 'yesterday-ish'], '--created-after: "yesterday-ish" is not a time; give'],
  [['addresses', 'list', '--order', 'UP'], '--order'],
  [['addresses', 'list', '--order-by', 'NAME'], '--order-by'],
  // addresses create
  [['addresses', 'create'], 'missing --network'],
  [['addresses', 'create', '--network', 'MOON'], '--network: must be one of'],
  [['addresses', 'create', '--network', 'BITCOIN', '--conversion', 'EUR'], '--conversion'],
  [['addresses', 'create', '--network', 'BITCOIN', '--meta', '=x'], '--meta: "=x" must be key=value'],
  // sandbox deposit
  [['sandbox', 'deposit'], 'missing --amount'],
  [['sandbox', 'deposit', '--amount', '1.234'], '--amount: must be a plain decimal number with at most 2 decimals'],
  [['sandbox', 'deposit', '--amount', '10', '--asset', 'EUR'], '--asset: must be USD'],
  [['sandbox', 'deposit', '--amount', '10', '--file', '/nonexistent/wire.json'], '--file: cannot read'],
  [['sandbox', 'deposit', '--amount', '10', '--file', 'BAD_JSON'], 'is not JSON (it must hold the wire instructions'],
  // prices
  [['prices'], 'missing MARKET'],
  [['prices', 'MOONUSD'], 'MARKET: "MOONUSD" is not a market'],
  [['prices', 'BTCUSD', '--increment', 'ONE_DAY', '--max-points', '5'], '--increment and --max-points'],
  [['prices', 'BTCUSD', '--increment', 'HOURLY'], '--increment: must be one of'],
  [['prices', 'BTCUSD', '--max-points', '0'], '--max-points: must be from 1'],
  [['prices', 'BTCUSD', '--limit', '5000'], '--limit: must be from 1 to 1000'],
  [['prices', 'BTCUSD', '--offset', '-1'], '--offset: must be a whole number'],
  [['prices', 'BTCUSD', '--from', 'last tuesday'], '--from: "last tuesday" is not a time; give an RFC 3339 time'],
  [
    ['prices', 'BTCUSD', '--from', '2026-02-01T00:00:00Z', '--to', '2026-01-01T00:00:00Z'],
    '--from: 2026-02-01T00:00:00Z is after --to 2026-01-01T00:00:00Z',
  ],
  // transfers
  [['transfers', 'list', '--status', 'DONE'], '--status: must be one of'],
  [['transfers', 'list', '--type', 'GIFT'], '--type: must be one of'],
  [['transfers', 'list', '--limit', '0'], '--limit: must be at least 1'],
  [['transfers', 'list', '--order-by', 'AMOUNT'], '--order-by'],
  [
    ['transfers', 'list', '--updated-after', '1h', '--order-by', 'CREATED_AT'],
    '--order-by: must be UPDATED_AT with updated_at filters',
  ],
  [['transfers', 'get'], 'missing ID'],
  [['transfers', 'get', 'abc', '--ref-id', 'x'], 'ID and --ref-id'],
  [['transfers', 'watch'], "missing required argument 'ids'"],
  [['transfers', 'watch', 'abc', '--timeout', '0'], '--timeout: must be a positive time'],
  [['transfers', 'watch', 'abc', '--wait-timeout', '2d'], '--wait-timeout: must be at most 24 h'],
  // api
  [['api', 'FETCH', '/v2/transfer/transfers'], 'METHOD: must be one of'],
  [['api', 'POST', '/v2/transfer/fees/crypto-withdrawal', '--input', '/nonexistent.json'], '--input: cannot read'],
  [
    ['api', 'POST', '/v2/transfer/fees/crypto-withdrawal', '--input', 'BAD_JSON'],
    'is not JSON (the request body must be JSON)',
  ],
  [['api', 'GET', '/v2/transfer/transfers', '-f', 'limit'], '--field: "limit" must be key=value'],
  [['api', 'POST', '/v2/transfer/transfers', '--paginate'], '--paginate: only with GET'],
  [['api', 'GET', 'https://evil.example/v2/x'], 'PATH: give a path'],
  // the rest
  [['completion', 'powershell'], 'SHELL: must be one of bash, zsh, fish'],
  [['-o', 'xml', 'markets'], '--output: must be one of table, json, ndjson, csv'],
  [['limits', '--type', 'gift'], '--type: must be one of'],
  [['context', 'use', 'nope'], 'no context named "nope"'],
  [['context', 'show', 'nope'], 'no context named "nope"'],
  [['local', 'start', '--port', '99999'], '--port: must be from 0 to 65535'],
];

describe('invalid input exits 2 with one line and sends nothing', () => {
  // The whole matrix runs the CLI in process (same program, context and client); every ninth case also runs as a
  // real child process through bin/coinop.js, so both paths are covered without ninety process start-ups.
  it(`${CASES.length} invalid invocations`, async () => {
    await sb.sent();
    const bad = join(sb.dir, 'bad.json');
    const failures: string[] = [];
    for (let i = 0; i < CASES.length; i += 6) {
      const batch = CASES.slice(i, i + 6);
      const results = await Promise.all(
        batch.map(([args], index) => {
          const a = args.map((x) => (x === 'BAD_JSON' ? bad : x));
          return (i + index) % 9 === 0 ? sb.run(a) : runInProcess(a, sb.env);
        }),
      );
      results.forEach((result, index) => {
        const [args, want] = batch[index];
        const lines = result.stderr.trim().split('\n');
        const label = `coinop ${args.join(' ').slice(0, 120)}`;
        if (result.code !== 2) failures.push(`${label}: exit ${result.code}: ${result.stderr.trim()}`);
        else if (lines.length !== 1 || !lines[0])
          failures.push(`${label}: not one line: ${JSON.stringify(result.stderr)}`);
        else if (!lines[0].includes(want))
          failures.push(`${label}: ${JSON.stringify(lines[0])} lacks ${JSON.stringify(want)}`);
        else if (/\n\s+at /.test(result.stderr)) failures.push(`${label}: stack trace`);
        if (result.stdout) failures.push(`${label}: printed data ${JSON.stringify(result.stdout.slice(0, 80))}`);
      });
    }
    expect(failures).toEqual([]);
    expect(await sb.sent()).toEqual([]);
  });

  it('-o json turns the usage error into one JSON object on stderr', async () => {
    const r = await sb.run(['withdraw', '--json', ...transferFlags('BTC', '1'), '--total', '1']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({
      error: { category: 'usage', exit_code: 2, message: '--amount and --total: give exactly one, not both' },
    });
    const c = await sb.run(['-o', 'json', 'prices', 'BTCUSD', '--nope']);
    expect(c.code).toBe(2);
    expect(JSON.parse(c.stderr).error.message).toContain("unknown option '--nope'");
    expect(await sb.sent()).toEqual([]);
  });
});
