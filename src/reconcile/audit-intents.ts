// Intents from the audit log: every money request coinop sent (a single withdrawal, a batch row, an internal transfer,
// a transfer to another customer, a fiat withdrawal, a stablecoin conversion, a request held at a gateway for approvals), one entry per step
// (attempt, then its outcome), read line by line. A new kind of request that the gate records is one more entry in AUDIT_INTENT_KINDS.
import type { AuditEntry, AuditResult, AuditWhat } from '../audit/entry.js';
import { parseEntry } from '../audit/entry.js';
import { logLines } from '../audit/verify.js';
import type { Intent, IntentReader, Recorded } from './intents.js';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** What a crypto withdrawal (single or a batch row) asked for, as its entries name it. */
const cryptoWithdrawal = (w: AuditWhat): Partial<Intent> => ({
  profile_id: text(w.profile_id),
  asset: text(w.asset),
  network: text(w.network),
  destination: text(w.destination),
  amount: text(w.amount),
  total: text(w.total),
  fee: text(w.fee),
});

/** What a transfer from one service profile to another (internal, or to another customer) asked for. */
const profileToProfile = (w: AuditWhat): Partial<Intent> => ({
  profile_id: text(w.profile_id),
  to_profile_id: text(w.to_profile_id),
  asset: text(w.asset),
  amount: text(w.amount),
});

/** Each kind of audit entry that records a payment, and what its `what` says the payment is. */
export const AUDIT_INTENT_KINDS: Record<string, (what: AuditWhat) => Partial<Intent>> = {
  withdrawal: cryptoWithdrawal,
  batch_row: cryptoWithdrawal,
  internal_transfer: profileToProfile,
  paxos_transfer: profileToProfile,
  fiat_withdrawal: (w) => ({
    profile_id: text(w.profile_id),
    asset: text(w.asset),
    destination: text(w.destination),
    amount: text(w.amount),
    total: text(w.total),
  }),
  // A stablecoin conversion: its source debited in its profile, the target credited once it settles.
  conversion: (w) => ({
    profile_id: text(w.profile_id),
    asset: text(w.asset),
    target_asset: text(w.target_asset),
    amount: text(w.amount),
  }),
};

/** What an entry's result says of the payment: refused, cancelled, rejected or expired moved nothing. */
const RECORDED: Record<AuditResult, Recorded | undefined> = {
  attempt: 'attempt',
  sent: 'sent',
  failed: 'failed',
  unknown: 'unknown',
  held: 'held',
  refused: 'void',
  cancelled: 'void',
  rejected: 'void',
  expired: 'void',
  approved: undefined,
  answered: undefined,
};

/** An entry as an intent (one step of it), or undefined when it records no payment. */
export function intentOfEntry(entry: AuditEntry): Intent | undefined {
  const e = entry;
  const fields = AUDIT_INTENT_KINDS[e.kind];
  const recorded = RECORDED[e.outcome?.result];
  if (!fields || !e.ref_id || !recorded) return undefined;
  const o = e.outcome;
  return {
    ref_id: e.ref_id,
    kind: e.kind,
    source: `audit seq ${e.seq}`,
    at: e.time,
    service: e.who?.service_id,
    ...strip(fields(e.what ?? {})),
    recorded,
    ...(o.transfer_id ? { transfer_id: o.transfer_id } : {}),
    ...(o.error?.message ? { reason: o.error.message } : {}),
  };
}

function strip(partial: Partial<Intent>): Partial<Intent> {
  for (const k of Object.keys(partial) as (keyof Intent)[]) if (partial[k] === undefined) delete partial[k];
  return partial;
}

/** The reader of the audit log at `path`: its payment entries, a line at a time. */
export function auditIntents(path: string): IntentReader {
  return {
    name: `the audit log (${path})`,
    // Every step of every payment: the book keeps a payment's first time, and the period is judged on that.
    *read() {
      for (const line of logLines(path)) {
        const e = parseEntry(line.bytes);
        if (!e || !AUDIT_INTENT_KINDS[e.kind]) continue;
        const intent = intentOfEntry(e);
        if (intent) yield intent;
      }
    },
  };
}
