// Stablecoin conversions on a real terminal (node-pty): convert picks the stablecoin and asks for the amount when the
// flags leave them out, shows each balance's change before it asks, and a "no" sends nothing; a "yes" sends it once,
// and conversions cancel picks it among the CREATED ones and asks before it cancels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const CONVERSIONS = '/v2/conversion/stablecoins';

describe('stablecoin conversions on a terminal', () => {
  it('convert asks for the stablecoin and the amount, shows both balances, and sends only on yes; cancel picks it', async () => {
    await sb.sent();
    const declined = new Term(['convert'], sb.env);
    await declined.waitFor('Convert USD to');
    declined.type(KEY.enter); // USDP, the first
    await declined.waitFor('Amount of USD to convert to USDP');
    declined.type(`12.345${KEY.enter}`);
    await declined.waitFor('at most 2 decimals');
    declined.type(`\u007f${KEY.enter}`); // backspace: 12.34
    await declined.waitFor('Send this conversion?');
    expect(declined.screen()).toMatch(/USD balance\s+\S+ USD → \S+ USD/);
    expect(declined.screen()).toMatch(/USDP balance\s+\S+ USDP → \S+ USDP once SETTLED/);
    declined.type(`n${KEY.enter}`);
    expect(await declined.exit()).toBe(3);
    expect((await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith(CONVERSIONS))).toEqual([]);

    const sent = new Term(['convert', '--to', 'PYUSD', '--amount', '7', '--ref-id', 'term-conv'], sb.env);
    await sent.waitFor('Send this conversion?');
    sent.type(`y${KEY.enter}`);
    expect(await sent.exit()).toBe(0);
    expect(sent.screen()).toMatch(/✓ conversion submitted: conversion \S+/);

    const cancel = new Term(['conversions', 'cancel'], sb.env);
    await cancel.waitFor('Cancel conversion');
    expect(cancel.screen()).toMatch(/7 USD → PYUSD\s+CREATED\s+ref term-conv/);
    cancel.type(KEY.enter);
    await cancel.waitFor('Cancel it?');
    expect(cancel.screen()).toMatch(/gives back\s+7 USD to service profile/);
    cancel.type(`y${KEY.enter}`);
    expect(await cancel.exit()).toBe(0);
    expect(cancel.screen()).toMatch(/✓ conversion \S+ CANCELLED: 7 USD given back/);
  });
});
