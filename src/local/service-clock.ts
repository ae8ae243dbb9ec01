// The local service's clock: real time plus an offset kept in the database, moved by /_local/clock/advance,
// so every process sharing a database sees the same "now" and quotes and transfers move on together.
import type { Store } from './store.js';

export class ServiceClock {
  private cached = 0;
  private cachedSerial = -1;

  constructor(private readonly store: Store) {}

  offsetMs(): number {
    // Inside one transaction the database cannot change under us, so one read serves the whole transaction.
    const inTx = this.store.db.inTransaction;
    if (inTx && this.cachedSerial === this.store.txSerial) return this.cached;
    const v = Number(this.store.getMeta('clock_offset_ms') ?? 0);
    if (inTx) {
      this.cached = v;
      this.cachedSerial = this.store.txSerial;
    }
    return v;
  }

  /** Milliseconds since the epoch, as the service sees it. */
  now(): number {
    return Date.now() + this.offsetMs();
  }

  /** Moves the clock forward; returns the new now. */
  advance(seconds: number): number {
    this.store.immediate(() =>
      this.store.setMeta('clock_offset_ms', String(this.offsetMs() + Math.round(seconds * 1000))),
    );
    return this.now();
  }
}

/** The service's times as RFC 3339 with milliseconds (src/contract/iso-time.ts: without loading the time zone). */
export { isoMillis } from '../contract/iso-time.js';
