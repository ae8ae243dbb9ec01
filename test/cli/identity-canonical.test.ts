// One gate for money (issue 23), at the command line and the MCP server: the same payment spelled another way is the
// same request (the destination sent is its one spelling), and with --yes or --no-input a missing or refused value
// is a usage error even on a terminal, never a picker whose preselected answer one Enter would send.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHealth } from '../../src/client/service-identity.js';
import { withdrawalContent } from '../../src/cli/approval-content.js';
import { DEMO } from '../../src/embedded/demo.js';
import { answerOf, inProcess } from '../mcp/support.js';
import { TLS_ENV, tlsFront } from '../support/tls.js';
import { BTC_ADDRESS, ETH_ADDRESS, type Run, type Sandbox, sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const BC1 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const CASH = 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a';

const withdrawalPosts = async () =>
  (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));

describe('the destination is sent in its one spelling', () => {
  it('withdraw: the dry run shows it, the transfer is made to it', async () => {
    const dry = await sb.runIn([
      ...['withdraw', '--asset', 'ETH', '--network', 'ETHEREUM', '--address', ETH_ADDRESS.toLowerCase()],
      ...['--amount', '0.01', '--dry-run', '-o', 'json'],
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).body.destination_address).toBe(ETH_ADDRESS);
    const sent = await sb.runIn([
      ...['withdraw', '--asset', 'BCH', '--network', 'BITCOIN_CASH', '--address', CASH.slice(12).toUpperCase()],
      ...['--amount', '0.01', '--yes', '-o', 'json'],
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const transfer = JSON.parse(sent.stdout);
    expect(transfer.destination_address).toBe(CASH);
    const held = await sb.runIn(['transfers', 'get', transfer.id, '-o', 'json']);
    expect(JSON.parse(held.stdout).destination_address).toBe(CASH);
  });

  it('fee quote: quoted for the spelling the withdrawal sends', async () => {
    const r = await sb.runIn([
      ...['fee', 'quote', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BC1.toUpperCase()],
      ...['--amount', '0.01', '-o', 'json'],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).destination_address).toBe(BC1);
  });

  it('the MCP withdraw and fee_quote tools', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      const given = { asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BC1.toUpperCase() };
      const p = answerOf(await s.call('withdraw', { ...given, amount: '0.01', quote: true }));
      expect(p.request.body.destination_address).toBe(BC1);
      expect(p.fee_quote.destination_address).toBe(BC1);
      const q = answerOf(await s.call('fee_quote', { ...given, amount: '0.01' }));
      expect(q.destination_address).toBe(BC1);
      // Another network's address is refused naming the network it looks like; nothing is sent.
      await sb.sent();
      const wrong = await s.call('withdraw', { ...given, crypto_network: 'LITECOIN', asset: 'LTC', amount: '1' });
      expect(wrong.isError).toBe(true);
      expect(JSON.stringify(wrong.content)).toContain(
        `${BC1.toUpperCase()} is not a LITECOIN address (it looks like a BITCOIN address)`,
      );
      expect(await withdrawalPosts()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('an approval of a saved withdrawal names the destination in the spelling withdraw --request sends', () => {
    const scope = { kind: 'withdrawal' as const, environment: 'local', service: 'x', profileId: DEMO.profileId };
    const body = {
      profile_id: DEMO.profileId,
      asset: 'ETH',
      crypto_network: 'ETHEREUM' as const,
      destination_address: ETH_ADDRESS,
      amount: '1',
      ref_id: 'r-1',
    };
    const hand = withdrawalContent(scope, { ...body, destination_address: ETH_ADDRESS.toLowerCase() });
    expect(hand).toEqual(withdrawalContent(scope, body));
  });

  it.each([
    ['LTC', 'LITECOIN', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'a BITCOIN'],
    ['DOGE', 'DOGECOIN', '2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK', 'a BITCOIN'],
    ['BTC', 'BITCOIN', 'LW98ceYNxYki9e9QxDACLn82TtVEPm4qmy', 'a LITECOIN'],
    ['SOL', 'SOLANA', ETH_ADDRESS, 'an EVM'],
  ])(
    '%s on %s to %s: refused, naming the network it looks like; nothing is sent',
    async (asset, network, address, like) => {
      await sb.sent();
      const r = await sb.runIn([
        'withdraw',
        '--asset',
        asset,
        '--network',
        network,
        '--address',
        address,
        '--amount',
        '1',
        '--yes',
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: --address: ${address} is not ${/^[AEIOU]/.test(network) ? 'an' : 'a'} ${network} address (it looks like ${like} address)\n`,
      );
      expect(await withdrawalPosts()).toEqual([]);
    },
  );

  it('a Bitcoin legacy address for BITCOIN_CASH is refused with its CashAddr; nothing is sent', async () => {
    await sb.sent();
    const r = await sb.runIn([
      ...['withdraw', '--asset', 'BCH', '--network', 'BITCOIN_CASH', '--address', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu'],
      ...['--amount', '0.01', '--yes'],
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: --address: 1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu is not a BITCOIN_CASH address (it looks like a BITCOIN address)',
    );
    expect(r.stderr).toContain(`give it as ${CASH}`);
    expect(await withdrawalPosts()).toEqual([]);
  });
});

/**
 * The command line in this process with a stdin and stderr that say they are a terminal (so a prompt could open).
 * A prompt that opens anyway is answered with Ctrl-C (it cancels) and reported as `asked`.
 */
async function onTerminal(args: string[]): Promise<Run & { asked: boolean }> {
  const { runCli } = await import('../../src/commands/main.js');
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const out = new PassThrough();
  const err = Object.assign(new PassThrough(), { isTTY: true, columns: 100, rows: 40 });
  let stdout = '';
  let stderr = '';
  let asked = false;
  out.on('data', (d) => (stdout += d));
  err.on('data', (chunk) => {
    stderr += chunk;
    // inquirer's prompts start with "?" (the confirmation's too).
    if (!asked && /(^|\n)\s*\S*\?\s/.test(stderr.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))) {
      asked = true;
      stdin.write('\u0003');
    }
  });
  const code = await runCli(['node', 'coinop', ...args], {
    stdin,
    stdout: out,
    stderr: err,
    env: { ...sb.env, NO_COLOR: '1' },
  });
  return { code, stdout, stderr, asked };
}

describe('--yes and --no-input ask nothing, on a terminal too', () => {
  const btc = ['--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.01'];

  it.each([
    [['withdraw', '--asset', 'DOGX', ...btc, '--yes'], 'error: --asset: DOGX is not a crypto asset'],
    [['withdraw', ...btc, '--yes'], 'error: missing --asset'],
    [['withdraw', '--asset', 'ETH', ...btc, '--yes'], 'error: --network: ETH cannot be withdrawn on BITCOIN'],
    [['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--amount', '0.01', '--yes'], 'error: missing --address'],
    [
      ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--yes'],
      'error: missing --amount',
    ],
    [['withdraw', '--asset', 'DOGX', ...btc, '--no-input'], 'error: --asset: DOGX is not a crypto asset'],
    [
      ['transfer', 'internal', '--from-profile-id', DEMO.profileId, '--asset', 'USD', '--amount', '1', '--yes'],
      'error: missing --to-profile-id',
    ],
    [
      ['transfer', 'internal', '--to-profile-id', DEMO.emptyProfileId, '--amount', '1', '--yes'],
      'error: missing --asset',
    ],
    [['sandbox', 'deposit', '--no-input'], 'error: missing'],
    [['addresses', 'create', '--no-input'], 'error: missing --network'],
  ])('%j: a usage error, no prompt, nothing sent', async (args, message) => {
    await sb.sent();
    const r = await onTerminal(args);
    expect(r.asked, r.stderr).toBe(false);
    expect(r.stderr).toContain(message);
    expect(r.code, r.stderr).toBe(2);
    expect((await sb.sent()).filter((e) => e.method === 'POST' && !e.url.startsWith('/oauth2'))).toEqual([]);
  });

  it('a missing value with --yes says to give the flag; nothing is asked', async () => {
    const r = await onTerminal(['withdraw', ...btc, '--yes']);
    expect(r.stderr).toMatch(/give --asset \(with --yes nothing is asked\)/);
  });

  it('without --yes the same terminal is asked (the rule is --yes, not the terminal)', async () => {
    const r = await onTerminal(['withdraw', ...btc]);
    expect(r.asked).toBe(true);
    expect(r.code).toBe(3);
  });
});

describe('the local context at an https address (COINOP_BASE_URL=https://...)', () => {
  it('is probed over https and used, not an internal error (Protocol "https:" not supported)', async () => {
    const front = await tlsFront(sb.svc.baseUrl);
    try {
      // In process: the health probe answers over https (the test certificate is not trusted here: a TLS failure,
      // reported as one, never a throw).
      const probe = await probeHealth(front.url, 5000);
      expect(probe.kind).toBe('failed');
      // A child process, which trusts the test certificate (NODE_EXTRA_CA_CERTS is read at start): the default
      // local context works over https end to end.
      const r = await sb.run(['balances', '-o', 'json'], { env: { ...TLS_ENV, COINOP_BASE_URL: front.url } });
      expect(r.stderr).not.toContain('not supported');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).map((b: { asset: string }) => b.asset)).toContain('BTC');
    } finally {
      await front.close();
    }
  });

  it('an address of another protocol is a failed probe, not a throw', async () => {
    expect(await probeHealth('ftp://127.0.0.1:1', 1000)).toEqual({ kind: 'failed', code: 'unsupported protocol ftp:' });
  });
});
