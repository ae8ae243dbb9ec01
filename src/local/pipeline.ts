// The local service's request pipeline, in named stages: gate (admission.ts: Host and browser guard, loopback rule, rate
// limits, faults), route (the router's match, then the body and the handler), journal (the request log served at
// /_local/journal) and answer (the reply, or any error as a problem+json).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProblemError, problems, type Problem } from '../contract/index.js';
import { gate, isControlPath, type GateDeps, type RequestState } from './admission.js';
import type { RequestLog } from './request-log.js';
import { isoMillis } from './service-clock.js';
import {
  hasBody,
  parseQuery,
  readBody,
  Reply,
  send,
  sendProblem,
  type Match,
  type Request,
  type RouteOptions,
  type Router,
} from './router.js';

export interface PipelineDeps extends GateDeps {
  router: Router;
  requestLog: RequestLog;
  /** The client a bearer token in this Authorization header names, if it has the scope; else the 401 or 403. */
  authorize(header: string | undefined, scope: string): string;
  /** The service's body limit, for routes without their own. */
  bodyLimitBytes(): number;
  /** The service's clock: every answer's Date header tells it (a client's policy reads the time there). */
  now(): number;
  /**
   * The database's instance id, named in every answer's coinop-instance header (read as the answer goes, so a reset
   * or import names the new one): a client that keeps the identity of the service at an address checks it there.
   */
  instanceId?(): string;
}

/** A monotonic clock in ms (process.hrtime: the global performance would load perf_hooks at every start). */
function monotonicMs(): number {
  const [seconds, nanos] = process.hrtime();
  return seconds * 1e3 + nanos / 1e6;
}

/** One request through every stage. Every error is answered here; should answering fail too, the caller drops it. */
export function requestPipeline(deps: PipelineDeps): (raw: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (raw, res) => {
    const state: RequestState = { started: monotonicMs() };
    const { req, authority } = toRequest(raw);
    const reply = new Reply();
    reply.header('date', new Date(deps.now()).toUTCString());
    res.on('finish', () => journal(deps.requestLog, req, state, res.statusCode));
    let match: Match | undefined;
    try {
      match = route(deps.router, req);
      if ((await gate(deps, req, reply, state, authority)) === 'drop') return drop(deps.requestLog, req, state, 0);
      if (!match) throw noRoute(deps.router, req, reply);
      const payload = await handle(match, req, reply, state, deps);
      // A reset after the handler committed: the work is done, the answer never arrives.
      if (state.fault === 'reset-after' && reply.statusCode < 400) {
        state.reason = 'connection reset after the handler committed (injected fault)';
        return drop(deps.requestLog, req, state, reply.statusCode);
      }
      nameInstance(deps, reply);
      send(res, req.method, reply, payload);
    } catch (err) {
      nameInstance(deps, reply);
      answerError(err, req, reply, state, res, match?.route);
    }
  };
}

/** The coinop-instance header; a database that cannot be read just now leaves it out. */
function nameInstance(deps: PipelineDeps, reply: Reply): void {
  if (!deps.instanceId) return;
  try {
    reply.header('coinop-instance', deps.instanceId());
  } catch {
    /* the answer says what went wrong */
  }
}

/**
 * The request target as the path and query, and the authority it names: an absolute-form target
 * (`GET http://host/path`, RFC 9112 3.2.2) names its own, which replaces the Host header; otherwise the Host header.
 */
function target(raw: IncomingMessage): { url: string; authority: string | undefined } {
  const url = raw.url ?? '/';
  const m = url.startsWith('/') ? null : /^https?:\/\/([^/?#]*)/i.exec(url);
  if (!m) return { url, authority: raw.headers.host };
  const rest = url.slice(m[0].length);
  return { url: rest.startsWith('/') ? rest : `/${rest}`, authority: m[1] };
}

function toRequest(raw: IncomingMessage): { req: Request; authority: string | undefined } {
  const { url, authority } = target(raw);
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const req: Request = {
    raw,
    method: raw.method ?? 'GET',
    url,
    path,
    headers: raw.headers,
    socket: raw.socket,
    routeUrl: path,
    params: Object.create(null),
    query: parseQuery(q < 0 ? '' : url.slice(q + 1)),
    body: undefined,
  };
  return { req, authority };
}

// ---- route -------------------------------------------------------------------------------------------------------

/** The route for the request, its pattern and parameters set on it; undefined when none matches (the gate goes first). */
function route(router: Router, req: Request): Match | undefined {
  const match = router.find(req.method, req.path);
  if (match) {
    req.routeUrl = match.route.pattern;
    req.params = match.params;
  }
  return match;
}

/** A known path asked with a method it does not have is a 405 that says which it has; any other path a 404. */
function noRoute(router: Router, req: Request, reply: Reply): ProblemError {
  const allowed = router.allowed(req.path);
  if (!allowed.length) return problems.notFound(`no route ${req.method} ${req.path}`);
  reply.header('allow', allowed.join(', '));
  return problems.methodNotAllowed(`${req.method} is not allowed on ${req.path} (allowed: ${allowed.join(', ')})`);
}

function bodyLimit(route: RouteOptions, serviceLimit: number): { bytes: number; detail: string } {
  const bytes = typeof route.bodyLimit === 'function' ? route.bodyLimit() : (route.bodyLimit ?? serviceLimit);
  return { bytes, detail: route.bodyTooLarge?.(bytes) ?? `the body is larger than ${bytes} bytes` };
}

/** Checks the token of a route with a scope, reads the body of a write, then runs the route's handler. */
async function handle(
  match: Match,
  req: Request,
  reply: Reply,
  state: RequestState,
  deps: PipelineDeps,
): Promise<unknown> {
  // The token first, as the hosted service: no body is read (or judged) for a client it does not know.
  if (match.route.scope !== undefined) req.principal = deps.authorize(req.headers.authorization, match.route.scope);
  if (req.method === 'POST' || req.method === 'PUT') {
    req.body = await readBody(req.raw, bodyLimit(match.route, deps.bodyLimitBytes()), {
      form: req.path.startsWith('/oauth2/'),
      // A bodiless control write (POST /_local/reset) comes with the JSON content type the gate requires.
      emptyIsNone: isControlPath(req.path),
    });
    state.bodyRead = true;
  }
  return match.route.handler(req, reply);
}

// ---- journal -----------------------------------------------------------------------------------------------------

/** Records the request in the request log, once; the log's own reads are left out. */
function journal(log: RequestLog, req: Request, state: RequestState, status: number): void {
  if (state.journaled || req.url.startsWith('/_local/journal')) return;
  state.journaled = true;
  log.add({
    time: isoMillis(Date.now()),
    method: req.method,
    url: req.url,
    status,
    duration_ms: Math.round((monotonicMs() - state.started) * 100) / 100,
    ...(req.principal ? { client_id: req.principal } : {}),
    ...(state.reason || req.rejection ? { reason: state.reason || req.rejection } : {}),
    ...(state.fault ? { fault: state.fault } : {}),
  });
}

/** Drops the connection on purpose (an injected reset), after recording why. */
function drop(log: RequestLog, req: Request, state: RequestState, status: number): void {
  journal(log, req, state, status);
  req.socket.destroy();
}

// ---- answer ------------------------------------------------------------------------------------------------------

/** Any error as the problem to answer: bad input is a 4xx; only a fault of the service itself is a 500. */
function problemOf(err: unknown, req: Request, reply: Reply): Problem {
  if (err instanceof ProblemError) return err.problem;
  const e = err as { code?: unknown; stack?: string };
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_BUSY')) {
    // Another process held the database's write lock for longer than busy_timeout: nothing was written.
    reply.header('retry-after', '1');
    return problems.serviceUnavailable('the local database is busy (another process holds it); retry').problem;
  }
  process.stderr.write(`coinop local: internal error on ${req.method} ${req.url}: ${e?.stack ?? String(err)}\n`);
  return problems.internal('unexpected error in the local service (logged on its stderr)').problem;
}

function answerError(
  err: unknown,
  req: Request,
  reply: Reply,
  state: RequestState,
  res: ServerResponse,
  route?: { problemContentType?: string; problemContentStatuses?: readonly number[] },
): void {
  if (res.headersSent || req.socket.destroyed) return;
  const p = problemOf(err, req, reply);
  const statuses = route?.problemContentStatuses;
  const contentType = !statuses || statuses.includes(p.status) ? route?.problemContentType : undefined;
  state.reason = state.fault ? `${state.fault}: ${p.detail ?? p.title}` : (p.detail ?? p.title);
  // Answered before its body was read (too large, wrong type, refused first): the connection closes, so the rest
  // of the body, however long, is never read.
  if (hasBody(req.raw) && !state.bodyRead) reply.header('connection', 'close');
  sendProblem(res, req.method, reply, p, contentType);
}
