// coinop on a real (pseudo-)terminal: prompts walk an operator through, tables, charts, colour and confirmations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, BTC_ADDRESS, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';
import { DEMO } from '../../src/embedded/demo.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ withdrawalSettleSeconds: 1 });
});
afterAll(async () => sb?.close());

const t_down = (t: Term, n: number) => t.type(KEY.down.repeat(n) + KEY.enter);
const term = (args: string[], env: Record<string, string | undefined> = {}) =>
  new Term(args, { ...sb.env, NO_COLOR: undefined, ...env });

describe('coinop on a terminal', () => {
  it('`coinop withdraw` alone walks through a withdrawal: select lists, validated input, confirmation, table', async () => {
    await sb.sent();
    const t = term(['withdraw']);
    await t.waitFor('Asset');
    t.type(KEY.enter); // BTC, first in the list
    // BTC moves on BITCOIN only, so no network question.
    await t.waitFor('Destination address (BITCOIN)');
    t.type(`0xnot-bitcoin${KEY.enter}`);
    await t.waitFor('not a BITCOIN address');
    t.type('\u0015'.repeat(1));
    for (let i = 0; i < 20; i++) t.type('\u007f');
    t.type(BTC_ADDRESS + KEY.enter);
    await t.waitFor('Give');
    t.type(KEY.enter); // amount
    await t.waitFor('Amount of BTC');
    t.type(`0.000000001${KEY.enter}`);
    await t.waitFor('at most 8 decimals');
    for (let i = 0; i < 12; i++) t.type('\u007f');
    t.type(`0.02${KEY.enter}`);
    await t.waitFor('Send this withdrawal?');
    const summary = t.screen();
    for (const want of [
      'environment',
      'local',
      'context',
      'service profile demo (5d1f2a3b)',
      'asset',
      'BTC',
      'network',
      'BITCOIN',
      'destination',
      BTC_ADDRESS,
      'amount',
      '0.02',
      'fee',
      '0.00002 BTC',
      'total',
      '0.02002 BTC',
    ]) {
      expect(summary).toContain(want);
    }
    expect((await sb.sent()).filter((e) => e.url.includes('crypto-withdrawals'))).toEqual([]);
    t.type(`y${KEY.enter}`);
    expect(await t.exit()).toBe(0);
    const s = t.screen();
    expect(s).toMatch(/status\s+PENDING/);
    expect(s).toMatch(/created\s+(just now|\d+ s ago)/);
    expect(
      (await sb.sent()).filter((e) => e.url.includes('crypto-withdrawals')).map((e) => Math.floor(e.status / 100)),
    ).toEqual([2]);
  });

  it('answering no at the confirmation sends nothing and exits 3', async () => {
    await sb.sent();
    const t = term(['withdraw', ...transferFlags('ETH', '0.1', '0xF0Aa84466e353E5390be37FE2934301c07c19a55')]);
    await t.waitFor('Send this withdrawal?');
    t.type(`n${KEY.enter}`);
    expect(await t.exit()).toBe(3);
    expect(t.screen()).toContain('cancelled: nothing was sent');
    expect((await sb.sent()).filter((e) => e.url.includes('crypto-withdrawals'))).toEqual([]);
  });

  it('prices on a terminal: a table, a line chart, the environment line; `coinop prices` alone asks for market and increment', async () => {
    const t = term(['prices', 'BTCUSD', '--increment', 'ONE_HOUR', '--limit', '48', '--no-pager']);
    expect(await t.exit()).toBe(0);
    // The chart's last lines may reach the terminal after the exit is seen (a loaded machine): wait for its axis.
    await t.waitFor('└──');
    const s = t.screen();
    expect(s).toContain(`local · ${sb.svc.baseUrl} · context local`);
    expect(s).toMatch(/TIMESTAMP\s+AVERAGE PRICE/);
    expect(s).toMatch(/\d{4}-\d\d-\d\dT\d\d:00:00.000Z\s+\d{1,3}(,\d{3})*\.\d\d/);
    expect(s).toMatch(/[\u2801-\u28ff]/); // braille dots of the chart
    expect(s).toContain('└──');
    expect(t.raw).toMatch(/\u001b\[1m/); // colour (bold headers) is on: a terminal, no NO_COLOR

    const ask = term(['prices', '--no-pager']);
    await ask.waitFor('Market');
    ask.type(KEY.down + KEY.down + KEY.down + KEY.enter); // ETHEUR, ETHUSD, BTCEUR, BTCUSD
    await ask.waitFor('Increment');
    ask.type(KEY.enter); // ONE_HOUR, the default
    expect(await ask.exit()).toBe(0);
    expect(ask.screen()).toMatch(/BTCUSD · \d+ (of \d+ )?prices · ONE_HOUR/);
  });

  it('NO_COLOR turns colour off on a terminal; --no-input never prompts', async () => {
    const t = term(['transfers', 'list', '--limit', '3'], { NO_COLOR: '1' });
    expect(await t.exit()).toBe(0);
    expect(t.raw).not.toMatch(/\u001b\[(1|2|3\d)m/);
    expect(t.screen()).toMatch(/ID\s+STATUS\s+TYPE/);
    const n = term(['withdraw', '--no-input']);
    expect(await n.exit()).toBe(2);
    expect(n.screen()).toContain('missing --asset');
    const e = term(['withdraw'], { COINOP_NO_INPUT: '1' });
    expect(await e.exit()).toBe(2);
  });

  it('interactive login: environment select, masked secret, scopes; the secret never appears on screen', async () => {
    const t = term(['login', '--name', 'tty-local']);
    await t.waitFor('Environment');
    t.type(KEY.up + KEY.enter); // local (sandbox is preselected)
    await t.waitFor('Client id');
    t.type(KEY.enter); // default local-admin
    await t.waitFor('Client secret');
    t.type(`local-secret${KEY.enter}`);
    await t.waitFor('Scopes');
    t.type(KEY.enter);
    expect(await t.exit()).toBe(0);
    const s = t.screen();
    expect(s).toContain('Logged in to local as local-admin');
    expect(s).not.toContain('local-secret');
    expect(s).toContain('************');
    const st = term(['auth', 'status']);
    expect(await st.exit()).toBe(0);
    expect(st.screen()).toMatch(/context\s+tty-local/);
    await sb.run(['logout', '--context', 'tty-local']);
  });

  it('fee quote asks for the network among those of the chosen asset; sandbox deposit asks for its values', async () => {
    const q = term(['fee', 'quote', '--asset', 'ETH']);
    await q.waitFor('Network for ETH');
    expect(q.screen()).toContain('ARBITRUM_ONE');
    expect(q.screen()).not.toContain('SOLANA');
    t_down(q, 1); // ETHEREUM, BASE
    await q.waitFor('Destination address (BASE)');
    q.type(`0xF0Aa84466e353E5390be37FE2934301c07c19a55${KEY.enter}`);
    await q.waitFor('Amount of ETH');
    q.type(`0.3${KEY.enter}`);
    expect(await q.exit()).toBe(0);
    expect(q.screen()).toMatch(/fee\s+0\.00001 ETH/);
    expect(q.screen()).toMatch(/total\s+0\.30001 ETH/);

    const d = term(['sandbox', 'deposit']);
    await d.waitFor('Amount (USD, at most 2 decimals)');
    d.type(`12.345${KEY.enter}`);
    await d.waitFor('such as 1000.00');
    d.type(`\u007f${KEY.enter}`);
    await d.waitFor('Memo id');
    d.type(KEY.enter); // the local demo memo id is the default
    // The sending account and bank, each with the sandbox's value offered: SWIFT chosen, its BIC typed.
    await d.waitFor('Sending account number');
    d.type(KEY.enter);
    await d.waitFor('Routing number type');
    d.type(KEY.down + KEY.enter);
    await d.waitFor('Routing number (SWIFT)');
    d.type(`021000021${KEY.enter}`);
    await d.waitFor('must be a BIC');
    d.type(`${'\u007f'.repeat(9)}DEUTDEFF${KEY.enter}`);
    await d.waitFor('Bank name');
    d.type(`Deutsche Bank${KEY.enter}`);
    expect(await d.exit()).toBe(0);
    expect(d.screen()).toContain(`deposit of 12.34 USD initiated for memo ${DEMO.memoId}`);
    const sent = (await sb.sent()).filter((e) => e.url === '/v2/sandbox/fiat-deposits');
    expect(sent.map((e) => e.status)).toEqual([200]);
  });

  it('Ctrl-C at a prompt cancels: exit 3, nothing sent', async () => {
    await sb.sent();
    const t = term(['withdraw']);
    await t.waitFor('Asset');
    t.type(KEY.ctrlC);
    expect(await t.exit()).toBe(3);
    expect(t.screen()).toMatch(/error: cancelled/);
    expect(await sb.sent()).toEqual([]);
  });

  it('withdraw --wait shows progress on the terminal and ends with the final transfer', async () => {
    const t = term([
      'withdraw',
      ...transferFlags('ETH', '0.1', '0xF0Aa84466e353E5390be37FE2934301c07c19a55'),
      '--yes',
      '--wait',
    ]);
    expect(await t.exit()).toBe(0);
    const s = t.screen();
    expect(s).toMatch(/transfer [0-9a-f-]+ PENDING/);
    expect(s).toMatch(/transfer [0-9a-f-]+ COMPLETED/);
    expect(s).toMatch(/status\s+COMPLETED/);
  });
});
