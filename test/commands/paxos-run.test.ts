import { beforeAll, describe, expect, it } from 'vitest';
import { paxos } from '../../src/commands/internal-transfer/run.js';
import {
  type InternalTransferOptions,
  parseInternalTransferOptions,
} from '../../src/commands/internal-transfer/options.js';
import { DEMO } from '../../src/embedded/demo.js';
import { auditSince, sharedLocalFixture, moneyPortsOf, usdOf, writeContextPolicy } from './ports.js';
import { postRecipientProfile, RECIPIENT_PROFILE } from '../support/requests.js';

const local = sharedLocalFixture();
const deps = moneyPortsOf(local);
const RECIPIENT = RECIPIENT_PROFILE;

beforeAll(async () => {
  await postRecipientProfile(local.svc.baseUrl);
});

const pay = (refId: string, more: Partial<InternalTransferOptions> = {}): InternalTransferOptions => ({
  ...parseInternalTransferOptions({ waitTimeout: '30' }),
  toProfileId: RECIPIENT,
  asset: 'USD',
  amount: '1250.50',
  refId,
  ...more,
});

/** Writes the context's policy file (none without text). */
const writePolicy = (text: string | undefined) => writeContextPolicy(local, text);

/** The sender's side of every transfer to another customer the service holds. */
async function paxosTransfers(): Promise<{ ref_id?: string; type: string; profile_id: string }[]> {
  const conn = await local.connector().connect();
  const { data } = await conn.client.call('listTransfers', { query: { type: ['PAXOS_TRANSFER_DEBIT'] } });
  return data.items ?? [];
}

describe('transfer paxos run', () => {
  it('--dry-run: the request to /v2/transfer/paxos on stdout, nothing sent', async () => {
    const d = deps({ tty: true });
    await paxos(d, pay('px-dry', { dryRun: true }));
    expect(d.display.stderr).toContain('Dry run: nothing sent');
    expect(d.display.stderr).toContain(`recipient profile ${RECIPIENT} (another customer of the service)`);
    expect(JSON.parse(d.display.stdout)).toMatchObject({
      method: 'POST',
      path: '/v2/transfer/paxos',
      body: { from_profile_id: DEMO.profileId, to_profile_id: RECIPIENT, amount: '1250.50', ref_id: 'px-dry' },
    });
    expect(d.confirmer.shown).toEqual([]);
    expect(await paxosTransfers()).toEqual([]);
  });

  it('confirmed with the amount typed: sent once, both sides moved, audited as paxos_transfer', async () => {
    const d = deps({ format: 'json' });
    const [before, from] = [await usdOf(local, DEMO.profileId), local.audit().entries().length];
    await paxos(d, pay('px-sent', { recipientMetadata: { invoice: '1042' } }));
    expect(d.confirmer.shown.map((c) => [c.title, c.typed])).toEqual([
      ['Send 1250.50 USD to another customer of the service', [{ label: 'the amount (USD)', value: '1250.50' }]],
    ]);
    expect(JSON.parse(d.display.stdout)).toMatchObject({
      ref_id: 'px-sent',
      type: 'PAXOS_TRANSFER_DEBIT',
      status: 'COMPLETED',
    });
    expect(await usdOf(local, DEMO.profileId)).toBe(String(Number(before) - 1250.5));
    expect(await usdOf(local, RECIPIENT)).toBe('1250.5');
    expect(auditSince(local, from)).toEqual([
      ['paxos_transfer', 'attempt', 'px-sent'],
      ['paxos_transfer', 'sent', 'px-sent'],
    ]);
    expect(d.interrupt.note()).toMatch(/^interrupted: transfer to another customer ref_id px-sent was submitted/);
  });

  it('sent again with the same ref_id: said to be sent before, no money moved', async () => {
    const d = deps({ tty: true });
    await paxos(d, pay('px-sent'));
    expect(d.display.stderr).toMatch(/^already submitted: ref_id px-sent was sent before; no money moved this time/m);
    expect(await usdOf(local, RECIPIENT)).toBe('1250.5');
  });

  it("the policy's destinations name recipients by profile id; its maxima count these transfers: refused, audited", async () => {
    writePolicy('destinations: [somebody-else]\n');
    try {
      const from = local.audit().entries().length;
      const d = deps({ format: 'json' });
      const refused = paxos(d, pay('px-elsewhere'));
      await expect(refused).rejects.toMatchObject({ category: 'policy' });
      await expect(refused).rejects.toThrow(`recipient profile ${RECIPIENT} is not among the policy's destinations`);
      expect(d.confirmer.shown).toEqual([]);
      expect(auditSince(local, from)).toEqual([['paxos_transfer', 'refused', 'px-elsewhere']]);
      writePolicy(`destinations: [${RECIPIENT}]\nmax_per_withdrawal:\n  USD: 1000\n`);
      await expect(paxos(deps(), pay('px-too-big'))).rejects.toThrow(
        /rule max_per_withdrawal: 1250\.50 USD is over the most one withdrawal may send, 1000 USD/,
      );
      // 1250.50 sent today already: 900 more is over 2000 in 24 hours.
      writePolicy(`destinations: [${RECIPIENT}]\nmax_per_24h:\n  USD: 2000\n`);
      await expect(paxos(deps(), pay('px-over-day', { amount: '900' }))).rejects.toThrow(
        /rule max_per_24h: USD: 1250\.5 sent since .* \+ 900 in this run = 2150\.5, over the 24-hour limit of 2000 USD/,
      );
      await paxos(deps({ format: 'json' }), pay('px-within', { amount: '700' }));
      expect((await paxosTransfers()).map((t) => t.ref_id).sort()).toEqual(['px-sent', 'px-within']);
    } finally {
      writePolicy(undefined);
    }
  });

  it('more than the sender has: refused by the funds preflight before anyone is asked', async () => {
    const d = deps({ tty: true });
    const from = local.audit().entries().length;
    await expect(paxos(d, pay('px-poor', { fromProfileId: DEMO.emptyProfileId, amount: '5' }))).rejects.toThrow(
      /insufficient funds: the amount 5 USD is more than the available 0 USD/,
    );
    expect(d.confirmer.shown).toEqual([]);
    expect(auditSince(local, from)).toEqual([['paxos_transfer', 'refused', 'px-poor']]);
  });

  it('a recipient that is not a profile id (a UUID): refused before anything is asked or sent', async () => {
    const d = deps({ tty: true });
    const from = local.audit().entries().length;
    await expect(paxos(d, pay('px-name', { toProfileId: 'payee', amount: '1' }))).rejects.toThrow(
      '--to-profile-id: "payee" is not a profile id (a UUID)',
    );
    expect(d.confirmer.shown).toEqual([]);
    expect(auditSince(local, from)).toEqual([]);
  });

  it('an unknown recipient: the service says so (404), the refusal audited, nothing moved', async () => {
    const d = deps({ format: 'json' });
    const from = local.audit().entries().length;
    const nobody = '00000000-0000-4000-8000-000000000000';
    await expect(paxos(d, pay('px-nobody', { toProfileId: nobody, amount: '1' }))).rejects.toThrow(
      `profile not found: ${nobody}`,
    );
    expect(auditSince(local, from)).toEqual([
      ['paxos_transfer', 'attempt', 'px-nobody'],
      ['paxos_transfer', 'refused', 'px-nobody'],
    ]);
  });
});
