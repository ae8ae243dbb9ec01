// A batch in the audit log: one entry when it starts sending (its id, file, rows and totals), one per row as the
// service answers it, and one with the counts when it stops sending.
import { fmt, problemName, type Problem } from '../../../api/index.js';
import type { AuditEvent, AuditOutcome, AuditWhat } from '../../../audit/entry.js';
import type { Journal } from '../../../batch/journal.js';
import { outcomeOf } from '../../../batch/report.js';
import type { BatchRow } from '../../../batch/rows.js';
import type { RowOutcome } from '../../../batch/runner.js';
import type { ScanResult } from '../../../batch/scan.js';
import { transferOutcome } from '../../../audit/outcomes.js';

/** The batch as it starts sending (`rows`: those this run sends). */
export function batchStart(
  b: { file: string; scan: ScanResult; batchId: string; journal: string; profileId?: string },
  rows: number,
  resumed: boolean,
): AuditEvent {
  return {
    kind: 'batch',
    ref_id: null,
    what: {
      batch_id: b.batchId,
      file: b.file,
      file_sha256: b.scan.fileHash,
      journal: b.journal,
      rows,
      ...(resumed ? { resumed: true } : {}),
      profile_id: b.profileId,
      totals: b.scan.totals.map((t) => ({
        asset: t.asset,
        network: t.network,
        rows: t.rows,
        amount: fmt(t.amount),
        total: fmt(t.total),
      })),
    },
    outcome: { result: 'attempt' },
  };
}

/** A row's answer. */
export function rowEvent(r: BatchRow, out: RowOutcome, batchId: string): AuditEvent {
  const b = r.body;
  const what: AuditWhat = {
    batch_id: batchId,
    row: r.row,
    asset: b.asset,
    network: b.crypto_network,
    amount: b.amount,
    total: b.total,
    fee_id: b.fee_id,
    destination: b.destination_address,
    profile_id: b.profile_id,
  };
  if ('transfer' in out) {
    const t = out.transfer as unknown as Record<string, unknown>;
    if (typeof t.fee === 'string') what.fee = t.fee;
    return { kind: 'batch_row', ref_id: b.ref_id, what, outcome: transferOutcome(t, out.kind === 'already submitted') };
  }
  return { kind: 'batch_row', ref_id: b.ref_id, what, outcome: problemOutcome(out.kind, out.problem) };
}

function problemOutcome(kind: 'refused' | 'unknown', p: Problem): AuditOutcome {
  const name = problemName(p);
  return {
    result: kind,
    error: {
      category: kind === 'refused' ? 'api' : 'network',
      message: [p.title, p.detail].filter(Boolean).join(': '),
      ...(name ? { problem: name } : {}),
      ...(p.status ? { status: p.status } : {}),
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
        not_sent: o.notSent,
      },
    },
  };
}
