// Fiat accounts and fiat withdrawals on a real terminal (node-pty): fiat-accounts create asks for what its flags left
// out, and withdraw fiat picks the account from the service's and confirms before it sends (a "no" sends nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

describe('fiat accounts and fiat withdrawals on a terminal', () => {
  it('create asks for the network, the owner and the wire instructions; withdraw fiat picks it and confirms', async () => {
    const made = new Term(['fiat-accounts', 'create', '--ref-id', 'term-acct'], sb.env);
    await made.waitFor('Fiat network');
    made.type(KEY.enter); // WIRE, the default
    await made.waitFor('Owned by');
    made.type(KEY.enter); // an institution
    await made.waitFor("The institution's name");
    made.type(`Acme Terminal Inc${KEY.enter}`);
    await made.waitFor('Account number');
    made.type(`55554444${KEY.enter}`);
    await made.waitFor('ABA routing number');
    made.type(`021000021${KEY.enter}`);
    await made.waitFor("The bank's name");
    made.type(`Customers Bank${KEY.enter}`);
    expect(await made.exit()).toBe(0);
    expect(made.screen()).toMatch(/✓ fiat account \S+ \(APPROVED\)/);

    await sb.sent();
    const sent = new Term(['withdraw', 'fiat', '--amount', '25'], sb.env);
    await sent.waitFor('Send to fiat account');
    expect(sent.screen()).toContain('WIRE XXXX4444');
    sent.type(KEY.enter);
    await sent.waitFor('Send this fiat withdrawal?');
    expect(sent.screen()).toMatch(/to\s+fiat account \S+: WIRE 55554444 \(Acme Terminal Inc\), APPROVED/);
    sent.type(`n${KEY.enter}`);
    expect(await sent.exit()).toBe(3);
    expect((await sb.sent()).filter((e) => e.url.startsWith('/v2/transfer/fiat-withdrawals'))).toEqual([]);
  });
});
