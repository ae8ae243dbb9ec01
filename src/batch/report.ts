// The batch report (every row with its transfer id and status), the progress bar, and the exit code of a batch.
import type { Problem } from '../contract/index.js';
import type { Column } from '../render/table.js';
import type { Journal, OutcomeCounts, ReportedRow, RowState } from './journal.js';
import type { Progress } from './runner.js';

export interface ReportRow {
  row: number;
  ref_id: string | null;
  /**
   * created, already submitted, failed, invalid, skipped (--allow-partial: not sent, a balance or a limit could not
   * cover it), not sent (interrupted), unknown (no answer after retries).
   */
  result: string;
  transfer_id: string | null;
  status: string | null;
  asset: string | null;
  crypto_network: string | null;
  amount: string | null;
  fee: string | null;
  total: string | null;
  destination_address: string | null;
  problem: string | null;
}

export const REPORT_COLUMNS: Column[] = [
  { key: 'row' },
  { key: 'ref_id', kind: 'id' },
  { key: 'result' },
  { key: 'transfer_id', kind: 'id' },
  { key: 'status', kind: 'status' },
  { key: 'asset' },
  { key: 'crypto_network' },
  { key: 'amount', kind: 'amount' },
  { key: 'fee', kind: 'amount' },
  { key: 'total', kind: 'amount' },
  { key: 'destination_address', kind: 'id' },
  { key: 'problem', kind: 'text' },
];

/**
 * For a person on a terminal: what fits a common width; the machine formats carry every field. The transfer id is
 * shortened before the status goes, the fee goes first on a narrow terminal, and the problem wraps.
 */
export const TABLE_COLUMNS: Column[] = [
  { key: 'row', identity: true },
  { key: 'result', identity: true },
  { key: 'transfer_id', kind: 'id', short: true },
  { key: 'status', kind: 'status', rank: 2 },
  { key: 'asset' },
  { key: 'amount', kind: 'amount' },
  { key: 'fee', kind: 'amount', rank: 3 },
  { key: 'problem', kind: 'text' },
];

export function problemText(json: string | null): string | null {
  if (!json) return null;
  try {
    const p = JSON.parse(json) as Problem;
    return [p.title, p.detail].filter(Boolean).join(': ') + (p.status ? ` (${p.status})` : '');
  } catch {
    return json;
  }
}

const RESULT: Record<RowState, string> = {
  planned: 'not sent',
  sent: 'not sent',
  unknown: 'unknown',
  succeeded: 'created',
  failed: 'failed',
  invalid: 'invalid',
};

/** The ref_id an invalid row gave, kept in its problem (the journal's ref_id column holds sent rows' only). */
function givenRefId(problem: string | null): string | null {
  if (!problem) return null;
  try {
    const p = JSON.parse(problem) as { ref_id?: unknown };
    return typeof p.ref_id === 'string' ? p.ref_id : null;
  } catch {
    return null;
  }
}

export function reportRow(reported: ReportedRow): ReportRow {
  return {
    row: reported.row,
    ref_id: reported.ref_id ?? (reported.state === 'invalid' ? givenRefId(reported.problem) : null),
    result:
      (reported.state === 'succeeded' && reported.outcome) ||
      (reported.state === 'failed' && reported.outcome === 'skipped')
        ? reported.outcome
        : reported.state === 'sent'
          ? 'not sent (interrupted)'
          : RESULT[reported.state],
    transfer_id: reported.transfer_id,
    status: reported.status,
    asset: reported.asset,
    crypto_network: reported.crypto_network,
    amount: reported.amount ?? reported.req_amount,
    fee: reported.fee,
    total: reported.total ?? reported.req_total,
    destination_address: reported.destination_address,
    problem: problemText(reported.problem),
  };
}

export function* reportRows(journal: Journal): Generator<ReportRow> {
  for (const j of journal.reported()) yield reportRow(j);
}

/**
 * Report rows written as each row finishes (NDJSON and CSV): a queue the output drains as it fills, so a run that
 * is killed leaves every finished row on stdout. A row is queued once its answer is in the journal (stdout never
 * runs ahead of it); finish() adds the rows not shown (invalid, not sent, done on an earlier run) in row order.
 */
export class ReportStream {
  private queue: ReportRow[] = [];
  private wake?: () => void;
  private ended = false;
  private readonly shown = new Set<number>();
  /** Rows done whose answer is not yet on disk in the journal: shown after the journal's next fsync. */
  private pending = new Set<number>();
  /** Rows whose answer is on disk and whose done() has not come yet (it comes after, as a rule). */
  private durable = new Set<number>();
  constructor(private readonly journal: Journal) {
    // The journal's group commits, once fsynced, let the rows whose answers they hold out: one read of those rows
    // per commit, not a read per row (nor of rows whose answers are not written yet).
    journal.onDurable = (answered) => this.drain(answered);
  }

  done(row: number): void {
    if (this.shown.has(row)) return;
    if (this.durable.delete(row)) this.show([row]);
    else this.pending.add(row);
  }

  private drain(answered: number[]): void {
    const ready: number[] = [];
    for (const row of answered) {
      if (this.pending.delete(row)) ready.push(row);
      else if (!this.shown.has(row)) this.durable.add(row);
    }
    if (ready.length) this.show(ready);
  }

  /** The rows (done, their answers on disk) as the journal has them, in row order. */
  private show(rows: number[]): void {
    const want = new Set(rows);
    let first = rows[0];
    let last = rows[0];
    for (const r of rows) {
      if (r < first) first = r;
      if (r > last) last = r;
    }
    for (const j of this.journal.reportedBetween(first, last)) {
      if (!want.has(j.row) || j.state === 'planned' || j.state === 'sent') continue;
      this.shown.add(j.row);
      this.push(reportRow(j));
    }
  }

  finish(): void {
    this.journal.onDurable = undefined;
    this.pending.clear();
    this.durable.clear();
    // The rows not shown (none, when every row was answered in this run): found from the row numbers alone, then
    // read a run of consecutive rows at a time.
    const runs: [number, number][] = [];
    let run: [number, number] | undefined;
    for (const row of this.journal.rowNumbers()) {
      if (this.shown.has(row)) run = undefined;
      else if (run && run[1] - run[0] < 1000) run[1] = row;
      else runs.push((run = [row, row]));
    }
    for (const [first, last] of runs)
      for (const j of this.journal.reportedBetween(first, last)) this.queue.push(reportRow(j));
    this.ended = true;
    this.wake?.();
  }

  async *rows(): AsyncGenerator<ReportRow> {
    for (;;) {
      while (this.queue.length) yield this.queue.shift() as ReportRow;
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  private push(row: ReportRow): void {
    this.queue.push(row);
    this.wake?.();
  }
}

export type Outcome = OutcomeCounts;

/** The rows by what became of them: one aggregate query over the journal. */
export function outcomeOf(journal: Journal): Outcome {
  return journal.outcomeCounts();
}

/** 0 every row succeeded; 7 no row has a transfer; 6 some rows failed, were invalid, skipped or were left unsent. */
export function exitCodeOf(outcome: Outcome): 0 | 6 | 7 {
  if (outcome.withTransfer === 0) return 7;
  if (outcome.failed || outcome.invalid || outcome.skipped || outcome.notSent) return 6;
  return 0;
}

export function outcomeLine(outcome: Outcome): string {
  const parts = [`${outcome.created} created`];
  if (outcome.alreadySubmitted) parts.push(`${outcome.alreadySubmitted} already submitted`);
  if (outcome.failed) parts.push(`${outcome.failed} failed`);
  if (outcome.invalid) parts.push(`${outcome.invalid} invalid (skipped)`);
  if (outcome.skipped) parts.push(`${outcome.skipped} skipped (--allow-partial: a balance or a limit ran out)`);
  if (outcome.notSent) parts.push(`${outcome.notSent} not sent or without an answer (run again with --resume)`);
  return `${outcome.rows} row${outcome.rows === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return `${h ? `${h}:${String(m).padStart(2, '0')}` : String(m)}:${String(r).padStart(2, '0')}`;
}

/** One line of progress: a bar, done, succeeded, failed, rate and time left. */
export function progressLine(progress: Progress, now: number, width: number): string {
  const elapsed = Math.max(0.001, (now - progress.startedAt) / 1000);
  const rate = progress.done / elapsed;
  const left = rate > 0 ? (progress.todo - progress.done) / rate : Infinity;
  const retries = progress.retries ? ` · ${progress.retries} retr${progress.retries === 1 ? 'y' : 'ies'}` : '';
  const text = ` ${progress.done}/${progress.todo} · ${progress.succeeded} ok · ${progress.failed} failed${retries} · ${rate.toFixed(1)}/s · ${clock(left)} left`;
  const barWidth = Math.max(10, Math.min(40, width - text.length - 4));
  const filled = progress.todo ? Math.round((progress.done / progress.todo) * barWidth) : barWidth;
  return `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]${text}`;
}

/** Progress without a bar, for a log: done, succeeded, failed, rate and time left. */
export function plainProgressLine(progress: Progress, now: number): string {
  return `progress: ${progressLine(progress, now, 0).replace(/^\[[#.]*\] /, '')}`;
}

/** How often a plain progress line is written when stderr is not a terminal. */
const PLAIN_EVERY_MS = 2000;

/**
 * Redraws the progress line on a terminal at most ten times a second; with `plain` (stderr piped) writes a plain
 * line every two seconds instead (and the final one), so a log shows a batch is moving.
 */
export class ProgressBar {
  private last = Number.NEGATIVE_INFINITY;
  private shown = false;
  private lastStatus = '';
  constructor(
    private readonly write: ((s: string) => void) | undefined,
    private readonly width: number,
    private readonly now: () => number = Date.now,
    private readonly plain = false,
  ) {}

  update(progress: Progress, force = false): void {
    if (!this.write) return;
    const t = this.now();
    if (!force && t - this.last < (this.plain ? PLAIN_EVERY_MS : 100)) return;
    this.last = t;
    if (this.plain) return this.write(`${plainProgressLine(progress, t)}\n`);
    this.shown = true;
    this.write(`\r\u001b[2K${progressLine(progress, t, this.width)}`);
  }

  /** A line that is not progress (waiting for transfers, and so on). */
  status(text: string): void {
    if (!this.write) return;
    if (this.plain) {
      const t = this.now();
      if (!text || (text === this.lastStatus && t - this.last < PLAIN_EVERY_MS)) return;
      this.last = t;
      this.lastStatus = text;
      return this.write(`${text}\n`);
    }
    this.shown = true;
    this.write(`\r\u001b[2K${text}`);
  }

  clear(): void {
    if (this.write && this.shown && !this.plain) this.write('\r\u001b[2K');
    this.shown = false;
  }
}
