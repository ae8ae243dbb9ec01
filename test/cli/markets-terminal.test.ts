// coinop book and ticker on a real (pseudo-)terminal: a market left out is asked for from a select list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

describe('market data on a terminal', () => {
  it('`coinop book` alone asks for the market, then shows the book side by side', async () => {
    const t = new Term(['book', '--depth', '3'], { ...sb.env, NO_COLOR: undefined });
    await t.waitFor('Market');
    t.type(KEY.down + KEY.down + KEY.down + KEY.enter); // ETHEUR, ETHUSD, BTCEUR, BTCUSD
    expect(await t.exit()).toBe(0);
    const s = t.screen();
    expect(s).toMatch(/LEVEL\s+BID AMOUNT\s+BID PRICE\s+ASK PRICE\s+ASK AMOUNT/);
    expect(s).toMatch(/^3\s+[\d,]+\.\d{8}\s+\d{1,3}(,\d{3})*\.\d{2}\s+\d{1,3}(,\d{3})*\.\d{2}\s+[\d,]+\.\d{8}$/m);
    expect(s).toMatch(/BTCUSD · spread /);
  });

  it('--no-input never prompts: a missing market is a usage error', async () => {
    const t = new Term(['ticker', '--no-input'], sb.env);
    expect(await t.exit()).toBe(2);
    expect(t.screen()).toContain('missing MARKET');
  });
});
