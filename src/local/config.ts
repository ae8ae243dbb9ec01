// Settings of the local service: lifetimes, delays, rate limits, faults and the stream, with their defaults.
// The object is live: the control API and the stream read and change it while the service runs.

export interface FaultConfig {
  /** Added to every /v2 and /oauth2 request before it is handled. */
  latencyMs: number;
  /** Up to this much more latency, drawn from the seeded generator. */
  latencyJitterMs: number;
  /** Probabilities (0..1) of answering with that status instead of handling the request. */
  rate429: number;
  rate500: number;
  rate503: number;
  /** Probability of destroying the connection before the request is handled (nothing happened). */
  resetBeforeRate: number;
  /** Probability of destroying the connection after the handler committed (the work happened, no answer came). */
  resetAfterRate: number;
  /** Seed of the fault generator; null uses the service's seed. Setting faults restarts the generator. */
  seed: number | null;
  /** Only requests whose path starts with this are subject to faults ('' = every /v2 and /oauth2 request). */
  pathPrefix: string;
  /** Only requests with this method ('' = any). */
  method: string;
  /** Inject at most this many faults (latency does not count), then stop; null = no limit. */
  budget: number | null;
  /** Fiat withdrawals made while this is on end FAILED (and are refunded) instead of COMPLETED. */
  failFiatWithdrawals: boolean;
  /** Stablecoin conversions made while this is on end FAILED (the source given back) instead of SETTLED. */
  failConversions: boolean;
}

export interface RateLimitConfig {
  /** On by default, as the hosted service always limits; off for load tests and benchmarks. */
  enabled: boolean;
  /** Averaging window (spec/UPSTREAM.md: 5 minutes); a client address may make rate x window requests in it. */
  windowSeconds: number;
  /** How long an address that went over stays throttled (spec/UPSTREAM.md: 5 minutes). */
  throttleSeconds: number;
  /** Requests per second: the token endpoint, crypto withdrawals, and every other endpoint. */
  tokenPerSecond: number;
  withdrawalsPerSecond: number;
  otherPerSecond: number;
}

export interface StreamFaultConfig {
  /** Close every stream connection this often (0 = never). */
  dropConnectionsEveryMs: number;
  /** Stop sending heartbeats (the connection stays open). */
  stallHeartbeats: boolean;
  /** Send some UPDATEs before the SNAPSHOT after a market_data subscription (spec/UPSTREAM.md allows it). */
  updatesBeforeSnapshot: boolean;
  /** Send execution_data out of order (spec/UPSTREAM.md allows it): each market's trades in swapped pairs. */
  executionsOutOfOrder: boolean;
}

export interface StreamConfig {
  /** Market data messages per second per market. */
  messagesPerSecond: number;
  /** Freeze the simulated markets (no order flow; heartbeats go on), so a test can compare books exactly. */
  paused: boolean;
  heartbeatIntervalMs: number;
  /** Messages queued for one subscriber before it counts as a slow consumer and is disconnected. */
  subscriberBufferCap: number;
  /** Subscription requests per second per client address (spec/UPSTREAM.md: 1); 0 = unlimited. */
  subscriptionRequestsPerSecond: number;
  faults: StreamFaultConfig;
}

export interface LocalConfig {
  tokenLifetimeSeconds: number;
  feeQuoteLifetimeSeconds: number;
  /** A withdrawal stays PENDING this long, then ends COMPLETED (or FAILED for failing destinations). */
  withdrawalSettleSeconds: number;
  /** A stablecoin conversion stays CREATED this long (cancellable), then ends SETTLED (or FAILED by fault). */
  conversionSettleSeconds: number;
  /** The most one stablecoin conversion may convert, in USD (the OpenAPI's 400 example: above the maximum is refused). */
  conversionMaximum: string;
  /** A fiat account stays PENDING this long after it is created or updated, then is APPROVED (0: at once). */
  fiatAccountReviewSeconds: number;
  /** A simulated crypto deposit (POST /_local/crypto-deposits) stays PENDING this long, then is COMPLETED and credited. */
  cryptoDepositSettleSeconds: number;
  /**
   * A transfer held for travel rule information (TRAVEL_RULE_INFO_REQUESTED) waits this long for it, then ends FAILED
   * with TRAVEL_RULE_REJECTED (src/local/travel-rule.ts).
   */
  travelRuleInfoSeconds: number;
  /** Largest request body accepted; bigger gets 413. */
  bodyLimitBytes: number;
  /**
   * Largest state PUT /_local/state takes (an export is about 1 KB per transfer); bigger gets 413. Capped at an
   * eighth of the JavaScript heap: the parsed state takes several times its size in memory.
   */
  stateBodyLimitBytes: number;
  /** How many recent requests /_local/journal keeps. */
  journalSize: number;
  /** How long a write waits for another process's lock on the database before answering 503. */
  dbBusyTimeoutMs: number;
  rateLimits: RateLimitConfig;
  faults: FaultConfig;
  stream: StreamConfig;
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K];
};

export function defaultFaults(): FaultConfig {
  return {
    latencyMs: 0,
    latencyJitterMs: 0,
    rate429: 0,
    rate500: 0,
    rate503: 0,
    resetBeforeRate: 0,
    resetAfterRate: 0,
    seed: null,
    pathPrefix: '',
    method: '',
    budget: null,
    failFiatWithdrawals: false,
    failConversions: false,
  };
}

export function defaultRateLimits(): RateLimitConfig {
  return {
    enabled: true,
    windowSeconds: 300,
    throttleSeconds: 300,
    tokenPerSecond: 1,
    withdrawalsPerSecond: 20,
    otherPerSecond: 50,
  };
}

export function defaultStreamFaults(): StreamFaultConfig {
  return {
    dropConnectionsEveryMs: 0,
    stallHeartbeats: false,
    updatesBeforeSnapshot: false,
    executionsOutOfOrder: false,
  };
}

export function defaultConfig(): LocalConfig {
  return {
    tokenLifetimeSeconds: 3600,
    feeQuoteLifetimeSeconds: 60,
    withdrawalSettleSeconds: 30,
    fiatAccountReviewSeconds: 0,
    conversionSettleSeconds: 30,
    conversionMaximum: '1000000',
    cryptoDepositSettleSeconds: 30,
    travelRuleInfoSeconds: 86_400,
    bodyLimitBytes: 1024 * 1024,
    stateBodyLimitBytes: 128 * 1024 * 1024,
    journalSize: 500,
    dbBusyTimeoutMs: 10_000,
    rateLimits: defaultRateLimits(),
    faults: defaultFaults(),
    stream: {
      messagesPerSecond: 10,
      paused: false,
      heartbeatIntervalMs: 1000,
      subscriberBufferCap: 1000,
      subscriptionRequestsPerSecond: 1,
      faults: defaultStreamFaults(),
    },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Merges `patch` over `base` key by key, accepting only known keys whose value has the base value's type
 * (numbers may replace null and the reverse). Returns the problems found as "path: rule" strings.
 */
export function mergeConfig<T extends object>(
  base: T,
  patch: unknown,
  path = '',
): { value: T; issues: { field: string; rule: string }[] } {
  const issues: { field: string; rule: string }[] = [];
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  if (patch === undefined) return { value: out as T, issues };
  if (!isPlainObject(patch)) return { value: out as T, issues: [{ field: path || '', rule: 'must be a JSON object' }] };
  for (const [k, v] of Object.entries(patch)) {
    const field = path ? `${path}.${k}` : k;
    if (!(k in out)) {
      issues.push({ field, rule: 'is not a known setting' });
      continue;
    }
    const cur = out[k];
    if (isPlainObject(cur)) {
      const r = mergeConfig(cur, v, field);
      issues.push(...r.issues);
      out[k] = r.value;
    } else if (typeof cur === 'number' || (cur === null && (k === 'seed' || k === 'budget'))) {
      if (v === null && (k === 'seed' || k === 'budget')) out[k] = null;
      else if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        issues.push({ field, rule: 'must be a number >= 0' });
      else if (/^rate\d|Rate$/.test(k) && v > 1) issues.push({ field, rule: 'must be a probability between 0 and 1' });
      else out[k] = v;
    } else if (typeof cur === 'boolean') {
      if (typeof v !== 'boolean') issues.push({ field, rule: 'must be true or false' });
      else out[k] = v;
    } else if (typeof cur === 'string') {
      if (typeof v !== 'string') issues.push({ field, rule: 'must be a string' });
      else out[k] = v;
    }
  }
  return { value: out as T, issues };
}

/** The defaults with the given overrides; throws on an unknown or mistyped setting. */
export function makeConfig(overrides?: DeepPartial<LocalConfig>): LocalConfig {
  const r = mergeConfig(defaultConfig(), overrides ?? {});
  if (r.issues.length)
    throw new Error(`local service config: ${r.issues.map((i) => `${i.field}: ${i.rule}`).join('; ')}`);
  return r.value;
}
