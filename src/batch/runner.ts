// Sends the rows of a batch: N at a time under a token bucket, each request recorded in the journal before it leaves
// and its answer after, retried with the same ref_id until the service gives one; then follows transfers (--wait).
import type { Problem, Transfer } from '../api/index.js';
import type { BatchApi, SendResult } from './api.js';
import type { Journal } from './journal.js';
import { backoffMs, realClock, TokenBucket, type Clock } from './rate-limit.js';
import type { BatchRow } from './rows.js';

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
  api: BatchApi;
  concurrency: number;
  limiter: TokenBucket;
  /** Attempts per row before it is left as `unknown` (a later --resume tries again). */
  maxAttempts?: number;
  clock?: Clock;
  onProgress?: (p: Progress) => void;
  /** Asked to stop (Ctrl-C): no new row starts; rows in flight finish. */
  signal?: AbortSignal;
}

export class FatalBatchError extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
    this.name = 'FatalBatchError';
  }
}

/** A small semaphore: at most `n` rows in flight. */
class Slots {
  private free: number;
  private waiting: (() => void)[] = [];
  constructor(n: number) {
    this.free = n;
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

function summaryOf(t: Transfer) {
  return { transfer_id: t.id, status: t.status, amount: t.amount, fee: t.fee, total: t.total };
}

/** The end state of a transfer the service holds: a FAILED one is a failed row, anything else succeeded. */
function recordTransfer(journal: Journal, row: number, t: Transfer, outcome: 'created' | 'already submitted'): { ok: boolean; write: Promise<void> } {
  if (t.status === 'FAILED') return { ok: false, write: journal.markFailed(row, transferProblem(t), summaryOf(t)) };
  return { ok: true, write: journal.markSucceeded(row, { ...summaryOf(t), outcome }) };
}

export function transferProblem(t: Transfer): Problem {
  const why = t.status_details ? Object.keys(t.status_details).join(', ') : (t.secondary_status as { name?: string } | undefined)?.name;
  return { type: 'about:blank', title: 'Transfer failed', status: 0, detail: `transfer ${t.id} ended FAILED${why ? ` (${why})` : ''}` };
}

/**
 * Sends every row the journal still has as planned. `rows` is the validated file, in order; rows the journal
 * records as done are skipped without a request.
 */
export async function sendRows(rows: AsyncIterable<BatchRow>, todo: number, o: RunOptions): Promise<Progress> {
  const clock = o.clock ?? realClock;
  const maxAttempts = o.maxAttempts ?? 12;
  const slots = new Slots(Math.max(1, o.concurrency));
  const progress: Progress = { todo, done: 0, succeeded: 0, failed: 0, retries: 0, startedAt: clock.now() };
  let fatal: FatalBatchError | undefined;
  const inFlight = new Set<Promise<void>>();
  // Answers are written in group commits; a row's slot does not wait for the disk (see Journal.enqueue).
  const writes = new Set<Promise<void>>();
  const track = (w: Promise<void>) => {
    writes.add(w);
    w.then(
      () => writes.delete(w),
      (e: Error) => {
        writes.delete(w);
        fatal ??= new FatalBatchError(e);
      },
    );
  };

  // Rows recorded as sent that certainly did not reach the service (never left, or refused as unauthenticated):
  // put back to planned when the batch stops, so a batch that never began does not need --resume.
  const untouched: number[] = [];

  const one = async (r: BatchRow): Promise<void> => {
    let inDoubt = false;
    for (let attempt = 1; ; attempt++) {
      if (fatal) {
        if (!inDoubt) untouched.push(r.row);
        return;
      }
      await o.limiter.take();
      if (fatal) {
        if (!inDoubt) untouched.push(r.row);
        return;
      }
      const res: SendResult = await o.api.createWithdrawal(r.body);
      if (res.kind === 'created' || res.kind === 'exists') {
        const { ok, write } = recordTransfer(o.journal, r.row, res.transfer, res.kind === 'created' ? 'created' : 'already submitted');
        track(write);
        if (ok) progress.succeeded++;
        else progress.failed++;
        return;
      }
      if (res.kind === 'refused') {
        track(o.journal.markFailed(r.row, res.problem));
        progress.failed++;
        return;
      }
      if (res.kind === 'fatal') {
        fatal ??= new FatalBatchError(res.error);
        if (!inDoubt) untouched.push(r.row);
        return;
      }
      const retry = res as Extract<SendResult, { kind: 'retry' }>;
      // No answer, a 5xx or a 429: the service may hold the row; only its ref_id can tell now.
      inDoubt = true;
      if (attempt >= maxAttempts) {
        track(o.journal.markUnknown(r.row, retry.problem));
        progress.failed++;
        return;
      }
      progress.retries++;
      if (retry.throttled) {
        // Everyone waits after a 429, not just this row: the service counts the whole client.
        o.limiter.hold(backoffMs(attempt, 1000, 15_000));
      } else await clock.sleep(backoffMs(attempt, 250, 5000));
    }
  };

  const start = async (r: BatchRow): Promise<boolean> => {
    await slots.take();
    if (fatal || o.signal?.aborted) {
      slots.give();
      return false;
    }
    const p = one(r)
      .catch((e: Error) => {
        fatal ??= new FatalBatchError(e);
      })
      .finally(() => {
        progress.done++;
        o.onProgress?.(progress);
        slots.give();
        inFlight.delete(p);
      });
    inFlight.add(p);
    return true;
  };

  // Rows go out in windows: the whole window is recorded as sent (one fsync) before its first request leaves, so
  // a crash from then on means "maybe sent" for each of them, and the resend with the same ref_id is safe.
  const windowSize = Math.max(16, Math.min(128, o.concurrency * 4));
  let window: BatchRow[] = [];
  const dispatch = async (): Promise<boolean> => {
    const rowsNow = window;
    window = [];
    if (!rowsNow.length) return true;
    o.journal.markSentNow(rowsNow.map((r) => r.row));
    for (let i = 0; i < rowsNow.length; i++) {
      if (!(await start(rowsNow[i]))) {
        for (const r of rowsNow.slice(i)) untouched.push(r.row);
        return false;
      }
    }
    return true;
  };
  let stopped = false;
  for await (const r of rows) {
    if (fatal || o.signal?.aborted) {
      stopped = true;
      break;
    }
    const state = o.journal.get(r.row);
    if (!state) throw new Error(`row ${r.row} is missing from the journal`);
    if (state.state !== 'planned') continue;
    if (state.ref_id !== r.body.ref_id) {
      throw new Error(`row ${r.row}: the journal has ref_id ${state.ref_id ?? '(none)'}, the file ${r.body.ref_id ?? '(none)'}`);
    }
    window.push(r);
    if (window.length >= windowSize && !(await dispatch())) {
      stopped = true;
      break;
    }
  }
  if (!stopped) await dispatch();
  await Promise.all([...inFlight]);
  o.journal.flush();
  await Promise.allSettled([...writes]);
  if (untouched.length) o.journal.markPlannedNow(untouched);
  if (fatal) throw fatal;
  return progress;
}

/**
 * Follows every transfer of the batch that has not ended, 100 per request, until each is COMPLETED or FAILED.
 * Returns the number still pending if stopped early.
 */
export async function waitForTransfers(
  o: { journal: Journal; api: BatchApi; limiter: TokenBucket; clock?: Clock; intervalMs?: number; signal?: AbortSignal; onProgress?: (pending: number) => void },
): Promise<number> {
  const clock = o.clock ?? realClock;
  for (;;) {
    const pending = o.journal.pendingTransfers();
    o.onProgress?.(pending.length);
    if (!pending.length || o.signal?.aborted) return pending.length;
    for (let i = 0; i < pending.length; i += 100) {
      const chunk = pending.slice(i, i + 100);
      const byId = new Map(chunk.map((p) => [p.transfer_id, p.row]));
      await o.limiter.take();
      let found: Transfer[];
      try {
        found = await o.api.transfers([...byId.keys()]);
      } catch (e) {
        const err = e as { category?: string };
        if (err.category === 'network' || (e as { problem?: Problem }).problem?.status === 429) {
          await clock.sleep(1000);
          continue;
        }
        throw e;
      }
      const writes: Promise<void>[] = [];
      for (const t of found) {
        const row = byId.get(t.id);
        if (row === undefined || (t.status !== 'COMPLETED' && t.status !== 'FAILED')) continue;
        writes.push(o.journal.markStatus(row, t.status, t.status === 'FAILED' ? transferProblem(t) : undefined));
      }
      await Promise.all(writes);
    }
    if (!o.journal.pendingTransfers().length) continue;
    await clock.sleep(o.intervalMs ?? 1000);
  }
}
