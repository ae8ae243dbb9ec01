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

/** How many failed token requests a client id, and a remote address, may make a minute (as many at once). */
export const TOKEN_FAILURES_PER_MINUTE = { client: 10, address: 30 };

/**
 * The token endpoint's limit on guessing: a bucket per client id and per remote address, each failed attempt (a
 * wrong secret, an unknown client, a disabled operator) taking a token from both; while either is empty the endpoint
 * answers 429 before it hashes anything. In this instance's memory: each instance of a team counts its own.
 */
export class TokenGuessLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly perMinute: { client: number; address: number },
    private readonly now: () => number,
  ) {}

  /** How many milliseconds until these keys could try again: 0 when they may now (nothing is taken). */
  wait(clientId: string, address: string): number {
    return Math.max(
      this.waitOf(`c:${clientId}`, this.perMinute.client),
      this.waitOf(`a:${address}`, this.perMinute.address),
    );
  }

  /** A failed attempt: a token from each bucket. */
  failed(clientId: string, address: string): void {
    this.take(`c:${clientId}`, this.perMinute.client);
    this.take(`a:${address}`, this.perMinute.address);
  }

  private refilled(key: string, perMinute: number): { tokens: number; at: number } {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: perMinute, at: t };
    b.tokens = Math.min(perMinute, b.tokens + ((t - b.at) / 60_000) * perMinute);
    b.at = t;
    return b;
  }

  private waitOf(key: string, perMinute: number): number {
    if (!this.buckets.has(key)) return 0;
    const b = this.refilled(key, perMinute);
    return b.tokens >= 1 ? 0 : Math.ceil(((1 - b.tokens) / perMinute) * 60_000);
  }

  private take(key: string, perMinute: number): void {
    // Guessed client ids must not grow the map without end: full buckets are forgotten now and then.
    if (this.buckets.size > 10_000)
      for (const k of [...this.buckets.keys()]) {
        const full = k.startsWith('c:') ? this.perMinute.client : this.perMinute.address;
        if (this.refilled(k, full).tokens >= full) this.buckets.delete(k);
      }
    const b = this.refilled(key, perMinute);
    b.tokens = Math.max(0, b.tokens - 1);
    this.buckets.set(key, b);
  }
}
