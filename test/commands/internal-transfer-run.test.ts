// coinop transfer internal's run with fakes of its ports (test/commands/ports.ts) against a local service in this
// process: the dry run sends nothing, a confirmed transfer is sent once and written to the audit trail, one the
// operator declines is not sent, --wait follows it to its end. What the operator sees on stdout and stderr.
import { describe, expect, it } from 'vitest';
import { internal } from '../../src/commands/internal-transfer/run.js';
import type { InternalTransferOptions } from '../../src/commands/internal-transfer/options.js';
import { DEMO } from '../../src/embedded/demo.js';
import { auditSince, sharedLocalFixture, moneyPortsOf, usdOf } from './ports.js';

const local = sharedLocalFixture();

const deps = moneyPortsOf(local);

const transfer = (refId: string, more: Partial<InternalTransferOptions> = {}): InternalTransferOptions => ({
  toProfileId: DEMO.emptyProfileId,
  asset: 'USD',
  amount: '12.5',
  refId,
  dryRun: false,
  yes: false,
  wait: false,
  waitTimeout: 30,
  ...more,
});

/** What the empty demo profile has of USD now. */
const received = () => usdOf(local, DEMO.emptyProfileId);

const entriesSince = (from: number) => auditSince(local, from);

describe('transfer internal run', () => {
  it('--dry-run on a terminal: the summary and the policy on stderr, the request on stdout, nothing sent', async () => {
    const d = deps({ tty: true });
    const before = await received();
    await internal(d, transfer('it-dry', { dryRun: true }));
    expect(d.display.stderr).toContain('Dry run: nothing sent');
    expect(d.display.stderr).toContain('Policy: none (no policy file for context local: no rules)');
    expect(JSON.parse(d.display.stdout)).toMatchObject({
      method: 'POST',
      path: '/v2/transfer/internal',
      body: { from_profile_id: DEMO.profileId, to_profile_id: DEMO.emptyProfileId, amount: '12.5', ref_id: 'it-dry' },
    });
    expect(d.confirmer.shown).toEqual([]);
    expect(await received()).toBe(before);
  });

  it('confirmed: sent once, the transfer on stdout, the attempt and its outcome in the audit trail', async () => {
    const d = deps({ format: 'json' });
    const [before, from] = [await received(), local.audit().entries().length];
    await internal(d, transfer('it-sent'));
    expect(d.confirmer.shown.map((c) => [c.title, c.environment, c.typed])).toEqual([
      ['Move 12.5 USD between service profiles', 'local', [{ label: 'the amount (USD)', value: '12.5' }]],
    ]);
    expect(JSON.parse(d.display.stdout)).toMatchObject({ ref_id: 'it-sent', amount: '12.5', asset: 'USD' });
    expect(await received()).toBe(String(Number(before) + 12.5));
    expect(entriesSince(from)).toEqual([
      ['internal_transfer', 'attempt', 'it-sent'],
      ['internal_transfer', 'sent', 'it-sent'],
    ]);
    expect(d.interrupt.note()).toMatch(/^interrupted: internal transfer ref_id it-sent was submitted \(transfer \S+\)/);
  });

  it('sent again with the same ref_id: said to be sent before, no money moved', async () => {
    const d = deps({ tty: true });
    const before = await received();
    await internal(d, transfer('it-sent'));
    expect(d.display.stderr).toMatch(/^already submitted: ref_id it-sent was sent before; no money moved this time/m);
    expect(await received()).toBe(before);
  });

  it('declined at the confirmation: cancelled, nothing sent, the cancellation in the audit trail', async () => {
    const d = deps({ tty: true }, 'no');
    const [before, from] = [await received(), local.audit().entries().length];
    await expect(internal(d, transfer('it-declined'))).rejects.toThrow('cancelled: nothing was sent');
    expect(await received()).toBe(before);
    expect(entriesSince(from)).toEqual([['internal_transfer', 'cancelled', 'it-declined']]);
  });

  it('--wait on a terminal: followed to its end, each status on stderr', async () => {
    const d = deps({ tty: true });
    await internal(d, transfer('it-wait', { wait: true }));
    expect(d.display.stderr).toMatch(/transfer \S+ COMPLETED\n/);
    expect(d.display.stdout).toMatch(/status\s+COMPLETED/);
  });

  it('no destination profile and nobody to ask: a usage error, nothing written or sent', async () => {
    const d = deps();
    const from = local.audit().entries().length;
    await expect(internal(d, transfer('it-missing', { toProfileId: undefined }))).rejects.toThrow(
      'missing --to-profile-id',
    );
    expect(d.service.connections).toEqual([]);
    expect(entriesSince(from)).toEqual([]);
  });
});
