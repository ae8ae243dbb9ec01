// Sends the rows of a batch: N at a time under a token bucket, each request recorded in the journal before it leaves
// and its answer after, retried with the same ref_id until the service gives one; then follows transfers (--wait).
import type { Problem, Transfer } from '../contract/index.js';
import { classify, type BatchService, type SendResult } from './service-port.js';
import type { Journal } from './journal.js';
import { backoffMs, nextTurn, realClock, type TokenBucket, type Clock } from './pacing.js';
import type { BatchRow } from './rows.js';
import type { StageTimes } from './timing.js';

export interface Progress {
  /** Rows this run has to send. */
  todo: number;
  done: number;
  succeeded: number;
  failed: number;
  retries: number;
  startedAt: number;
}

export interface RunOptions {
  journal: Journal;
  service: BatchService;
  concurrency: number;
  limiter: TokenBucket;
  /** Attempts per row before it is left as `unknown` (a later --resume tries again). */
  maxAttempts?: number;
  clock?: Clock;
  onProgress?: (p: Progress) => void;
  /** Called as each row started is done with (answered, refused, in doubt, or stopped before it left). */
  onDone?: (row: number) => void;
  /** Asked to stop (Ctrl-C): no new row starts; rows in flight finish. */
  signal?: AbortSignal;
  /**
   * Awaited with each window of rows before it is recorded as sent in the journal and before any of it is sent: the
   * audit log's attempt entries, durable (one fsync) before the first request of the window leaves. A rejection
   * stops the batch, the window unsent.
   */
  beforeWindow?: (rows: BatchRow[]) => Promise<void>;
  /**
   * Awaited as a window written ahead (durable) is about to be sent: a rejection (the audit log failed since, with
   * an answer's entry) stops the batch there, that window and those after it unsent.
   */
  beforeLaunch?: () => Promise<void>;
  /**
   * Awaited with each window of rows (beside beforeWindow) before it is recorded as sent in the journal and leaves:
   * the record of sent ref_ids, durable. A rejection stops the batch, the window unsent.
   */
  onSend?: (rows: BatchRow[]) => void | Promise<void>;
  /** Where the time goes, stage by stage (the bench). */
  times?: StageTimes;
  /**
   * Asked right before each attempt of a row leaves (its turn under the rate limit come): an Error stops the batch
   * there, this row and every later one unsent (the rules of time, by the service's clock, as rows are sent).
   */
  beforeRow?: (row: BatchRow) => Error | undefined;
  /** Called for a row the service refused outright (it moved no money). */
  onRefused?: (row: BatchRow) => void;
  /** Called as each row's answer comes: its transfer, or the problem (the audit log's row entries). */
  onOutcome?: (row: BatchRow, outcome: RowOutcome) => void;
}

/** A row's answer: a transfer made now or before, refused by the service, or no answer after every attempt. */
export type RowOutcome =
  | { kind: 'created' | 'already submitted'; transfer: Transfer }
  | { kind: 'refused' | 'unknown'; problem: Problem };

export class FatalBatchError extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
    this.name = 'FatalBatchError';
  }
}

/** A small semaphore: at most `count` rows in flight. */
class Slots {
  private free: number;
  private waiting: (() => void)[] = [];
  constructor(count: number) {
    this.free = count;
  }
  async take(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

function summaryOf(transfer: Transfer) {
  return {
    transfer_id: transfer.id,
    status: transfer.status,
    amount: transfer.amount,
    fee: transfer.fee,
    total: transfer.total,
  };
}

/** The end state of a transfer the service holds: a FAILED one is a failed row, anything else succeeded. */
function recordTransfer(
  journal: Journal,
  row: number,
  transfer: Transfer,
  outcome: 'created' | 'already submitted',
): { ok: boolean; write: Promise<void> } {
  if (transfer.status === 'FAILED')
    return { ok: false, write: journal.markFailed(row, transferProblem(transfer), summaryOf(transfer)) };
  return { ok: true, write: journal.markSucceeded(row, { ...summaryOf(transfer), outcome }) };
}

export function transferProblem(transfer: Transfer): Problem {
  const why = transfer.status_details
    ? Object.keys(transfer.status_details).join(', ')
    : (transfer.secondary_status as { name?: string } | undefined)?.name;
  return {
    type: 'about:blank',
    title: 'Transfer failed',
    status: 0,
    detail: `transfer ${transfer.id} ended FAILED${why ? ` (${why})` : ''}`,
  };
}

/**
 * The journal's planned rows in row order, each with the request body the journal recorded when the batch was
 * confirmed: what is sent, whatever became of the file since. A page at a time (bounded memory).
 */
export async function* plannedRows(journal: Journal, page = 500): AsyncGenerator<BatchRow> {
  for (let after = 0; ; ) {
    const rows = journal.plannedAfter(after, page);
    if (!rows.length) return;
    for (const r of rows) {
      const body = r.body ? (JSON.parse(r.body) as BatchRow['body']) : undefined;
      if (!body || body.ref_id !== r.ref_id)
        throw new Error(`internal: row ${r.row} of the journal has no request body with its ref_id`);
      yield { row: r.row, line: 0, body, derived: false };
    }
    after = rows[rows.length - 1].row;
  }
}

/** What the rows of a run share: the progress, the first fatal error, rows certainly not sent, pending writes. */
interface RunState {
  progress: Progress;
  fatal?: FatalBatchError;
  /**
   * Rows recorded as sent that certainly did not reach the service (never left, or refused as unauthenticated):
   * put back to planned when the batch stops, so a batch that never began does not need --resume.
   */
  untouched: number[];
  /** Answers are written in group commits; a row's slot does not wait for the disk (see Journal.enqueue). */
  track(write: Promise<void>): void;
}

/** One row: sent until the service answers, retried with the same ref_id after a 429, a 5xx or no answer. */
async function sendOne(row: BatchRow, options: RunOptions, state: RunState): Promise<void> {
  const clock = options.clock ?? realClock;
  const maxAttempts = options.maxAttempts ?? 12;
  let inDoubt = false;
  for (let attempt = 1; ; attempt++) {
    if (state.fatal) {
      if (!inDoubt) state.untouched.push(row.row);
      return;
    }
    const times = options.times;
    const t0 = times ? performance.now() : 0;
    await options.limiter.take();
    if (state.fatal) {
      if (!inDoubt) state.untouched.push(row.row);
      return;
    }
    const t1 = times ? performance.now() : 0;
    const stop = options.beforeRow?.(row);
    if (stop) {
      state.fatal ??= new FatalBatchError(stop);
      if (!inDoubt) state.untouched.push(row.row);
      return;
    }
    const t2 = times ? performance.now() : 0;
    const res: SendResult = await options.service.createWithdrawal(row.body);
    if (times) {
      times.add('limiter', t1 - t0);
      times.add('checks', t2 - t1);
      times.add('http', performance.now() - t2);
    }
    if (res.kind === 'created' || res.kind === 'exists') {
      const { ok, write } = recordTransfer(
        options.journal,
        row.row,
        res.transfer,
        res.kind === 'created' ? 'created' : 'already submitted',
      );
      state.track(write);
      options.onOutcome?.(row, {
        kind: res.kind === 'created' ? 'created' : 'already submitted',
        transfer: res.transfer,
      });
      if (ok) state.progress.succeeded++;
      else state.progress.failed++;
      return;
    }
    if (res.kind === 'refused') {
      state.track(options.journal.markFailed(row.row, res.problem));
      options.onRefused?.(row);
      options.onOutcome?.(row, { kind: 'refused', problem: res.problem });
      state.progress.failed++;
      return;
    }
    if (res.kind === 'fatal') {
      state.fatal ??= new FatalBatchError(res.error);
      if (!inDoubt) state.untouched.push(row.row);
      return;
    }
    const retry = res as Extract<SendResult, { kind: 'retry' }>;
    // No answer, a 5xx or a 429: the service may hold the row; only its ref_id can tell now.
    inDoubt = true;
    if (attempt >= maxAttempts) {
      state.track(options.journal.markUnknown(row.row, retry.problem));
      options.onOutcome?.(row, { kind: 'unknown', problem: retry.problem });
      state.progress.failed++;
      return;
    }
    state.progress.retries++;
    if (retry.throttled) {
      // Everyone waits after a 429, not just this row: the service counts the whole client.
      options.limiter.hold(backoffMs(attempt, 1000, 15_000));
    } else await clock.sleep(backoffMs(attempt, 250, 5000));
  }
}

/**
 * Sends every row the journal still has as planned. `rows` are the journal's planned rows (plannedRows), in
 * order; rows the journal records as done are skipped without a request.
 */
/** The state of one run: its progress, the rows it never started, the writes under way and the fatal error. */
function runState(todo: number, options: RunOptions, writes: Set<Promise<void>>): RunState {
  const s: RunState = {
    progress: { todo, done: 0, succeeded: 0, failed: 0, retries: 0, startedAt: (options.clock ?? realClock).now() },
    untouched: [],
    track(work) {
      writes.add(work);
      work.then(
        () => writes.delete(work),
        (error: Error) => {
          writes.delete(work);
          s.fatal ??= new FatalBatchError(error);
        },
      );
    },
  };
  return s;
}

/** A window of rows whose writes are under way or done, not yet sent. */
interface Ahead {
  rows: BatchRow[];
  /** Resolves when the window is durable, with the error that stops the batch before it if it is not. */
  ready: Promise<Error | undefined>;
}

const SKIPPED = new Error('internal: a window after the batch stopped');

/** Windows whose writes are under way or done, not yet sent: up to LOOKAHEAD (a slow fsync is absorbed). */
const LOOKAHEAD = 2;

/**
 * Rows go out in windows. Before a window's first request leaves, each of its rows is on disk in the audit log (its
 * attempt entry), the record of sent ref_ids and the journal (as sent): one fsync per file for the window, the first
 * two in parallel, then the journal's. A crash from then on means "maybe sent" for each of them, and the resend with
 * the same ref_id is safe. The next window's writes are made while this one's rows are sent, so the requests do not
 * wait for the disk; a window whose writes fail sends nothing, and the batch stops before it. Two windows are made
 * durable ahead of the one being sent, each holding enough rows to outlast its writes (three fsyncs, tens of
 * milliseconds on a busy disk): 16 times the rows in flight, up to 512.
 */
class Windows {
  readonly size: number;
  private chain: Promise<Error | undefined> = Promise.resolve(undefined);
  private readonly ahead: Ahead[] = [];
  private window: BatchRow[] = [];
  readonly slots: Slots;
  readonly inFlight = new Set<Promise<void>>();
  constructor(
    private readonly options: RunOptions,
    private readonly state: RunState,
  ) {
    this.size = Math.max(16, Math.min(512, options.concurrency * 16));
    this.slots = new Slots(Math.max(1, options.concurrency));
  }

  /** Adds a row; when its window is full, that window's writes begin and the oldest one ahead is sent. */
  async add(row: BatchRow): Promise<boolean> {
    this.window.push(row);
    return this.window.length < this.size || this.next();
  }

  /** The last window, then every window ahead: sent, or (once the batch stopped) put back as untouched. */
  async drain(stopped: boolean): Promise<void> {
    if (!stopped && this.window.length && !(await this.next())) stopped = true;
    for (const w of this.ahead.splice(0)) {
      if (!stopped) {
        // launch() accounts for its own rows when it stops (those it never started are untouched).
        if (!(await this.launch(w))) stopped = true;
        continue;
      }
      // Written (maybe) as sent and never started: back to planned with the others.
      await w.ready;
      for (const r of w.rows) this.state.untouched.push(r.row);
    }
    await Promise.all([...this.inFlight]);
  }

  private async next(): Promise<boolean> {
    this.ahead.push(this.prepare(this.window));
    this.window = [];
    const oldest = this.ahead.length > LOOKAHEAD ? this.ahead.shift() : undefined;
    return oldest ? this.launch(oldest) : true;
  }

  /** The window's durable writes, after those of the window before (nothing once one failed or the batch stopped). */
  private prepare(rowsNow: BatchRow[]): Ahead {
    const { options: o, state: s } = this;
    const times = o.times;
    const ready = this.chain.then(async (before) => {
      // Each file's writes of the window in a turn of the event loop of their own: the answers that came meanwhile
      // are taken between them and the next rows leave, so the service is not left without requests while coinop
      // writes a window (the writes of 256 rows are milliseconds of CPU; 16 requests in flight, less).
      await nextTurn();
      if (before || s.fatal || o.signal?.aborted) return SKIPPED;
      try {
        // Each write's outcome taken as it starts: the audit's may fail while the record's turn waits, and a rejection
        // nobody has taken yet is an unhandled one (which ends the process) however soon it is awaited.
        const audit = failureOf(o.beforeWindow && (() => timed(times, 'audit', () => o.beforeWindow?.(rowsNow))));
        await nextTurn();
        const record = failureOf(o.onSend && (() => timed(times, 'record', () => o.onSend?.(rowsNow))));
        // Both settled before the journal: a window the audit log or the record refused is not "sent".
        const [auditFailed, recordFailed] = await Promise.all([audit, record]);
        if (auditFailed) throw auditFailed;
        if (recordFailed) throw recordFailed;
        await nextTurn();
        await timed(times, 'journal', () => o.journal.markSentDurable(rowsNow.map((r) => r.row)));
        return undefined;
      } catch (e) {
        return e as Error;
      }
    });
    this.chain = ready;
    return { rows: rowsNow, ready };
  }

  /** Sends a window once it is durable; false when the batch stops (its rows not started are untouched). */
  private async launch(ahead: Ahead): Promise<boolean> {
    const { options: o, state: s } = this;
    const times = o.times;
    const t = times ? performance.now() : 0;
    const err = await ahead.ready;
    times?.add('window-wait', times ? performance.now() - t : 0);
    let stop = err;
    if (!stop && o.beforeLaunch && !s.fatal)
      stop = await o.beforeLaunch().then(
        () => undefined,
        (e: Error) => e,
      );
    if (stop) {
      if (stop !== SKIPPED) s.fatal ??= new FatalBatchError(stop);
      for (const r of ahead.rows) s.untouched.push(r.row);
      return false;
    }
    for (let i = 0; i < ahead.rows.length; i++) {
      if (!(await this.start(ahead.rows[i]))) {
        for (const r of ahead.rows.slice(i)) s.untouched.push(r.row);
        return false;
      }
    }
    return true;
  }

  /** One row sent in a free slot; false when the batch stopped first. */
  private async start(row: BatchRow): Promise<boolean> {
    const { options: o, state: s, slots } = this;
    await slots.take();
    if (s.fatal || o.signal?.aborted) {
      slots.give();
      return false;
    }
    const p = sendOne(row, o, s)
      .catch((error: Error) => {
        s.fatal ??= new FatalBatchError(error);
      })
      .finally(() => {
        s.progress.done++;
        o.onDone?.(row.row);
        o.onProgress?.(s.progress);
        slots.give();
        this.inFlight.delete(p);
      });
    this.inFlight.add(p);
    return true;
  }
}

export async function sendRows(rows: AsyncIterable<BatchRow>, todo: number, options: RunOptions): Promise<Progress> {
  const writes = new Set<Promise<void>>();
  const s = runState(todo, options, writes);
  const windows = new Windows(options, s);
  const times = options.times;
  // Rows are taken a window's worth at a time and their states read with one statement, not one per row.
  const addAll = async (chunk: BatchRow[]): Promise<boolean> => {
    const t = times ? performance.now() : 0;
    const planned = stillPlanned(options.journal, chunk);
    times?.add('checks', times ? performance.now() - t : 0);
    for (const r of planned) {
      if (s.fatal || options.signal?.aborted) return false;
      if (!(await windows.add(r))) return false;
    }
    return true;
  };
  let stopped = false;
  let chunk: BatchRow[] = [];
  for await (const r of rows) {
    if (s.fatal || options.signal?.aborted) {
      stopped = true;
      break;
    }
    chunk.push(r);
    if (chunk.length < windows.size) continue;
    const all = chunk;
    chunk = [];
    if (!(await addAll(all))) {
      stopped = true;
      break;
    }
  }
  if (!stopped && chunk.length && !(await addAll(chunk))) stopped = true;
  await windows.drain(stopped);
  options.journal.flush();
  await Promise.allSettled([...writes]);
  replanUntouched(options.journal, s);
  if (s.fatal) throw s.fatal;
  return s.progress;
}

/** What a write ends with: undefined when it succeeded (or there is none), else its error. Never rejects. */
async function failureOf(write: (() => unknown) | undefined): Promise<Error | undefined> {
  try {
    await write?.();
    return undefined;
  } catch (e) {
    return e as Error;
  }
}

/** Runs `fn` (sync or async) into the stage's time when timing. */
function timed<T>(times: StageTimes | undefined, stage: Parameters<StageTimes['add']>[0], fn: () => T): T {
  return times ? times.time(stage, fn) : fn();
}

/**
 * The rows the journal still has to send (planned), each under the ref_id the row carries: the states of all of them
 * read with one statement.
 */
function stillPlanned(journal: Journal, rows: BatchRow[]): BatchRow[] {
  const states = journal.statesOf(rows.map((r) => r.row));
  return rows.filter((row) => {
    const state = states.get(row.row);
    if (!state) throw new Error(`row ${row.row} is missing from the journal`);
    if (state.state !== 'planned') return false;
    if (state.ref_id !== row.body.ref_id) {
      throw new Error(
        `row ${row.row}: the journal has ref_id ${state.ref_id ?? '(none)'}, the row to send ${row.body.ref_id ?? '(none)'}`,
      );
    }
    return true;
  });
}

/** Rows recorded as sent that certainly never left go back to planned. */
function replanUntouched(journal: Journal, state: RunState): void {
  if (!state.untouched.length) return;
  try {
    journal.markPlannedNow(state.untouched);
  } catch (e) {
    // They stay "sent" (maybe sent): a resume sends them again with their ref_ids, which is safe.
    state.fatal ??= new FatalBatchError(e as Error);
  }
}

/**
 * Follows every transfer of the batch that has not ended, 100 per request, until each is COMPLETED or FAILED.
 * Returns the number still pending if stopped early.
 */
export async function waitForTransfers(options: {
  journal: Journal;
  service: BatchService;
  limiter: TokenBucket;
  clock?: Clock;
  intervalMs?: number;
  signal?: AbortSignal;
  onProgress?: (pending: number) => void;
}): Promise<number> {
  const clock = options.clock ?? realClock;
  for (;;) {
    const pending = options.journal.pendingTransfers();
    options.onProgress?.(pending.length);
    if (!pending.length || options.signal?.aborted) return pending.length;
    try {
      await refreshStatuses(options);
    } catch (e) {
      // No answer, a 429 or a 5xx: ask again in a moment; anything else stops the wait.
      if (classify(e).kind !== 'retry') throw e;
      await clock.sleep(1000);
      continue;
    }
    if (!options.journal.pendingTransfers().length) continue;
    await clock.sleep(options.intervalMs ?? 1000);
  }
}

/**
 * One look at the transfers the journal still has as PENDING: one list request per 100 of them (never one per row);
 * those that ended are marked in the journal. Returns how many are still pending.
 */
export async function refreshStatuses(options: {
  journal: Journal;
  service: BatchService;
  limiter?: TokenBucket;
}): Promise<number> {
  const pending = options.journal.pendingTransfers();
  for (let i = 0; i < pending.length; i += 100) {
    const byId = new Map(pending.slice(i, i + 100).map((p) => [p.transfer_id, p.row]));
    await options.limiter?.take();
    const found = await options.service.transfers([...byId.keys()]);
    const writes: Promise<void>[] = [];
    for (const t of found) {
      const row = byId.get(t.id);
      if (row === undefined || (t.status !== 'COMPLETED' && t.status !== 'FAILED')) continue;
      writes.push(options.journal.markStatus(row, t.status, t.status === 'FAILED' ? transferProblem(t) : undefined));
    }
    await Promise.all(writes);
  }
  return options.journal.pendingTransfers().length;
}
