// HTTP transport on node:http(s): one keep-alive agent, retries with capped exponential backoff and jitter (reads
// always, POSTs only when their body carries a ref_id), Retry-After honoured, and a --debug log with secrets redacted.
//
// Why not got (the project's first choice, used until the speed work of issue 6): loading it slowed every command's
// start, and what each request allocated slowed a large batch and grew its memory (the figures before and after are
// in docs/performance.md). Everything coinop used from got
// (a body as text, no redirects, no retries of its own, a whole-request timeout, an agent) is a few lines here.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { urlToHttpOptions } from 'node:url';
import { CoinopError } from '../errors.js';
import { redactBody, redactHeaders } from './redact.js';

// node:https brings TLS and crypto (about 15 ms to load): only an https address pays for it.
const require = createRequire(import.meta.url);
type Https = typeof import('node:https');

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Raw body (already serialised). */
  body?: string;
  /** Safe to send again: a read, or a write that carries a ref_id. */
  retry: boolean;
  /** A Retry-After longer than this is not waited for: the answer is returned as it came (default: the transport's). */
  maxRetryAfterMs?: number;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON when the body is JSON, else undefined. */
  json: unknown;
  ms: number;
  attempts: number;
  /**
   * An earlier attempt of this same request may have reached the service: it was sent in full and then its answer
   * was lost (connection reset, timeout) or was a 5xx. A 409 already-exists on a later attempt is then most likely
   * this request's own earlier attempt.
   */
  earlierAttemptMayHaveReached: boolean;
}

/** The header in which the local service names its instance (its instance_id) on every answer. */
export const INSTANCE_HEADER = 'coinop-instance';

/**
 * Which local service instance the answers at one address must come from (service-identity.ts makes it). Every
 * answer from that origin is checked before anyone reads it: one that names another instance, or none, is told to
 * changed() first, which re-keys the connection (serviceId) and the cache, so a token refused by the other instance
 * is dropped and the new one saved under the new identity, never the old one.
 */
export interface InstanceCheck {
  /** scheme://host:port of the service. */
  origin: string;
  /** The instance the answers should name (undefined once one named none). */
  expected: string | undefined;
  /** The connection's identity: local:<instance> (updated by changed()). */
  serviceId: string;
  /** An answer has confirmed it (or the service was asked first); until then requests wait at most waitMs. */
  verified: boolean;
  waitMs: number;
  /**
   * Told of an answer to `url` that named `actual` (or no instance) instead of the expected one; throws when the
   * answer shows the address is not the service at all (nothing more is sent to it).
   */
  changed(
    actual: string | undefined,
    url: string,
    answer?: { method: string; status: number; headers: Record<string, string | string[] | undefined> },
  ): void;
  /** The error when the service does not answer within waitMs before it was ever verified. */
  silent(connected: boolean): Error;
}

/** The service could not be reached, or gave no answer; `sent`: some attempt was sent in full (it may have acted). */
export class NetworkError extends CoinopError {
  constructor(
    message: string,
    readonly sent: boolean,
    hint: string,
  ) {
    super('network', message, { hint });
  }
}

/**
 * Told of a request that keeps someone waiting: slow to answer, or waiting to be sent again. The CLI shows it as a
 * spinner on a terminal (src/cli/spinner.ts); a script is shown nothing.
 */
export interface Activity {
  /** A request started waiting; `text` says for what. The handle says what it waits for next, and when it is over. */
  begin(text: string): { update(text: string): void; end(): void };
}

export interface TransportOptions {
  debug?: (line: string) => void;
  /** Where a slow or retried request is shown (unset: nowhere). */
  activity?: Activity;
  /** A request unanswered this long is shown to the activity (default 1 s). */
  slowMs?: number;
  /**
   * Told before each wait after a 429 (the service is rate limiting), with how long it waits: the CLI shows it as
   * progress on a terminal ("rate limited, retrying in 2 s").
   */
  onRateLimited?: (waitMs: number) => void;
  /** The longest Retry-After waited for; a 429 asking for longer is returned as it came (default 60 s). */
  maxRetryAfterMs?: number;
  /** Attempts in all, including the first. */
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  userAgent?: string;
  /** The local service instance the answers at its address must come from. */
  instance?: InstanceCheck;
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
]);

/** The TLS handshake failed on the server's certificate: no attempt helps, and nothing was sent. */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function untrustedCertificate(req: HttpRequest, cause: Error): NetworkError {
  return new NetworkError(
    `cannot reach ${shownUrl(req.url)}: its TLS certificate is not trusted (${cause.message})`,
    false,
    'nothing was sent; a server with a certificate of its own (a coinop gateway started with --tls-cert) is trusted ' +
      'by naming that certificate file in NODE_EXTRA_CA_CERTS',
  );
}

/** The activity of a request when nothing shows it (a script, a batch's thousands of requests): one object for all. */
const UNSHOWN = { attempt: () => undefined, retry: () => undefined, end: () => undefined };

export class Transport {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  private https?: { request: Https['request']; agent: InstanceType<Https['Agent']> };
  private lastTarget?: { text: string; options: ReturnType<typeof urlToHttpOptions> };
  readonly opts: Required<Omit<TransportOptions, 'debug' | 'onRateLimited' | 'activity' | 'instance'>> &
    Pick<TransportOptions, 'debug' | 'onRateLimited' | 'activity' | 'instance'>;

  constructor(opts: TransportOptions = {}) {
    this.opts = {
      attempts: opts.attempts ?? 4,
      baseDelayMs: opts.baseDelayMs ?? 250,
      maxDelayMs: opts.maxDelayMs ?? 8000,
      timeoutMs: opts.timeoutMs ?? 30_000,
      userAgent: opts.userAgent ?? 'coinop',
      maxRetryAfterMs: opts.maxRetryAfterMs ?? 60_000,
      slowMs: opts.slowMs ?? 1000,
      activity: opts.activity,
      debug: opts.debug,
      onRateLimited: opts.onRateLimited,
      instance: opts.instance,
    };
  }

  close(): void {
    this.http.destroy();
    this.https?.agent.destroy();
  }

  /**
   * Sends a request, retrying as its `retry` allows. A 429 is retried whatever `retry` says, as its Retry-After asks
   * (up to the transport's attempts, and only when the wait is within maxRetryAfterMs): the service refused it before
   * doing anything, so even a write without ref_id is safe to send again.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const shown = this.waiting(req);
    // Nothing shows it (a script, a batch's thousands of requests): nothing to end either.
    if (shown === UNSHOWN) return this.attempts(req, shown);
    try {
      return await this.attempts(req, shown);
    } finally {
      shown.end();
    }
  }

  /**
   * The activity of one request: it begins once the request has waited slowMs for an answer, or when it waits to be
   * sent again, whichever comes first; `attempt` says which attempt is out.
   */
  private waiting(req: HttpRequest): { attempt(n: number, max: number): void; retry(why: string): void; end(): void } {
    const { activity, slowMs } = this.opts;
    if (!activity) return UNSHOWN;
    const host = shownUrl(req.url)
      .replace(/^\w+:\/\//, '')
      .split('/')[0];
    let handle: ReturnType<Activity['begin']> | undefined;
    let timer: NodeJS.Timeout | undefined;
    const say = (text: string) => (handle ? handle.update(text) : (handle = activity.begin(text)));
    return {
      attempt(attemptNumber, max) {
        clearTimeout(timer);
        const text = `waiting for ${host}${max > 1 && attemptNumber > 1 ? ` (attempt ${attemptNumber} of ${max})` : ''}`;
        if (handle) say(text);
        else timer = setTimeout(() => say(text), slowMs).unref();
      },
      retry(why) {
        clearTimeout(timer);
        say(`${host} ${why}; trying again`);
      },
      end() {
        clearTimeout(timer);
        handle?.end();
      },
    };
  }

  private async attempts(req: HttpRequest, shown: ReturnType<Transport['waiting']>): Promise<HttpResponse> {
    const started = Date.now();
    const max = req.retry ? this.opts.attempts : 1;
    // Whether an earlier attempt may have reached the service (sent in full, then no answer or a 5xx).
    let mayHaveReached = false;
    for (let attempt = 1; ; attempt++) {
      const t0 = Date.now();
      this.logRequest(req, attempt);
      shown.attempt(attempt, max);
      const sent = { value: false };
      // Until an answer has confirmed a cached identity, the service has the local wait to answer (a stopped one is
      // reported as such, not retried for the whole timeout).
      const check = this.opts.instance;
      const checked = check !== undefined && req.url.startsWith(`${check.origin}/`);
      const unverified = checked && !check.verified ? check : undefined;
      const timeoutMs = unverified ? Math.min(unverified.waitMs, this.opts.timeoutMs) : this.opts.timeoutMs;
      try {
        let res: Awaited<ReturnType<Transport['once']>>;
        try {
          res = await this.once(req, sent, timeoutMs);
        } catch (e) {
          if (unverified && (e as { code?: string }).code === 'ETIMEDOUT' && timeoutMs < this.opts.timeoutMs)
            throw unverified.silent(sent.value);
          throw e;
        }
        if (checked) {
          const named = res.headers[INSTANCE_HEADER];
          const actual = Array.isArray(named) ? named[0] : named;
          if (actual !== check.expected) {
            this.opts.debug?.(
              `! the service at ${check.origin} is instance ${actual ?? '(unnamed)'}, not ${check.expected}`,
            );
            check.changed(actual, req.url, { method: req.method, status: res.status, headers: res.headers });
          }
          check.verified = true;
        }
        const out: HttpResponse = {
          ...res,
          json: parseJson(res.text),
          ms: Date.now() - started,
          attempts: attempt,
          earlierAttemptMayHaveReached: mayHaveReached,
        };
        this.logResponse(out, Date.now() - t0);
        const throttled = res.status === 429;
        if (attempt < (throttled ? this.opts.attempts : max) && RETRY_STATUS.has(res.status)) {
          const after = retryAfterMs(res.headers['retry-after']);
          if (after !== undefined && after > (req.maxRetryAfterMs ?? this.opts.maxRetryAfterMs)) return out;
          if (res.status >= 500) mayHaveReached = true;
          shown.retry(`answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
          await this.pause(attempt, after, `HTTP ${res.status}`, throttled);
          continue;
        }
        return out;
      } catch (e) {
        const code = (e as { code?: string }).code ?? '';
        const timedOut = (e as { name?: string }).name === 'TimeoutError' || code === 'ETIMEDOUT';
        this.opts.debug?.(
          `! ${req.method} ${req.url} failed after ${Date.now() - t0} ms: ${code || (e as Error).message}${sent.value ? ' (the request was sent)' : ''}`,
        );
        if (UNTRUSTED_CERTIFICATE.has(code)) throw untrustedCertificate(req, e as Error);
        if (!(timedOut || NETWORK_CODES.has(code))) throw e;
        if (sent.value) mayHaveReached = true;
        if (attempt < max) {
          shown.retry(timedOut ? 'did not answer in time' : `failed (${code})`);
          await this.pause(attempt, undefined, code);
          continue;
        }
        throw this.networkError(req, max, timedOut, code, mayHaveReached);
      }
    }
  }

  /** The error after the last attempt: "cannot reach" only when no attempt was ever sent in full. */
  private networkError(req: HttpRequest, max: number, timedOut: boolean, code: string, sent: boolean): NetworkError {
    const url = shownUrl(req.url);
    const tries = max > 1 ? ` (${max} attempts)` : '';
    const message = timedOut
      ? `${url} did not answer within ${Math.round(this.opts.timeoutMs / 1000)} s${tries}`
      : sent
        ? `the request was sent to ${url} but no answer came: ${code}${tries}`
        : `cannot reach ${url}: ${code}${tries}`;
    const hint = req.retry
      ? 'check the address and your connection'
      : sent
        ? 'a request without ref_id is never resent, and this one may have been carried out: check before trying again'
        : 'nothing was sent; check the address and your connection';
    return new NetworkError(message, sent, hint);
  }

  /** One request and its whole answer as text; a timeout covers the request from start to the last byte. */
  private once(
    req: HttpRequest,
    sent: { value: boolean },
    timeoutMs = this.opts.timeoutMs,
  ): Promise<Pick<HttpResponse, 'status' | 'statusText' | 'headers' | 'text'>> {
    return new Promise((resolve, reject) => {
      const https = req.url.startsWith('https:');
      const headers: Record<string, string> = {
        'user-agent': this.opts.userAgent,
        accept: 'application/json, application/problem+json',
        ...req.headers,
      };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      let done = false;
      const fail = (error: Error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        r.destroy();
        reject(error);
      };
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('aborted', () =>
          fail(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' })),
        );
        res.on('end', () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: res.headers,
            // An answer in one chunk (a batch's every answer) is read as it came, not copied first.
            text: (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'),
          });
        });
      };
      let r: ReturnType<typeof httpRequest>;
      if (https) {
        if (!this.https) {
          const { Agent, request } = require('node:https') as Https;
          this.https = { request, agent: new Agent({ keepAlive: true, maxSockets: 16 }) };
        }
        r = this.https.request(
          { ...this.target(req.url), method: req.method, headers, agent: this.https.agent },
          onResponse,
        );
      } else r = httpRequest({ ...this.target(req.url), method: req.method, headers, agent: this.http }, onResponse);
      const timer = setTimeout(() => fail(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), timeoutMs);
      r.on('error', fail);
      // 'finish': the whole request was handed to the connection (never after a refused or failed connect).
      r.on('finish', () => (sent.value = true));
      r.end(req.body);
    });
  }

  /**
   * The request's URL as node:http's options (host, port, path, auth), worked out once for the last URL (a batch sends
   * thousands of requests to one URL; node:http parses a string, or converts a URL, on every request). An invalid one
   * throws as node:http would.
   */
  private target(text: string): ReturnType<typeof urlToHttpOptions> {
    if (this.lastTarget?.text !== text) this.lastTarget = { text, options: urlToHttpOptions(new URL(text)) };
    return this.lastTarget.options;
  }

  private async pause(attempt: number, retryAfter: number | undefined, why: string, throttled = false): Promise<void> {
    const cap = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** (attempt - 1));
    // Full jitter spreads retries of many clients; Retry-After, when sent, is a floor (send() waits no longer than
    // maxRetryAfterMs).
    const jitter = Math.random() * cap;
    const ms = retryAfter !== undefined ? Math.max(retryAfter, jitter) : jitter;
    this.opts.debug?.(`  retrying after ${Math.round(ms)} ms (${why})`);
    if (throttled) this.opts.onRateLimited?.(ms);
    await new Promise((r) => setTimeout(r, ms));
  }

  private logRequest(req: HttpRequest, attempt: number): void {
    if (!this.opts.debug) return;
    const h = redactHeaders(req.headers ?? {});
    this.opts.debug(`> ${req.method} ${req.url}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    this.opts.debug(`> headers ${JSON.stringify(h)}`);
    if (req.body) this.opts.debug(`> body ${redactBody(req.body, req.headers?.['content-type'])}`);
  }

  private logResponse(res: HttpResponse, ms: number): void {
    if (!this.opts.debug) return;
    this.opts.debug(`< ${res.status} ${res.statusText} (${ms} ms)`);
    if (res.text)
      this.opts.debug(`< body ${redactBody(res.text.length > 4000 ? `${res.text.slice(0, 4000)}…` : res.text)}`);
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const s = Array.isArray(header) ? header[0] : header;
  if (!s) return undefined;
  if (/^\d+(\.\d+)?$/.test(s.trim())) return Number(s) * 1000;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

/** The URL a request went to, as an error names it: without its query (filters are no part of the address). */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

/** "404 Not Found with an HTML page": the status and what came with it, never the body itself. */
export function answerText(res: HttpResponse): string {
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  const what =
    /html/i.test(type) || /^\s*</.test(res.text)
      ? ' with an HTML page'
      : res.json !== undefined
        ? ''
        : res.text
          ? ` with ${type || 'text'}`
          : ' with no body';
  return `${res.status}${res.statusText ? ` ${res.statusText}` : ''}${what}`;
}
