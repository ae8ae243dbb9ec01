// The local service: a faithful, stateful implementation of the hosted HTTP API on node:http and SQLite, with the
// control API and the stream. Here it is put together and started; each request goes through pipeline.ts.
import { createServer, type Server } from 'node:http';
import { Auth } from './auth.js';
import { BrowserGuard } from './browser-guard.js';
import { makeConfig, type DeepPartial, type LocalConfig } from './config.js';
import { Faults } from './faults.js';
import { migrate } from './migrations.js';
import { answerParserRefusals } from './parser-refusals.js';
import { defaultDbFile } from './paths.js';
import { requestPipeline } from './pipeline.js';
import { RequestLimits } from './request-limits.js';
import { RequestLog } from './request-log.js';
import type { Service } from './route-helpers.js';
import { Router } from './router.js';
import { registerControl } from './routes/control.js';
import { registerCryptoDeposits } from './routes/crypto-deposits.js';
import { registerDepositAddresses } from './routes/deposit-addresses.js';
import { registerInternalTransfers } from './routes/internal-transfers.js';
import { registerDepositInstructions } from './routes/deposit-instructions.js';
import { registerFiatAccounts } from './routes/fiat-accounts.js';
import { registerConversions } from './routes/conversions.js';
import { registerDestinations } from './routes/destinations.js';
import { registerEvents } from './routes/events.js';
import { registerLimits } from './routes/transfer-limits.js';
import { registerMarkets } from './routes/markets.js';
import { registerPrices } from './routes/prices.js';
import { registerServiceProfiles } from './routes/profiles.js';
import { registerSandbox } from './routes/sandbox.js';
import { registerToken } from './routes/token.js';
import { registerTransfers } from './routes/transfers.js';
import { registerWithdrawals } from './routes/withdrawals.js';
import { registerVasps } from './routes/vasps.js';
import { settleDue } from './ledger.js';
import { isoMillis, ServiceClock } from './service-clock.js';
import { ensureDemo } from './state.js';
import { Store } from './store.js';
import { SimulatedExchange } from './stream/exchange.js';
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
  /** The database's instance id (what /_local/health and the coinop-instance header of every answer say). */
  instanceId(): string;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 1;

/**
 * How often a running service settles what is due (transfers reaching their end, with their events), so the feed
 * moves with the clock while no request comes. Every read settles first as well, so this only decides how soon a
 * change is written, never whether.
 */
const SETTLE_TICK_MS = 250;

/** Long path parameters reach validation (a 400 naming the field) instead of a bare 414. */
const MAX_PARAM_LENGTH = 2000;

function assemble(opts: LocalServiceOptions): Service {
  const config = makeConfig(opts.config);
  const seed = opts.seed ?? DEFAULT_SEED;
  const store = new Store(opts.memory ? null : (opts.dbFile ?? defaultDbFile()), config.dbBusyTimeoutMs);
  const clock = new ServiceClock(store);
  const core = { store, clock, config, seed };
  migrate(core);
  ensureDemo(core);
  return {
    ...core,
    auth: new Auth(store, clock, config),
    requestLog: new RequestLog(() => config.journalSize),
    faults: new Faults(config, seed),
    requestLimits: new RequestLimits(config),
    exchange: new SimulatedExchange(seed, () => clock.now()),
  };
}

function routes(svc: Service): Router {
  const router = new Router(MAX_PARAM_LENGTH);
  registerToken(router, svc);
  registerWithdrawals(router, svc);
  registerDepositAddresses(router, svc);
  registerTransfers(router, svc);
  registerSandbox(router, svc);
  registerPrices(router, svc);
  registerDestinations(router, svc);
  registerLimits(router, svc);
  registerDepositInstructions(router, svc);
  registerMarkets(router, svc);
  registerControl(router, svc);
  registerServiceProfiles(router, svc);
  registerInternalTransfers(router, svc);
  registerCryptoDeposits(router, svc);
  registerVasps(router, svc);
  registerEvents(router, svc);
  registerFiatAccounts(router, svc);
  registerConversions(router, svc);
  return router;
}

/** The HTTP server, its requests through the pipeline; its BrowserGuard is set once it listens. */
function httpServer(svc: Service, router: Router): { server: Server; setGuard(g: BrowserGuard): void } {
  let guard!: BrowserGuard;
  const pipeline = requestPipeline({
    router,
    requestLog: svc.requestLog,
    requestLimits: svc.requestLimits,
    faults: svc.faults,
    authorize: (header, scope) => svc.auth.authorize(header, scope).clientId,
    guard: () => guard,
    bodyLimitBytes: () => svc.config.bodyLimitBytes,
    now: () => svc.clock.now(),
    instanceId: () => svc.store.instanceId(),
  });
  // The pipeline answers every error itself; should answering fail too, the connection is closed, never the process.
  // The Host header is checked by the gate, so a request without one gets a problem too.
  const server = createServer({ requireHostHeader: false }, (raw, res) => {
    pipeline(raw, res).catch(() => res.destroy());
  });
  // Keep-alive connections stay open longer than a client's idle pool (got uses 4 s by default).
  server.keepAliveTimeout = 10_000;
  answerParserRefusals(server, svc.requestLog);
  return { server, setGuard: (g) => (guard = g) };
}

/** Listens; `listening` learns the port (an ephemeral one when 0) before any request can arrive. */
function listen(server: Server, host: string, port: number, listening: (port: number) => void): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      const addr = server.address();
      const bound = typeof addr === 'object' && addr ? addr.port : port;
      listening(bound);
      resolve(bound);
    });
  });
}

export async function startLocalService(opts: LocalServiceOptions = {}): Promise<LocalService> {
  const svc = assemble(opts);
  const { store, clock, config, seed } = svc;
  const router = routes(svc);
  const { server, setGuard } = httpServer(svc, router);
  const stream = await installStream(server, router, {
    config,
    seed,
    now: () => clock.now(),
    exchange: svc.exchange,
    authenticate: (token) => svc.auth.authenticate(token),
    logHandshake: (record) => svc.requestLog.add({ time: isoMillis(clock.now()), duration_ms: 0, ...record }),
  });
  const host = opts.host ?? '127.0.0.1';
  let port: number;
  try {
    port = await listen(server, host, opts.port ?? 0, (bound) => setGuard(new BrowserGuard(host, bound)));
  } catch (e) {
    await stream.close().catch(() => {});
    store.close();
    throw e;
  }
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const baseUrl = `http://${urlHost}:${port}`;
  const settler = setInterval(() => {
    try {
      settleDue(svc);
    } catch {
      // Another process holds the database past the busy timeout: the next tick (or the next read) settles.
    }
  }, SETTLE_TICK_MS);
  // The embedded service of one command must not keep that command's process alive.
  settler.unref();
  let closed: Promise<void> | undefined;
  const close = async () => {
    clearInterval(settler);
    await stream.close().catch(() => {});
    const done = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await done;
    store.close();
  };
  return {
    baseUrl,
    authUrl: baseUrl,
    wsUrl: `ws://${urlHost}:${port}/ws`,
    host,
    port,
    config,
    seed,
    dbFile: store.file,
    instanceId: () => store.instanceId(),
    close: () => (closed ??= close()),
  };
}
