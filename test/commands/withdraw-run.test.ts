// coinop withdraw's run with fakes of its ports (test/commands/ports.ts) against a local service in this process: a
// confirmed withdrawal is sent once with its attempt and outcome in the audit trail, one the policy refuses or the
// operator declines is not sent, a dry run sends nothing (and --save keeps the request that --request sends later).
// Whether anything reached the service is read from the service's own journal of requests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdraw } from '../../src/commands/withdraw/run.js';
import type { WithdrawOptions } from '../../src/commands/withdraw/options.js';
import { DEMO } from '../../src/embedded/demo.js';
import { auditSince, moneyPortsOf, sharedLocalFixture, writeContextPolicy } from './ports.js';

const ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

const local = sharedLocalFixture({ journalSize: 100_000 });
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-withdraw-run-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const deps = moneyPortsOf(local);

const withdrawal = (refId: string | undefined, more: Partial<WithdrawOptions> = {}): WithdrawOptions => ({
  asset: 'BTC',
  network: 'BITCOIN',
  address: ADDRESS,
  amount: '0.01',
  refId,
  quote: false,
  dryRun: false,
  yes: false,
  wait: false,
  waitApproval: false,
  waitTimeout: 30,
  ...more,
});

let seen = 0;
/** The withdrawals the service was sent since the last look (from its journal of requests). */
async function withdrawalsSent(): Promise<number> {
  const r = await fetch(`${local.svc.baseUrl}/_local/journal?limit=100000`);
  const { items } = (await r.json()) as { items: { method: string; url: string }[] };
  const fresh = items.slice(seen);
  seen = items.length;
  return fresh.filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals')).length;
}

const entriesSince = (from: number) => auditSince(local, from);

/** Writes the context's policy file; undefined removes it. */
const writePolicy = (text: string | undefined) => writeContextPolicy(local, text);

describe('withdraw run', () => {
  it('confirmed: sent once, the withdrawal on stdout, its attempt and sent entries in the audit trail', async () => {
    const d = deps({ format: 'json' });
    await withdrawalsSent();
    const from = local.audit().entries().length;
    await withdraw(d, withdrawal('wr-sent'));
    expect(d.confirmer.shown.map((c) => [c.title, c.environment, c.question, c.typed])).toEqual([
      ['Withdraw 0.01 BTC', 'local', 'Send this withdrawal?', [{ label: 'the amount (BTC)', value: '0.01' }]],
    ]);
    expect(Object.fromEntries(d.confirmer.shown[0].rows)).toMatchObject({
      environment: 'local',
      context: `local (service profile ${DEMO.profileId})`,
      destination: ADDRESS,
      ref_id: 'wr-sent',
    });
    expect(JSON.parse(d.display.stdout)).toMatchObject({ ref_id: 'wr-sent', amount: '0.01', asset: 'BTC' });
    expect(await withdrawalsSent()).toBe(1);
    expect(entriesSince(from)).toEqual([
      ['withdrawal', 'attempt', 'wr-sent'],
      ['withdrawal', 'sent', 'wr-sent'],
    ]);
    expect(d.interrupt.note()).toMatch(/^interrupted: withdrawal ref_id wr-sent was submitted \(transfer \S+\)/);
  });

  it('refused by the policy: exit 8 naming the rule, nothing sent, never confirmed, the refusal audited', async () => {
    writePolicy('max_per_withdrawal:\n  BTC: 0.005\n');
    try {
      const d = deps({ format: 'json' });
      await withdrawalsSent();
      const from = local.audit().entries().length;
      const refused = withdraw(d, withdrawal('wr-refused'));
      await expect(refused).rejects.toMatchObject({ category: 'policy' });
      await expect(refused).rejects.toThrow(
        /refused by policy: rule max_per_withdrawal: 0\.01 BTC is over the most one withdrawal may send, 0\.005 BTC/,
      );
      expect(d.confirmer.shown).toEqual([]);
      expect(d.display.stdout).toBe('');
      expect(await withdrawalsSent()).toBe(0);
      expect(entriesSince(from)).toEqual([['withdrawal', 'refused', 'wr-refused']]);
    } finally {
      writePolicy(undefined);
    }
  });

  it('declined at the confirmation: cancelled, nothing sent, the cancellation in the audit trail', async () => {
    const d = deps({ tty: true }, 'no');
    await withdrawalsSent();
    const from = local.audit().entries().length;
    await expect(withdraw(d, withdrawal('wr-declined'))).rejects.toThrow('cancelled: nothing was sent');
    expect(d.confirmer.shown).toHaveLength(1);
    expect(await withdrawalsSent()).toBe(0);
    expect(entriesSince(from)).toEqual([['withdrawal', 'cancelled', 'wr-declined']]);
  });

  it('--dry-run on a terminal: the summary and the policy on stderr, the request on stdout, nothing sent', async () => {
    const d = deps({ tty: true });
    await withdrawalsSent();
    await withdraw(d, withdrawal('wr-dry', { dryRun: true }));
    expect(d.display.stderr).toContain('Dry run: nothing sent');
    expect(d.display.stderr).toContain('Policy: none (no policy file for context local: no rules)');
    expect(JSON.parse(d.display.stdout)).toMatchObject({
      method: 'POST',
      path: '/v2/transfer/crypto-withdrawals',
      body: {
        profile_id: DEMO.profileId,
        asset: 'BTC',
        amount: '0.01',
        ref_id: 'wr-dry',
        destination_address: ADDRESS,
      },
    });
    expect(d.confirmer.shown).toEqual([]);
    expect(await withdrawalsSent()).toBe(0);
  });

  it('--dry-run --save keeps the request; --request sends it as saved, its ref_id and all', async () => {
    const file = join(dir, 'payout.json');
    const saving = deps({ format: 'json' });
    await withdrawalsSent();
    await withdraw(saving, withdrawal('wr-saved', { dryRun: true, save: file, amount: '0.02' }));
    expect(saving.display.stderr).toContain(`saved the request to ${file}`);
    expect(await withdrawalsSent()).toBe(0);
    const sending = deps({ format: 'json' });
    await withdraw(
      sending,
      withdrawal(undefined, { request: file, asset: undefined, address: undefined, amount: undefined }),
    );
    expect(JSON.parse(sending.display.stdout)).toMatchObject({ ref_id: 'wr-saved', amount: '0.02', asset: 'BTC' });
    expect(await withdrawalsSent()).toBe(1);
  });
});
