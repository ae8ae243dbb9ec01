// Where a batch's time goes, stage by stage (milliseconds summed over the run): what `npm run bench` reports per row.
// Stages that run beside the requests (the durable writes of the next window) are summed as they run, so the
// stages of one run may add up to more than its wall time.

export type Stage =
  /** From the process's start to the batch's first step (node, the bundle, the command line). */
  | 'start'
  /** Reading, validating and staging the file (once, before anything is asked). */
  | 'read'
  /** The checks before the first row: the policy, repeats, funds, the question, planning the journal. */
  | 'begin'
  /** Of `begin`: asking the service (and the record) which rows another batch already paid. */
  | 'repeats'
  /** A window's attempt entries written and fsynced in the audit log. */
  | 'audit'
  /** A window's rows written and fsynced in the record of sent ref_ids. */
  | 'record'
  /** A window's rows marked sent in the journal and fsynced; and the answers' group commits. */
  | 'journal'
  /** The main thread blocked on journal commits (SQLite), as part of `journal`. */
  | 'journal-commit'
  /** Sending, from the first window's writes to the last answer (wall time). */
  | 'send'
  /** Waiting for a window's durable writes before its first row could leave (the rows in flight all answered). */
  | 'window-wait'
  /** Each request, from leaving to its answer (concurrent: summed over rows). */
  | 'http'
  /** Waiting for a turn under the rate limit (summed over rows). */
  | 'limiter'
  /** The per-row checks in memory before a row leaves (the hours, the journal's state of the row). */
  | 'checks'
  /** CPU (user + system, every thread of the process) spent in `read`, in `begin` and while sending. */
  | 'read-cpu'
  | 'begin-cpu'
  | 'send-cpu';

export class StageTimes {
  readonly ms: Partial<Record<Stage, number>> = {};
  rows = 0;
  add(stage: Stage, ms: number): void {
    this.ms[stage] = (this.ms[stage] ?? 0) + ms;
  }
  /** Times `fn` (sync or async) into `stage`. */
  time<T>(stage: Stage, fn: () => T): T {
    const t = performance.now();
    const out = fn();
    if (out instanceof Promise) {
      return out.finally(() => this.add(stage, performance.now() - t)) as T;
    }
    this.add(stage, performance.now() - t);
    return out;
  }
  /** Adds the CPU the process used since `from` (a process.cpuUsage()) to `stage`; returns the usage now. */
  cpu(stage: Stage, from: NodeJS.CpuUsage): NodeJS.CpuUsage {
    const now = process.cpuUsage();
    this.add(stage, (now.user - from.user + now.system - from.system) / 1000);
    return now;
  }
  toJSON(): { rows: number; ms: Partial<Record<Stage, number>> } {
    return { rows: this.rows, ms: this.ms };
  }
}
