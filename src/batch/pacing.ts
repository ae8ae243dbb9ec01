// A client-side token bucket that keeps a batch under the service's rate limit, and holds everyone back after a 429.

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * Resolves in the next turn of the event loop, once the I/O that is ready (answers) was taken: long work done a part at a
 * time between such turns leaves the requests going.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

export class TokenBucket {
  private tokens: number;
  private last: number;
  /** No request leaves before this time (set by a 429). */
  private holdUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  /**
   * @param rate tokens per second (Infinity: no limit)
   * @param burst most tokens saved up. 1 by default: after a stall (a slow answer, a pause) the batch does not
   *   catch up in a burst, so no window of the service's rate limit ever sees more than the rate.
   */
  constructor(
    readonly rate: number,
    readonly burst = 1,
    private readonly clock: Clock = realClock,
  ) {
    this.tokens = Number.isFinite(rate) ? Math.min(1, this.burst) : Infinity;
    this.last = clock.now();
  }

  /** Waits for a token. Callers are served in order. */
  take(): Promise<void> {
    if (!Number.isFinite(this.rate) && this.holdUntil <= this.clock.now()) return Promise.resolve();
    const next = this.queue.then(() => this.wait());
    this.queue = next;
    return next;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      if (now < this.holdUntil) {
        await this.clock.sleep(this.holdUntil - now);
        continue;
      }
      if (!Number.isFinite(this.rate)) return;
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.clock.sleep(Math.ceil(((1 - this.tokens) / this.rate) * 1000));
    }
  }

  /** The service said 429: nobody sends for `ms`, and the bucket starts empty afterwards. */
  hold(ms: number): void {
    const until = this.clock.now() + ms;
    if (until > this.holdUntil) this.holdUntil = until;
    if (Number.isFinite(this.rate)) {
      this.tokens = 0;
      this.last = until;
    }
  }
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/** Capped exponential backoff with full jitter: attempt 1 waits up to `base`, doubling up to `cap`. */
export function backoffMs(attempt: number, base = 200, cap = 5000, random = Math.random): number {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
