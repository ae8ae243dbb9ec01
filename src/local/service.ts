// The local service: a faithful, stateful implementation of the hosted HTTP API on node:http and SQLite,
// with the control API, faults, rate limits, the request journal and the stream hook.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, ProblemError, problems, type Problem } from '../api/index.js';
import { Auth } from './auth.js';
import { Clock, iso } from './clock.js';
import { makeConfig, type DeepPartial, type LocalConfig } from './config.js';
import { Faults, type FaultAction } from './faults.js';
import type { Service } from './http.js';
import { Journal } from './journal.js';
import { defaultDbFile } from './paths.js';
import { RateLimiter, type RateBucket } from './rate-limit.js';
import { hasBody, parseQuery, readBody, Reply, Router, send, sendProblem, type Request } from './router.js';
import { registerControl } from './routes/control.js';
import { registerDepositAddresses } from './routes/deposit-addresses.js';
import { registerPrices } from './routes/prices.js';
import { registerSandbox } from './routes/sandbox.js';
import { registerToken } from './routes/token.js';
import { registerTransfers } from './routes/transfers.js';
import { registerWithdrawals } from './routes/withdrawals.js';
import { ensureDemo } from './state.js';
import { Store } from './store.js';
import { installStream } from './stream/install.js';

export interface LocalServiceOptions {
  host?: string;
  /** 0 = an ephemeral port. */
  port?: number;
  /** Database file; the XDG default (defaultDbFile()) when neither this nor memory is given. */
  dbFile?: string;
  memory?: boolean;
  /** Seed of the price model and the fault generator (default 1). */
  seed?: number;
  config?: DeepPartial<LocalConfig>;
}

export interface LocalService {
  baseUrl: string;
  authUrl: string;
  wsUrl: string;
  host: string;
  port: number;
  /** Live: changes take effect on the next request. */
  config: LocalConfig;
  seed: number;
  /** The database file, or ':memory:'. */
  dbFile: string;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 1;

interface RequestState {
  started: number;
  fault?: FaultAction;
  reason?: string;
  /** Already in the journal (a dropped connection never finishes its response). */
  journaled?: boolean;
}

/** The control API's paths, however their letters are encoded: the loopback rule must not be stepped around. */
function isControlPath(path: string): boolean {
  if (path.startsWith('/_local')) return true;
  if (!path.includes('%')) return false;
  try {
    return decodeURIComponent(path).startsWith('/_local');
  } catch {
    return false;
  }
}

/** An absolute-form request target (`GET http://host/path`, RFC 9112 3.2.2) as the path and query alone. */
function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const m = /^https?:\/\/[^/?#]*/i.exec(url);
  if (!m) return url;
  const rest = url.slice(m[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Long path parameters reach validation (a 400 naming the field) instead of a bare 414. */
const MAX_PARAM_LENGTH = 2000;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function bucketOf(method: string, url: string): RateBucket {
  if (url.startsWith('/oauth2/')) return 'token';
  if (method === 'POST' && url === '/v2/transfer/crypto-withdrawals') return 'withdrawals';
  return 'other';
}


export async function startLocalService(opts: LocalServiceOptions = {}): Promise<LocalService> {
  const config = makeConfig(opts.config);
  const seed = opts.seed ?? DEFAULT_SEED;
  const store = new Store(opts.memory ? null : (opts.dbFile ?? defaultDbFile()), config.dbBusyTimeoutMs);
  const clock = new Clock(store);
  const core = { store, clock, config, seed };
  ensureDemo(core);
  const svc: Service = {
    ...core,
    auth: new Auth(store, clock, config),
    journal: new Journal(() => config.journalSize),
    faults: new Faults(config, seed),
    limiter: new RateLimiter(config),
  };

  const router = new Router(MAX_PARAM_LENGTH);
  registerToken(router, svc);
  registerWithdrawals(router, svc);
  registerDepositAddresses(router, svc);
  registerTransfers(router, svc);
  registerSandbox(router, svc);
  registerPrices(router, svc);
  registerControl(router, svc);

  const journalRequest = (req: Request, state: RequestState, status: number) => {
    if (state.journaled || req.url.startsWith('/_local/journal')) return;
    state.journaled = true;
    svc.journal.add({
      time: iso(Date.now()),
      method: req.method,
      url: req.url,
      status,
      duration_ms: Math.round((performance.now() - state.started) * 100) / 100,
      ...(req.principal ? { client_id: req.principal } : {}),
      ...(state.reason || req.rejection ? { reason: state.reason || req.rejection } : {}),
      ...(state.fault ? { fault: state.fault } : {}),
    });
  };

  /**
   * What stands before every route: the control API answers loopback clients only; the API and token endpoint have
   * rate limits and the configured faults. A problem is thrown; false means the connection was dropped on purpose.
   */
  const gate = async (req: Request, reply: Reply, state: RequestState): Promise<boolean> => {
    const { path } = req;
    if (isControlPath(path)) {
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) throw problems.forbidden('the control API answers loopback clients only');
      return true;
    }
    if (!path.startsWith('/v2/') && !path.startsWith('/oauth2/')) return true;
    const retryAfter = svc.limiter.check(req.socket.remoteAddress ?? '', `${req.method} ${req.routeUrl}`, bucketOf(req.method, req.routeUrl));
    if (retryAfter) {
      reply.header('retry-after', String(retryAfter));
      throw problems.tooManyRequests('Too many requests');
    }
    const d = svc.faults.decide(req.method, path);
    if (d.latencyMs) await new Promise((resolve) => setTimeout(resolve, d.latencyMs));
    if (d.action === 'none') return true;
    state.fault = d.action;
    switch (d.action) {
      case 'reset-before':
        state.reason = 'connection reset before handling (injected fault)';
        journalRequest(req, state, 0);
        req.socket.destroy();
        return false;
      case '429':
        reply.header('retry-after', '1');
        throw problems.tooManyRequests('Too many requests (injected fault)');
      case '500':
        throw problems.internal('injected fault');
      case '503':
        reply.header('retry-after', '1');
        throw problems.serviceUnavailable('injected fault');
      default:
        return true;
    }
  };

  /** Any error as the problem to answer: bad input is a 4xx; only a fault of the service itself is a 500. */
  const problemOf = (err: unknown, req: Request, reply: Reply): Problem => {
    if (err instanceof ProblemError) return err.problem;
    const e = err as { code?: unknown; stack?: string };
    if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_BUSY')) {
      // Another process held the database's write lock for longer than busy_timeout: nothing was written.
      reply.header('retry-after', '1');
      return problems.serviceUnavailable('the local database is busy (another process holds it); retry').problem;
    }
    process.stderr.write(`coinop local: internal error on ${req.method} ${req.url}: ${e?.stack ?? String(err)}\n`);
    return problems.internal('unexpected error in the local service (logged on its stderr)').problem;
  };

  const handle = async (raw: IncomingMessage, res: ServerResponse): Promise<void> => {
    const state: RequestState = { started: performance.now() };
    const url = originForm(raw.url ?? '/');
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = raw.method ?? 'GET';
    const req: Request = {
      raw, method, url, path, headers: raw.headers, socket: raw.socket, routeUrl: path,
      params: Object.create(null), query: parseQuery(q < 0 ? '' : url.slice(q + 1)), body: undefined,
    };
    const reply = new Reply();
    res.on('finish', () => journalRequest(req, state, res.statusCode));
    let bodyRead = false;
    try {
      const match = router.find(method, path);
      if (match) {
        req.routeUrl = match.route.pattern;
        req.params = match.params;
      }
      if (!(await gate(req, reply, state))) return;
      if (!match) throw problems.notFound(`no route ${method} ${path}`);
      if (method === 'POST' || method === 'PUT') {
        req.body = await readBody(raw, match.route.bodyLimit ?? config.bodyLimitBytes, path.startsWith('/oauth2/'));
        bodyRead = true;
      }
      const payload = await match.route.handler(req, reply);
      // A reset after the handler committed: the work is done, the answer never arrives.
      if (state.fault === 'reset-after' && reply.statusCode < 400) {
        state.reason = 'connection reset after the handler committed (injected fault)';
        journalRequest(req, state, reply.statusCode);
        req.socket.destroy();
        return;
      }
      send(res, method, reply, payload);
    } catch (err) {
      if (res.headersSent || req.socket.destroyed) return;
      const p = problemOf(err, req, reply);
      state.reason = state.fault ? `${state.fault}: ${p.detail ?? p.title}` : (p.detail ?? p.title);
      // Answered before its body was read (too large, wrong type, refused first): the connection closes, so the rest
      // of the body, however long, is never read.
      if (hasBody(raw) && !bodyRead) reply.header('connection', 'close');
      sendProblem(res, method, reply, p);
    }
  };

  // handle() answers every error itself; should answering fail too, the connection is closed, never the process.
  const server = createServer((raw, res) => {
    handle(raw, res).catch(() => res.destroy());
  });
  // Keep-alive connections stay open longer than a client's idle pool (got uses 4 s by default).
  server.keepAliveTimeout = 10_000;
  // Requests node's HTTP parser refuses (headers over 16 KiB, broken HTTP, a slow client) still get a problem: one per
  // connection, which then closes.
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const code = err.code;
    if (code === 'ECONNRESET' || socket.destroyed || refused.has(socket)) return;
    refused.add(socket);
    const [status, detail] =
      code === 'HPE_HEADER_OVERFLOW' ? [431, 'the request line and headers are larger than 16 KiB']
      : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'the request did not arrive in time']
      : [400, 'the request is not valid HTTP'];
    const title = STATUS_CODES[status] ?? 'Bad Request';
    const body = JSON.stringify({ type: 'about:blank', title, status, detail });
    // Journaled like any answered request, with the request line when the parser got that far.
    const line = /^([A-Z]{1,20}) (\S{1,2000})/.exec((err as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 2100) ?? '');
    svc.journal.add({ time: iso(Date.now()), method: line?.[1] ?? '', url: line?.[2] ?? '', status, duration_ms: 0, reason: detail });
    const answer = () => {
      if (!socket.writable) return void socket.destroy();
      socket.end(`HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    };
    // A response still being made for an earlier request on this connection (pipelining) goes out first. Node keeps
    // it as the socket's _httpMessage.
    const earlier = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (earlier && !earlier.writableFinished) {
      earlier.once('finish', answer);
      earlier.once('close', () => earlier.writableFinished || socket.destroy());
    } else answer();
  });

  const stream = await installStream(server, router, {
    config,
    seed,
    now: () => clock.now(),
    authenticate: (token) => svc.auth.authenticate(token),
    journal: (record) => svc.journal.add({ time: iso(clock.now()), duration_ms: 0, ...record }),
  });

  const host = opts.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port: opts.port ?? 0 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await stream.close().catch(() => {});
    store.close();
    throw e;
  }
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${urlHost}:${port}`;
  let closed: Promise<void> | undefined;
  return {
    baseUrl,
    authUrl: baseUrl,
    wsUrl: `ws://${urlHost}:${port}/ws`,
    host,
    port,
    config,
    seed,
    dbFile: store.file,
    close() {
      closed ??= (async () => {
        await stream.close().catch(() => {});
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await done;
        store.close();
      })();
      return closed;
    },
  };
}
