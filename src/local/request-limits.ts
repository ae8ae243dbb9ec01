// Rate limits of spec/UPSTREAM.md (on unless switched off; the hosted service always limits): per endpoint and client
// address, averaged over a window (rate x window requests per window); going over answers 429 and throttles the
// address for a while.
import type { LocalConfig } from './config.js';

export type LimitBucket = 'token' | 'withdrawals' | 'other';

export class RequestLimits {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly throttled = new Map<string, number>();

  constructor(private readonly config: LocalConfig) {}

  /** Seconds to wait before retrying, or 0 when the request may go ahead (it is then counted). */
  check(address: string, endpoint: string, bucket: LimitBucket, nowMs = Date.now()): number {
    const c = this.config.rateLimits;
    if (!c.enabled) return 0;
    const until = this.throttled.get(address);
    if (until !== undefined) {
      if (until > nowMs) return Math.max(1, Math.ceil((until - nowMs) / 1000));
      this.throttled.delete(address);
    }
    const perSecond =
      bucket === 'token' ? c.tokenPerSecond : bucket === 'withdrawals' ? c.withdrawalsPerSecond : c.otherPerSecond;
    const allowed = Math.max(1, Math.floor(perSecond * c.windowSeconds));
    const key = `${address} ${endpoint}`;
    let w = this.windows.get(key);
    if (!w || nowMs - w.start >= c.windowSeconds * 1000) {
      w = { start: nowMs, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    if (w.count > allowed) {
      const throttleUntil = nowMs + c.throttleSeconds * 1000;
      this.throttled.set(address, throttleUntil);
      this.windows.delete(key);
      return Math.max(1, Math.ceil(c.throttleSeconds));
    }
    return 0;
  }

  clear(): void {
    this.windows.clear();
    this.throttled.clear();
  }
}
