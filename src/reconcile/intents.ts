// What coinop meant to pay: an intent is one request it recorded (a batch row, a withdrawal, an internal transfer, a
// fiat withdrawal...), read back by one of a small list of readers (audit-intents.ts, journal-intents.ts). A new kind
// of request is one more reader, or one more entry in the audit reader's table of kinds.
import { normalAmount } from '../batch/ref-ids.js';

/** What became of an intent as coinop recorded it, before the service is asked. */
export type Recorded = 'planned' | 'attempt' | 'unknown' | 'held' | 'sent' | 'failed' | 'void';

/** void: the request was refused or cancelled before it moved anything (no payment is owed: not reconciled). */

export interface Intent {
  ref_id: string;
  /** The kind of request: withdrawal, batch_row, internal_transfer, fiat_withdrawal... */
  kind: string;
  /** Where it was recorded: "audit seq 12", "journal 3f2a….journal row 4". */
  source: string;
  /** When it was recorded (RFC 3339): the period's intents are those recorded in it. */
  at: string;
  /** The service the request went to (`<environment>:<base url>` or the connection's service id), when recorded. */
  service?: string;
  profile_id?: string;
  to_profile_id?: string;
  asset?: string;
  /** A conversion's target (USD, USDP, PYUSD): what the source asset becomes. */
  target_asset?: string;
  network?: string;
  /** A crypto address, or a fiat account's id. */
  destination?: string;
  amount?: string;
  total?: string;
  /** The fee the service answered when it took the request: a later change of it is a difference. */
  fee?: string;
  recorded: Recorded;
  transfer_id?: string;
  /** The recorded problem, for an intent that failed. */
  reason?: string;
  /** A repeat the operator ran on purpose (withdraw batch --allow-repeat): the ref_id it pays again. */
  repeat_of?: string;
}

/** Which intents a reader gives: those recorded in the period, for these service profiles (none: every one). */
export interface IntentScope {
  from?: string;
  to?: string;
  profileIds?: string[];
  /** The service reconciled (Connection.serviceId): intents recorded against another service are not its. */
  serviceId?: string;
  /** Other names of the same service: a coinop gateway's store (`gateway:<instance>`), which batch journals name. */
  serviceAliases?: string[];
}

/** One source of intents. */
export interface IntentReader {
  /** What it reads, for messages: "the audit log (…/audit.log)". */
  readonly name: string;
  /**
   * Its intents (the scope lets a reader skip what cannot be in it; the book judges the period and profiles): from a
   * file as they are read, or from a service (a gateway's chain) a page at a time.
   */
  read(scope: IntentScope): Iterable<Intent> | AsyncIterable<Intent>;
}

/** Whether a time (RFC 3339) falls in the scope's period: at or after `from`, strictly before `to`. */
export function inPeriod(at: string, scope: IntentScope): boolean {
  const t = Date.parse(at);
  if (scope.from !== undefined && t < Date.parse(scope.from)) return false;
  if (scope.to !== undefined && t >= Date.parse(scope.to)) return false;
  return true;
}

/** An address as compared: 0x addresses (EVM) in lower case, any other as it is. */
export const addressKey = (a: string | undefined): string =>
  a && /^0x[0-9a-f]+$/i.test(a) ? a.toLowerCase() : (a ?? '');

/**
 * What a payment is, apart from its ref_id: profile, asset, network, destination and amount (or total). Two
 * requests with one key pay the same thing; a transfer is looked up under both its amount and its total.
 */
export function contentKey(payment: {
  profile_id?: string;
  asset?: string;
  network?: string;
  destination?: string;
  amount?: string;
  total?: string;
  target_asset?: string;
}): string | undefined {
  const p = payment;
  const figure =
    p.amount !== undefined
      ? `a${normalAmount(p.amount)}`
      : p.total !== undefined
        ? `t${normalAmount(p.total)}`
        : undefined;
  if (figure === undefined || !p.asset) return undefined;
  const key = [p.profile_id ?? '', p.asset, p.network ?? '', addressKey(p.destination), figure];
  // A conversion pays its target: one of USD to USDP is not an internal transfer of as many USD.
  return (p.target_asset ? [...key, `to ${p.target_asset}`] : key).join('|');
}
