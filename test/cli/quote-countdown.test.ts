// withdraw --quote's confirmation on a real terminal (node-pty, read as a person sees it) against the local service:
// the fee's time left counts down under the question; a quote that runs out before the answer, by this machine's
// clock or by the service's, is renewed, a changed fee is shown and asked about again; without colour (NO_COLOR) or
// piped, the time left is said once and nothing is drawn again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const btc = (...more: string[]) => ['withdraw', ...transferFlags('BTC', '0.01'), '--quote', ...more];

/** Wide enough that no line of these screens wraps. */
const WIDE = 220;

/** The time left the screen shows now, in seconds ("fee guaranteed for 0:42" is 42). */
function shownLeft(term: Term): number | undefined {
  const all = [...term.screen().matchAll(/fee guaranteed for (\d+):(\d\d)/g)];
  const m = all.at(-1);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

const posts = (sent: { method: string; url: string; status: number }[]) =>
  sent.filter((e) => e.method === 'POST' && e.url.endsWith('/crypto-withdrawals'));

const setBtcFee = (s: Sandbox, fee: string) =>
  s.control('PUT', '/_local/fees', { fees: [{ asset: 'BTC', crypto_network: 'BITCOIN', fee }] });

describe('withdraw --quote: the time left counts down on a terminal', () => {
  it('is drawn again as it runs down; a quote the service saw expire is renewed and the new fee asked about', async () => {
    // Its own service: its clock is moved.
    const own = await sandbox();
    const t = new Term(btc('-o', 'json'), { ...own.env, NO_COLOR: undefined }, WIDE);
    try {
      await t.waitFor(/Send this withdrawal\? \(y\/N\)[\s\S]*fee guaranteed for \d+:\d\d/);
      const first = shownLeft(t)!;
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(60);
      // The same screen, a moment later: the line under the question shows less time.
      await t.waitFor(() => (shownLeft(t) ?? first) < first);
      expect(t.raw).toContain('\u001b['); // drawn in place, with cursor moves
      // The service's clock moves past the quote's expiry (and its fee goes up) while this machine's says it holds.
      await setBtcFee(own, '0.00005');
      await own.control('POST', '/_local/clock/advance', { seconds: 120 });
      t.type(`y${KEY.enter}`);
      await t.waitFor(
        "the service says the fee quote expired (its clock is ahead of this machine's) and the fee changed: 0.00002 → 0.00005 BTC; check it and confirm again",
      );
      // Shown again with the new fee, and asked again.
      await t.waitFor(/fee changed[\s\S]*fee\s+0\.00005 BTC[\s\S]*total\s+0\.01005 BTC[\s\S]*Send this withdrawal\?/);
      t.type(`y${KEY.enter}`);
      expect(await t.exit(), t.screen()).toBe(0);
      const transfer = JSON.parse(t.screen().slice(t.screen().indexOf('{')));
      expect(transfer.fee).toBe('0.00005');
      const sent = await own.sent();
      expect(sent.filter((e) => e.url.endsWith('/fees/crypto-withdrawal'))).toHaveLength(2);
      // The first send was refused as expired (nothing made), the second made the one transfer.
      expect(posts(sent).map((e) => e.status)).toEqual([403, 200]);
    } finally {
      t.proc.kill();
      await own.close();
    }
  });

  it("a quote that runs out at the question by this machine's clock is renewed and asked again", async () => {
    const short = await sandbox({ feeQuoteLifetimeSeconds: 4 });
    const t = new Term(btc('-o', 'json'), { ...short.env, NO_COLOR: undefined }, WIDE);
    try {
      await t.waitFor(/fee guaranteed for 0:0\d/);
      // The fee goes up; then the quotes hold long enough to answer (in this order: a quote made in between has the
      // new fee and runs out soon, so the change is still seen).
      await setBtcFee(short, '0.00003');
      short.svc.config.feeQuoteLifetimeSeconds = 120;
      await t.waitFor('the fee quote expired before the answer and the fee changed: 0.00002 → 0.00003 BTC');
      expect(t.screen()).toContain('(no answer in time)');
      // Answered once a quote holds for minutes (a slow machine may have seen one more short one run out).
      await t.waitFor(/fee changed[\s\S]*Send this withdrawal\? \(y\/N\)[\s\S]*fee guaranteed for [12]:\d\d$/);
      t.type(`y${KEY.enter}`);
      expect(await t.exit(), t.screen()).toBe(0);
      expect(JSON.parse(t.screen().slice(t.screen().indexOf('{'))).fee).toBe('0.00003');
      expect(posts(await short.sent())).toHaveLength(1);
    } finally {
      t.proc.kill();
      await short.close();
    }
  });
});

describe('withdraw --quote without a live terminal', () => {
  it('NO_COLOR: the time left is said once with the question and nothing is drawn again', async () => {
    // Its own service, with quotes of 3 s: the question stays up for the whole life of one, by this machine's clock.
    const short = await sandbox({ feeQuoteLifetimeSeconds: 3 });
    const t = new Term(btc('-o', 'json'), { ...short.env, NO_COLOR: '1' }, WIDE);
    try {
      await t.waitFor(/Send this withdrawal\? \(fee guaranteed for 0:0\d\) \(y\/N\)/);
      const raw = t.raw;
      short.svc.config.feeQuoteLifetimeSeconds = 120;
      // A countdown would have drawn the time left again as each second passed; until the quote ran out, nothing was.
      const expired = 'the fee quote expired before the answer';
      await t.waitFor(expired);
      expect(t.raw.startsWith(raw)).toBe(true);
      const meanwhile = t.raw.slice(raw.length, t.raw.indexOf(expired));
      expect(meanwhile).not.toMatch(/guaranteed for|\d:\d\d/);
      // Asked again with the renewed quote, said once again.
      await t.waitFor(/expired[\s\S]*Send this withdrawal\? \(fee guaranteed for [12]:\d\d\) \(y\/N\)/);
      t.type(`n${KEY.enter}`);
      expect(await t.exit()).toBe(3);
      expect(posts(await short.sent())).toEqual([]);
    } finally {
      t.proc.kill();
      await short.close();
    }
  });

  it('piped: the dry run says how long the fee holds, once, with no cursor codes', async () => {
    const r = await sb.run(btc('--dry-run', '-o', 'table'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/guaranteed for \d+ s/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/[\r\u001b]/);
  });
});
