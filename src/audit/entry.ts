// What one line of the audit log holds. The log is a hash chain: every line is one JSON object whose `prev` is the
// SHA-256 of the previous entry line's exact bytes (the first line's: of GENESIS), and whose `seq` is one more than
// that entry's. These types are the stable shape of a line: fields are added, never renamed.
import { hash } from 'node:crypto';

/** Version of the line format. */
export const AUDIT_VERSION = 1;
/** What the first entry's `prev` is the SHA-256 of. */
export const GENESIS = 'coinop audit log v1';

export const AUDIT_KINDS = [
  'quote',
  'withdrawal',
  'batch',
  'batch_row',
  'internal_transfer',
  'sandbox_deposit',
  'approval',
  'policy_refusal',
  'mcp_call',
  'address_book',
  'deposit_address',
  'gateway_admin',
  'fiat_withdrawal',
  'fiat_account',
  'gateway_request',
  'deposit_travel_rule',
  'paxos_transfer',
  'conversion',
  'conversion_cancel',
  'address_verification',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * attempt: written before the request leaves; sent: the service took it (a transfer, a quote); refused: the service
 * (or the policy) said no, nothing moved; failed: it did not happen (nothing reached the service, or the transfer
 * ended FAILED); unknown: sent without an answer, so it may have gone through; approved: an approval was signed;
 * answered: an MCP tool call that moves nothing (a read, a preview) was answered; cancelled: the operator said no at
 * the confirmation (or stopped the command) before anything was sent; held: a gateway holds it for approvals; rejected: an
 * approver rejected what was held; expired: it was held past its time and never sent.
 */
export const AUDIT_RESULTS = [
  'attempt',
  'sent',
  'refused',
  'failed',
  'unknown',
  'approved',
  'answered',
  'cancelled',
  'held',
  'rejected',
  'expired',
] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];

/** Who acted: the person at the machine, the credentials, the context and the service that answered. */
export interface AuditWho {
  os_user: string;
  client_id?: string;
  /** coinop's context (not the service's profile). */
  profile?: string;
  environment?: string;
  service_id?: string;
  /** Approvers' public key ids, when approvals were given. */
  approver_keys?: string[];
  /** The MCP client (an AI agent) that asked through coinop mcp, as its handshake named it: "name version". */
  agent?: string;
  /** The gateway operator who asked (coinop gateway): their name there. */
  operator?: string;
}

/** What was asked for. Amounts are strings, as sent. */
export interface AuditWhat {
  asset?: string;
  network?: string;
  amount?: string;
  total?: string;
  fee?: string;
  fee_id?: string;
  destination?: string;
  /** The address book's nickname of the destination, when it was paid by nickname. */
  destination_nickname?: string;
  /** The service profile debited. */
  profile_id?: string;
  /** The service profile credited (an internal transfer). */
  to_profile_id?: string;
  balance_asset?: string;
  memo_id?: string;
  /** A batch: its id, its file's SHA-256, its rows (to send), its totals; a batch row: its row number. */
  batch_id?: string;
  file_sha256?: string;
  rows?: number;
  row?: number;
  totals?: { asset: string; network: string; rows: number; amount: string; total: string }[];
  /** A policy refusal: the rules that refused. */
  rules?: string[];
  /** An MCP tool call: the tool, and the arguments it was called with (a batch's rows counted, not copied). */
  tool?: string;
  arguments?: Record<string, unknown>;
  [more: string]: unknown;
}

export interface AuditOutcome {
  result: AuditResult;
  transfer_id?: string;
  status?: string;
  /** The service answered that this ref_id was sent before: no money moved this time. */
  already_submitted?: boolean;
  /** A quote's id, fee and expiry. */
  fee_id?: string;
  fee?: string;
  expires_at?: string;
  /** A batch's end: rows by result. */
  counts?: Record<string, number>;
  error?: { category: string; message: string; problem?: string; status?: number };
}

/** One entry as an event to record: what the caller says; the log adds v, seq, time and prev. */
export interface AuditEvent {
  kind: AuditKind;
  ref_id?: string | null;
  what: AuditWhat;
  outcome: AuditOutcome;
  /** Approvers' key ids: written into `who`. */
  approver_keys?: string[];
}

/** The bytes a torn write left, between the entry before and this one: recorded by the entry after them. */
export interface TornRecord {
  bytes: number;
  sha256: string;
}

/** A line of the log as written. */
export interface AuditEntry {
  v: number;
  seq: number;
  time: string;
  prev: string;
  kind: AuditKind;
  ref_id: string | null;
  who: AuditWho;
  what: AuditWhat;
  outcome: AuditOutcome;
  /** Present on the entry after a crash cut a write short. */
  torn?: TornRecord;
}

// crypto.hash, the one-shot form (every Node the package's engines allow has it): about twice as fast on an entry's
// line as a Hash object, and a batch hashes two lines a row (its attempt and its answer).
export const sha256Hex = (bytes: Uint8Array | string): string => hash('sha256', bytes, 'hex');

export const GENESIS_HASH = sha256Hex(GENESIS);

const HASH = /^[0-9a-f]{64}$/;

/** A line's bytes as an entry, or undefined when it is not one (not JSON, or no whole seq and prev). */
export function parseEntry(bytes: Uint8Array): AuditEntry | undefined {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const e = v as Partial<AuditEntry>;
  if (!Number.isSafeInteger(e.seq) || (e.seq as number) < 1 || typeof e.prev !== 'string' || !HASH.test(e.prev))
    return undefined;
  return e as AuditEntry;
}

/**
 * The entry that follows the one whose seq and line hash are `after`: the event, by `who` (with the approvers' keys
 * when it has them), at `now`; with the torn bytes before it when a crash cut the last write short. The local log
 * (log.ts) and the gateway's store (src/gateway/store.ts) both build their entries here.
 */
export function nextEntry(
  after: { seq: number; hash: string },
  who: AuditWho,
  event: AuditEvent,
  now: number,
  torn?: TornRecord,
): AuditEntry {
  return {
    v: AUDIT_VERSION,
    seq: after.seq + 1,
    time: new Date(now).toISOString(),
    prev: after.hash,
    kind: event.kind,
    ref_id: event.ref_id ?? null,
    who: event.approver_keys?.length ? { ...who, approver_keys: event.approver_keys } : who,
    what: event.what,
    outcome: event.outcome,
    ...(torn ? { torn } : {}),
  };
}

/** The line of an entry (no newline), fields in a fixed order. */
export function entryLine(entry: AuditEntry): string {
  const { v, seq, time, prev, kind, ref_id, who, what, outcome, torn } = entry;
  return JSON.stringify({ v, seq, time, prev, kind, ref_id, who, what, outcome, ...(torn ? { torn } : {}) });
}
