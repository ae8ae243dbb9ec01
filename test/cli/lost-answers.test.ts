// Answers lost after the service acted (its connection reset after the commit): a withdrawal says this command sent
// it, and a sandbox deposit, which is never resent, says it may have been credited. Real child processes, real faults.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterEach(async () => sb.control('PUT', '/_local/faults', {}));
afterAll(async () => sb?.close());

/** The next request to this path gets its connection reset after the service committed it. */
const loseNextAnswer = (pathPrefix: string) =>
  sb.control('PUT', '/_local/faults', { resetAfterRate: 1, budget: 1, pathPrefix, method: 'POST' });

const transfers = async (query: string) => {
  const r = await sb.runIn(['transfers', 'list', '--limit', '1000', ...query.split(' ')]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; ref_id?: string }[];
};

describe('answers lost after the service acted', () => {
  it('a withdrawal whose first answer was lost says this command submitted it, not "no money moved this time"', async () => {
    await loseNextAnswer('/v2/transfer/crypto-withdrawals');
    const args = ['withdraw', ...transferFlags('BTC', '0.01'), '--ref-id', 'lost-answer-1'];
    const r = await sb.run(args);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(r.stderr).toMatch(
      new RegExp(
        `withdrawal submitted by this command: transfer ${t.id} \\(its first attempt reached the service but the answer was lost`,
      ),
    );
    expect(r.stderr).not.toMatch(/no money moved this time|already submitted/);
    const sent = (await sb.sent()).filter((e) => e.url === '/v2/transfer/crypto-withdrawals');
    expect(sent.map((e) => e.status).slice(-2)).toEqual([200, 409]);
    expect((await transfers('--ref-id lost-answer-1')).map((x) => x.id)).toEqual([t.id]);

    // The same ref_id in a later command: that one moved nothing, and says so.
    const again = await sb.run(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already submitted: ref_id lost-answer-1 was sent before; no money moved this time/);
    expect(JSON.parse(again.stdout).id).toBe(t.id);
  });

  it('a deposit address whose first answer was lost says this command created it, not "used before"', async () => {
    await loseNextAnswer('/v2/transfer/deposit-addresses');
    const r = await sb.run(['addresses', 'create', '--network', 'ETHEREUM', '--ref-id', 'lost-addr-1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /deposit address created by this command \(its first attempt reached the service but the answer was lost/,
    );
    expect(r.stderr).not.toMatch(/already exists|used before/);
    const again = await sb.run(['addresses', 'create', '--network', 'ETHEREUM', '--ref-id', 'lost-addr-1']);
    expect(again.stderr).toMatch(/already exists: ref_id lost-addr-1 was used before/);
    expect(JSON.parse(again.stdout).id).toBe(JSON.parse(r.stdout).id);
  });

  it('a sandbox deposit whose answer was lost says it may have been credited, not "cannot reach"', async () => {
    const before = (await transfers('--type WIRE_DEPOSIT')).length;
    await loseNextAnswer('/v2/sandbox/fiat-deposits');
    const r = await sb.run(['sandbox', 'deposit', '--amount', '12.34']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^error: the deposit request was sent but no answer came; it may have been credited: check the balance \/ transfers before trying again/,
    );
    expect(r.stderr).not.toMatch(/cannot reach/);
    // It was: the service made the deposit, and coinop did not send it twice.
    expect((await transfers('--type WIRE_DEPOSIT')).length).toBe(before + 1);
  });

  it('a deposit that could not connect at all says "cannot reach": nothing was sent', async () => {
    const r = await sb.run(['sandbox', 'deposit', '--amount', '1.00'], {
      env: { COINOP_BASE_URL: 'http://127.0.0.1:9', COINOP_TOKEN: 't' },
    });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(
      /^error: cannot reach http:\/\/127\.0\.0\.1:9\/v2\/sandbox\/fiat-deposits: ECONNREFUSED .*nothing was sent/,
    );
    expect(r.stderr).not.toMatch(/may have been credited/);
  });
});
