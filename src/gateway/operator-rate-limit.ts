// Each operator's rate limit at the gateway: a token bucket per operator (rate per second, a burst of twice as many),
// so one operator's script cannot use up the upstream's limits for the whole team.
export class OperatorRateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {}

  /** Takes a request's token: 0 when it may go now, else how many milliseconds until it could. */
  take(operator: string): number {
    const burst = this.perSecond * 2;
    const t = this.now();
    const b = this.buckets.get(operator) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    this.buckets.set(operator, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / this.perSecond) * 1000);
  }
}
