// The classes of a reconciliation's lines, and which of them need nobody's attention (explained).

/**
 * matched: paid as intended. in_flight: the service holds it PENDING, or a gateway holds it for approvals. failed: it
 * ended FAILED (or never reached the service), with the reason. mismatch: paid, but the amount, fee, destination,
 * asset, network or profile differs from what coinop recorded. missing: intended, and the service holds no transfer.
 * unintended: a transfer no intent of this coinop explains (a deposit, a payment made elsewhere). paid_twice: a
 * second transfer for one intent (a salted ref_id of a repeat, or the same payment under another ref_id).
 * feed_disagrees: the service's event feed gives the transfer (or conversion) another status than its record does.
 */
export const CLASSES = [
  'matched',
  'in_flight',
  'failed',
  'mismatch',
  'missing',
  'unintended',
  'paid_twice',
  'feed_disagrees',
] as const;
export type LineClass = (typeof CLASSES)[number];

/** Classes that need no one's attention: the rest make the reconciliation's exit code non-zero. */
export const EXPLAINED: readonly LineClass[] = ['matched', 'in_flight'];

/** One line of a reconciliation: a transfer, an intent, or both. Its fields are stable (added, never renamed). */
export interface Line {
  class: LineClass;
  asset: string;
  /** What moved (the transfer's amount), else what was intended. */
  amount: string;
  intended_amount?: string;
  fee?: string;
  ref_id?: string;
  transfer_id?: string;
  type?: string;
  status?: string;
  network?: string;
  destination?: string;
  profile_id?: string;
  created_at?: string;
  /** Where the intent was recorded ("audit seq 12", "journal ….journal row 3"). */
  intent?: string;
  kind?: string;
  /** A conversion's target asset (its `asset` is the source). */
  target_asset?: string;
  /** The status the event feed's last event gives, when it is not the record's (feed_disagrees). */
  event_status?: string;
  /** The status at the period's end by the event feed, when it changed after. */
  status_at_end?: string;
  reason?: string;
  /** What differs, for a mismatch: "fee: 0.00002 recorded, 0.0005 now". */
  differences?: string[];
}

/** Lines of one asset and class: how many, and what they moved (or were to move). */
export interface SummaryRow {
  asset: string;
  class: LineClass;
  lines: number;
  amount: string;
  explained: boolean;
}
