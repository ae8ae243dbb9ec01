// The local service: a faithful, stateful implementation of the hosted HTTP API on fastify and SQLite,
// with the control API, faults, rate limits, the request journal and the stream hook.
import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, ProblemError, problems, type Problem } from '../api/index.js';
import { Auth } from './auth.js';
import { Clock, iso } from './clock.js';
import { makeConfig, type DeepPartial, type LocalConfig } from './config.js';
import { Faults, type FaultAction } from './faults.js';
import { principalOf, rejectionOf, type Service } from './http.js';
import { Journal } from './journal.js';
import { defaultDbFile } from './paths.js';
import { RateLimiter, type RateBucket } from './rate-limit.js';
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
  /** Already in the journal (a dropped connection never reaches onResponse). */
  journaled?: boolean;
}
const requestState = new WeakMap<FastifyRequest, RequestState>();

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function bucketOf(method: string, url: string): RateBucket {
  if (url.startsWith('/oauth2/')) return 'token';
  if (method === 'POST' && url === '/v2/transfer/crypto-withdrawals') return 'withdrawals';
  return 'other';
}

function sendProblem(reply: FastifyReply, p: Problem) {
  return reply.code(p.status).type(PROBLEM_CONTENT_TYPE).send(p);
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

  const app = Fastify({
    logger: false,
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: true,
    return503OnClosing: false,
    // Keep-alive connections stay open longer than a client's idle pool (got uses 4 s by default).
    keepAliveTimeout: 10_000,
    // Long path parameters reach validation (a 400 naming the field) instead of a bare 414.
    routerOptions: { maxParamLength: 2000 },
    // Requests node's HTTP parser refuses (headers over 16 KiB, broken HTTP, a slow client) still get a problem.
    clientErrorHandler: (err, socket) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ECONNRESET' || socket.destroyed) return;
      const [status, detail] =
        code === 'HPE_HEADER_OVERFLOW' ? [431, 'the request line and headers are larger than 16 KiB']
        : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'the request did not arrive in time']
        : [400, 'the request is not valid HTTP'];
      const title = STATUS_CODES[status] ?? 'Bad Request';
      const body = JSON.stringify({ type: 'about:blank', title, status, detail });
      if (!socket.writable) return void socket.destroy();
      socket.end(`HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
    // A URL that does not decode, or a path parameter past that length, is bad input like any other: a problem, not
    // fastify's own JSON shape.
    frameworkErrors: (err, _req, reply) => {
      const tooLong = (err as FastifyError).code === 'FST_ERR_MAX_PARAM_LENGTH';
      const p: Problem = tooLong
        ? { type: 'about:blank', title: 'URI Too Long', status: 414, detail: 'a path segment is longer than 2000 characters' }
        : problems.badRequest(`the URL is not valid: ${err.message}`).problem;
      sendProblem(reply as unknown as FastifyReply, p);
    },
    // Requests are validated with the contract (src/api), never with fastify route schemas; not loading fastify's
    // own ajv and serializer compilers saves a good part of start-up, which the CLI's embedded service pays.
    schemaController: {
      compilersFactory: {
        buildValidator: () => () => {
          throw new Error('local service routes validate with the contract (src/api), not with fastify schemas');
        },
        buildSerializer: () => () => {
          throw new Error('local service routes send plain JSON, not fastify response schemas');
        },
      },
    },
  });

  const journalRequest = (req: FastifyRequest, status: number) => {
    const state = requestState.get(req);
    if (state?.journaled || req.url.startsWith('/_local/journal')) return;
    if (state) state.journaled = true;
    svc.journal.add({
      time: iso(Date.now()),
      method: req.method,
      url: req.url,
      status,
      duration_ms: state ? Math.round((performance.now() - state.started) * 100) / 100 : 0,
      ...(principalOf.get(req) ? { client_id: principalOf.get(req) } : {}),
      ...(state?.reason || rejectionOf.get(req) ? { reason: state?.reason || rejectionOf.get(req) } : {}),
      ...(state?.fault ? { fault: state.fault } : {}),
    });
  };

  // Bodies are JSON (and form-encoded for tokens); anything else is a 415, so text/plain loses its default parser.
  app.removeContentTypeParser('text/plain');
  // Form-encoded bodies belong to the token endpoint (OAuth); the API takes JSON only, as SERVICE.md says.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    if (!req.url.startsWith('/oauth2/')) {
      return done(problems.unsupportedMediaType('content type application/x-www-form-urlencoded is not supported here; send application/json'), undefined);
    }
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Callback-style hooks: no promise per request on the fast path (no faults, no limits).
  app.addHook('onRequest', (req, reply, done) => {
    const state: RequestState = { started: performance.now() };
    requestState.set(req, state);
    const path = req.url.split('?')[0];
    if (path.startsWith('/_local')) {
      if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return done(problems.forbidden('the control API answers loopback clients only'));
      return done();
    }
    if (!path.startsWith('/v2/') && !path.startsWith('/oauth2/')) return done();
    const routeUrl = req.routeOptions.url ?? path;
    const retryAfter = svc.limiter.check(req.socket.remoteAddress ?? '', `${req.method} ${routeUrl}`, bucketOf(req.method, routeUrl));
    if (retryAfter) {
      reply.header('retry-after', String(retryAfter));
      return done(problems.tooManyRequests('Too many requests'));
    }
    const d = svc.faults.decide(req.method, path);
    if (d.latencyMs === 0 && d.action === 'none') return done();
    const act = () => {
      if (d.action === 'none') return done();
      state.fault = d.action;
      switch (d.action) {
        case 'reset-before':
          state.reason = 'connection reset before handling (injected fault)';
          journalRequest(req, 0);
          req.socket.destroy();
          reply.hijack();
          return done();
        case '429':
          reply.header('retry-after', '1');
          return done(problems.tooManyRequests('Too many requests (injected fault)'));
        case '500':
          return done(problems.internal('injected fault'));
        case '503':
          reply.header('retry-after', '1');
          return done(problems.serviceUnavailable('injected fault'));
        default:
          return done();
      }
    };
    if (d.latencyMs) setTimeout(act, d.latencyMs);
    else act();
  });

  // A reset after the handler committed: the work is done, the answer never arrives.
  app.addHook('onSend', (req, reply, payload, done) => {
    const state = requestState.get(req);
    if (state?.fault === 'reset-after' && reply.statusCode < 400) {
      state.reason = 'connection reset after the handler committed (injected fault)';
      journalRequest(req, reply.statusCode);
      req.socket.destroy();
    }
    done(null, payload);
  });

  app.addHook('onResponse', (req, reply, done) => {
    journalRequest(req, reply.statusCode);
    done();
  });

  app.setNotFoundHandler((req, reply) => {
    const p = problems.notFound(`no route ${req.method} ${req.url.split('?')[0]}`).problem;
    const state = requestState.get(req);
    if (state) state.reason = p.detail;
    return sendProblem(reply, p);
  });

  app.setErrorHandler((err: FastifyError | ProblemError | Error, req, reply) => {
    let p: Problem;
    if (err instanceof ProblemError) {
      p = err.problem;
    } else {
      const e = err as FastifyError;
      const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
      switch (e.code) {
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          p = problems.unsupportedMediaType(`content type ${req.headers['content-type'] ?? '(none)'} is not supported; send application/json`).problem;
          break;
        case 'FST_ERR_CTP_BODY_TOO_LARGE':
          p = problems.payloadTooLarge(`the body is larger than ${config.bodyLimitBytes} bytes`).problem;
          break;
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
          p = problems.badRequest('the body is empty; send a JSON object').problem;
          break;
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
          p = problems.badRequest(`the body is not valid JSON: ${e.message}`).problem;
          break;
        default:
          if (status >= 400 && status < 500) {
            p = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Bad Request', status, detail: e.message };
          } else if (typeof e.code === 'string' && e.code.startsWith('SQLITE_BUSY')) {
            // Another process held the database's write lock for longer than busy_timeout: nothing was written.
            reply.header('retry-after', '1');
            p = problems.serviceUnavailable('the local database is busy (another process holds it); retry').problem;
          } else if (e instanceof SyntaxError) {
            p = problems.badRequest(`the body is not valid JSON: ${e.message}`).problem;
          } else {
            process.stderr.write(`coinop local: internal error on ${req.method} ${req.url}: ${err.stack ?? String(err)}\n`);
            p = problems.internal('unexpected error in the local service (logged on its stderr)').problem;
          }
      }
    }
    const state = requestState.get(req);
    if (state && !state.fault) state.reason = p.detail ?? p.title;
    else if (state) state.reason = `${state.fault}: ${p.detail ?? p.title}`;
    return sendProblem(reply, p);
  });

  registerToken(app, svc);
  registerWithdrawals(app, svc);
  registerDepositAddresses(app, svc);
  registerTransfers(app, svc);
  registerSandbox(app, svc);
  registerPrices(app, svc);
  registerControl(app, svc);

  const stream = await installStream(app, {
    config,
    seed,
    now: () => clock.now(),
    authenticate: (token) => svc.auth.authenticate(token),
    journal: (record) => svc.journal.add({ time: iso(clock.now()), duration_ms: 0, ...record }),
  });

  const host = opts.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: opts.port ?? 0 });
  } catch (e) {
    await stream.close().catch(() => {});
    await app.close().catch(() => {});
    store.close();
    throw e;
  }
  const addr = app.server.address();
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
        await app.close();
        store.close();
      })();
      return closed;
    },
  };
}
