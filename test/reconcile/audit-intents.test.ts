// The audit log's entries as intents: each kind of payment the gate records reads as what it asked for; what records
// no payment (a quote, a refusal) reads as none.
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/entry.js';
import { intentOfEntry } from '../../src/reconcile/audit-intents.js';

const entry = (kind: string, what: Record<string, unknown>, result = 'sent'): AuditEntry =>
  ({
    v: 1,
    seq: 7,
    time: '2026-11-02T10:00:00.000Z',
    prev: '0'.repeat(64),
    kind,
    ref_id: 'r-1',
    who: { service_id: 'svc' },
    what,
    outcome: { result, transfer_id: 't-1' },
  }) as unknown as AuditEntry;

describe('intents of the audit log', () => {
  it('a transfer to another customer and an internal transfer: from, to, asset, amount', () => {
    const what = { profile_id: 'p-1', to_profile_id: 'p-2', asset: 'USD', amount: '12.5' };
    for (const kind of ['paxos_transfer', 'internal_transfer'])
      expect(intentOfEntry(entry(kind, what))).toMatchObject({
        kind,
        ref_id: 'r-1',
        ...what,
        recorded: 'sent',
        transfer_id: 't-1',
        source: 'audit seq 7',
      });
  });

  it('a withdrawal names its destination and network; a refusal and a quote are no payment', () => {
    const what = { profile_id: 'p-1', asset: 'BTC', network: 'BITCOIN', destination: 'bc1q', amount: '0.1' };
    expect(intentOfEntry(entry('withdrawal', what))).toMatchObject({ ...what, recorded: 'sent' });
    expect(intentOfEntry(entry('withdrawal', what, 'refused'))).toMatchObject({ recorded: 'void' });
    expect(intentOfEntry(entry('quote', what))).toBeUndefined();
  });
});
