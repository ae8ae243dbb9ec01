// The upstream's withdrawals of the last day as the gateway counts them against the rolling caps: read from the
// upstream now and then, not at every admission. What went through the gateway is in its store (a reservation per
// withdrawal admitted, by any instance, kept for its day and read in the transaction that admits the next), so this
// copy only has to find what left the upstream some other way: before the gateway ran, or with its credentials
// used elsewhere. The copy is read again in the background once it is REFRESH_MS old; once it is MAX_AGE_MS old an
// admission waits for a new read, and when that read fails the admission is refused (as it was when every admission
// read the upstream). Withdrawals in the copy are counted until it is read again, even those that have since left
// the 24 hours: a stale copy counts more, never less.
import type { ServiceClient } from '../client/service-client.js';
import { type LastDay, lastDay } from '../policy/check.js';

/** A copy this old is read again in the background (the admission uses it meanwhile). */
export const HISTORY_REFRESH_MS = 5_000;
/** A copy this old is not used: the admission waits for a new read (and is refused if it fails). */
export const HISTORY_MAX_AGE_MS = 30_000;

export class UpstreamHistory {
  private copy?: { day: LastDay; readAt: number };
  private reading?: Promise<{ day: LastDay; readAt: number }>;

  constructor(
    private readonly client: ServiceClient,
    private readonly now: () => number,
  ) {}

  /** The upstream's last day, at most MAX_AGE_MS old, its clock moved on by the time since it was read. */
  async lastDay(): Promise<LastDay> {
    let copy = this.copy;
    const age = copy ? this.now() - copy.readAt : Infinity;
    if (!copy || age > HISTORY_MAX_AGE_MS || age < 0) copy = await this.read();
    else if (age > HISTORY_REFRESH_MS) this.read().catch(() => {});
    const since = Math.max(0, this.now() - copy.readAt);
    return { ...copy.day, now: copy.day.now + since };
  }

  /** One read at a time; its age counts from when it began (what the upstream took after that may be missing). */
  private read(): Promise<{ day: LastDay; readAt: number }> {
    this.reading ??= (async () => {
      const readAt = this.now();
      const day = await lastDay(this.client, readAt, false);
      // A read begun earlier that ends later never replaces a newer copy.
      if (!this.copy || this.copy.readAt <= readAt) this.copy = { day, readAt };
      return this.copy;
    })().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }
}
