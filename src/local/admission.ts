// The first stage of the request pipeline, what stands before every route: the Host names this service
// (browser-guard.ts); the control API answers loopback clients only and refuses cross-site requests; the API and the
// token endpoint have rate limits and the configured faults.
import { problems } from '../contract/index.js';
import type { BrowserGuard } from './browser-guard.js';
import type { FaultAction, Faults } from './faults.js';
import type { LimitBucket, RequestLimits } from './request-limits.js';
import type { Reply, Request } from './router.js';

/** What the pipeline learns about one request on its way. */
export interface RequestState {
  started: number;
  fault?: FaultAction;
  reason?: string;
  /** Already in the request log (a dropped connection never finishes its response). */
  journaled?: boolean;
  /** The body was read to its end; otherwise an error answer closes the connection. */
  bodyRead?: boolean;
}

export interface GateDeps {
  /** Known once the service listens (its port is part of its own origin), before any request can arrive. */
  guard(): BrowserGuard;
  requestLimits: RequestLimits;
  faults: Faults;
}

/** 'drop': the connection is to be dropped on purpose (an injected fault; `state.reason` says so). */
export type GateOutcome = 'pass' | 'drop';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The control API's paths, however their letters are encoded: the loopback rule must not be stepped around. */
export function isControlPath(path: string): boolean {
  if (path.startsWith('/_local')) return true;
  if (!path.includes('%')) return false;
  try {
    return decodeURIComponent(path).startsWith('/_local');
  } catch {
    return false;
  }
}

function bucketOf(method: string, url: string): LimitBucket {
  if (url.startsWith('/oauth2/')) return 'token';
  if (method === 'POST' && (url === '/v2/transfer/crypto-withdrawals' || url === '/v2/transfer/fiat-withdrawals'))
    return 'withdrawals';
  return 'other';
}

/** Lets the request through, or throws the problem that refuses it. */
export async function gate(
  deps: GateDeps,
  req: Request,
  reply: Reply,
  state: RequestState,
  authority: string | undefined,
): Promise<GateOutcome> {
  const { path } = req;
  const control = isControlPath(path);
  if (control && !LOOPBACK.has(req.socket.remoteAddress ?? ''))
    throw problems.forbidden('the control API answers loopback clients only');
  const guard = deps.guard();
  guard.checkHost(authority, req.raw.httpVersion, control || guard.checksEveryHost);
  if (control) {
    guard.checkControl(req.method, req.headers);
    return 'pass';
  }
  if (!path.startsWith('/v2/') && !path.startsWith('/oauth2/')) return 'pass';
  const retryAfter = deps.requestLimits.check(
    req.socket.remoteAddress ?? '',
    `${req.method} ${req.routeUrl}`,
    bucketOf(req.method, req.routeUrl),
  );
  if (retryAfter) {
    reply.header('retry-after', String(retryAfter));
    throw problems.tooManyRequests('Too many requests');
  }
  return injectFault(deps.faults, req, reply, state);
}

/** The configured faults: added latency, then a drop or an error answer (reset-after is the pipeline's, later). */
async function injectFault(faults: Faults, req: Request, reply: Reply, state: RequestState): Promise<GateOutcome> {
  const d = faults.decide(req.method, req.path);
  if (d.latencyMs) await new Promise((resolve) => setTimeout(resolve, d.latencyMs));
  if (d.action === 'none') return 'pass';
  state.fault = d.action;
  switch (d.action) {
    case 'reset-before':
      state.reason = 'connection reset before handling (injected fault)';
      return 'drop';
    case '429':
      reply.header('retry-after', '1');
      throw problems.tooManyRequests('Too many requests (injected fault)');
    case '500':
      throw problems.internal('injected fault');
    case '503':
      reply.header('retry-after', '1');
      throw problems.serviceUnavailable('injected fault');
    default:
      return 'pass';
  }
}
