// A batch in the audit log: one entry when it starts sending (its id, file, rows, totals and the digest of its
// confirmed rows, which a --resume checks the journal against), per row an attempt (durable before the request leaves)
// and its answer, one with the counts when it stops sending, and one when coinop's own checks refuse it (the
// policy, the funds, the transfer limits: its rows, totals and the full reason).
import { auditLogPath } from '../../../audit/log.js';
import { logLines } from '../../../audit/verify.js';
import { parseEntry } from '../../../audit/entry.js';
import { fmt, problemName, type Problem } from '../../../contract/index.js';
import type { AuditEvent, AuditOutcome, AuditWhat } from '../../../audit/entry.js';
import type { Journal } from '../../../batch/journal.js';
import { outcomeOf } from '../../../batch/report.js';
import type { BatchRow } from '../../../batch/rows.js';
import type { RowOutcome } from '../../../batch/runner.js';
import type { ScanResult, Totals } from '../../../batch/scan.js';
import { transferOutcome } from '../../../audit/outcomes.js';

/** The batch as its entries name it. */
export interface AuditedBatch {
  file: string;
  scan: ScanResult;
  batchId: string;
  journal: string;
  profileId?: string;
  /** The digest of its confirmed rows (journal meta rows_sha256). */
  rowsSha256?: string;
  /** The totals of the rows this run sends (a resume's rows left), when they are not the file's. */
  totals?: Totals[];
}

function batchWhat(batch: AuditedBatch, rows: number): AuditWhat {
  return {
    batch_id: batch.batchId,
    file: batch.file,
    file_sha256: batch.scan.fileHash,
    journal: batch.journal,
    rows,
    profile_id: batch.profileId,
    ...(batch.rowsSha256 ? { rows_sha256: batch.rowsSha256 } : {}),
    totals: (batch.totals ?? batch.scan.totals).map((t) => ({
      asset: t.asset,
      network: t.network,
      rows: t.rows,
      amount: fmt(t.amount),
      total: fmt(t.total),
    })),
  };
}

/** The batch as it starts sending (`rows`: those this run sends). */
export function batchStart(batch: AuditedBatch, rows: number, resumed: boolean): AuditEvent {
  return {
    kind: 'batch',
    ref_id: null,
    what: { ...batchWhat(batch, rows), ...(resumed ? { resumed: true } : {}) },
    outcome: { result: 'attempt' },
  };
}

/** The batch refused by coinop's own checks (the policy, funds, limits), with the full reason; nothing was sent. */
export function batchRefused(
  batch: AuditedBatch,
  rows: number,
  resumed: boolean,
  refusal: { category: string; message: string },
): AuditEvent {
  return {
    kind: 'batch',
    ref_id: null,
    what: { ...batchWhat(batch, rows), ...(resumed ? { resumed: true } : {}) },
    outcome: { result: 'refused', error: { category: refusal.category, message: refusal.message } },
  };
}

/**
 * The digest of the confirmed rows the audit log's start entry of this batch holds (its first, not a resume's), or
 * undefined when the log has no such entry. The log is hash-chained: `coinop audit verify` tells whether it was edited.
 */
export function auditedRowsDigest(dataDir: string, batchId: string): string | undefined {
  const needle = Buffer.from(JSON.stringify(batchId));
  let found: string | undefined;
  for (const line of logLines(auditLogPath(dataDir))) {
    if (!line.bytes.includes(needle)) continue;
    const e = parseEntry(line.bytes);
    const w = e?.what as Record<string, unknown> | undefined;
    if (e?.kind !== 'batch' || !w || w.batch_id !== batchId || w.resumed || e.outcome?.result !== 'attempt') continue;
    if (typeof w.rows_sha256 === 'string') found = w.rows_sha256;
  }
  return found;
}

/** A row about to be sent: written (and on disk) before its request leaves. */
export function rowAttempt(row: BatchRow, batchId: string): AuditEvent {
  return { kind: 'batch_row', ref_id: row.body.ref_id, what: rowWhat(row, batchId), outcome: { result: 'attempt' } };
}

function rowWhat(row: BatchRow, batchId: string): AuditWhat {
  const b = row.body;
  return {
    batch_id: batchId,
    row: row.row,
    asset: b.asset,
    network: b.crypto_network,
    amount: b.amount,
    total: b.total,
    fee_id: b.fee_id,
    destination: b.destination_address,
    profile_id: b.profile_id,
  };
}

/** A row's answer. */
export function rowEvent(row: BatchRow, out: RowOutcome, batchId: string): AuditEvent {
  const b = row.body;
  const what = rowWhat(row, batchId);
  if ('transfer' in out) {
    const t = out.transfer as unknown as Record<string, unknown>;
    if (typeof t.fee === 'string') what.fee = t.fee;
    return { kind: 'batch_row', ref_id: b.ref_id, what, outcome: transferOutcome(t, out.kind === 'already submitted') };
  }
  return { kind: 'batch_row', ref_id: b.ref_id, what, outcome: problemOutcome(out.kind, out.problem) };
}

function problemOutcome(kind: 'refused' | 'unknown', problem: Problem): AuditOutcome {
  const name = problemName(problem);
  return {
    result: kind,
    error: {
      category: kind === 'refused' ? 'api' : 'network',
      message: [problem.title, problem.detail].filter(Boolean).join(': '),
      ...(name ? { problem: name } : {}),
      ...(problem.status ? { status: problem.status } : {}),
    },
  };
}

/** The batch as it stops sending: its rows by result (money moved when any row has a transfer). */
export function batchEnd(journal: Journal, batchId: string): AuditEvent {
  const o = outcomeOf(journal);
  return {
    kind: 'batch',
    ref_id: null,
    what: { batch_id: batchId, journal: journal.path, rows: o.rows },
    outcome: {
      result: o.withTransfer ? 'sent' : 'failed',
      counts: {
        created: o.created,
        already_submitted: o.alreadySubmitted,
        failed: o.failed,
        invalid: o.invalid,
        ...(o.skipped ? { skipped: o.skipped } : {}),
        not_sent: o.notSent,
      },
    },
  };
}
