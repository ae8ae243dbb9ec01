// Which service a command talks to: for the local environment, the service's instance_id (local:<instance_id>), or
// nothing listens and the embedded service is started; elsewhere the environment and the API address say it. Token
// caches, batch journals, the gate's reservations and the record of sent ref_ids are keyed by this identity.
//
// The instance at a local address is learned once and kept in the data directory (service-identities.json, 0600),
// so a plain read does not ask GET /_local/health before its request. The local service names its instance in a
// header of every answer (coinop-instance), and the transport checks it on each (InstanceCheck): when the identity
// came from the cache, an answer from another instance (a reset, a state import, another service on the port)
// re-keys the connection before anything (a token) is saved under the old identity, and the cache learns the new
// one. Commands that key anything of their own on the identity (journals, reservations, audit entries: every command
// outside the plain reads of src/cli/invocation.ts) still ask the service first (verified: true) and keep that identity
// for the run; the cache alone learns a later change.
import { createRequire } from 'node:module';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { CoinopError } from '../errors.js';
import { embeddable, type ResolvedContext } from '../config/context.js';
import { authRoot, LOCAL_PORT } from '../config/environments.js';
import type { EmbeddedService, StartEmbedded } from '../embedded/start.js';
import { privateDir } from '../config/private-files.js';
import type { Settings } from '../config/settings.js';
import { INSTANCE_HEADER, type InstanceCheck } from './transport.js';

const require = createRequire(import.meta.url);

export type HealthProbe =
  /** Something answered over HTTP (any status); instanceId when it is a local service that reports one. */
  | {
      kind: 'answered';
      status: number;
      instanceId?: string;
      /** The answer also named its instance in the coinop-instance header (as every answer of the service does). */
      headerId?: string;
      /** What answered, for a message when it is not a coinop local service: its content type and Server header. */
      contentType?: string;
      server?: string;
    }
  /** Nothing listens at the address: the connection was refused (on every address a name resolved to). */
  | { kind: 'refused' }
  /** The connection was made (or not) but no answer came within the wait. */
  | { kind: 'silent'; connected: boolean }
  /** Anything else (reset, unreachable network, unknown host). */
  | { kind: 'failed'; code: string };

// With localhost resolving to ::1 and 127.0.0.1, Node tries both and reports an AggregateError of both failures;
// a family the machine does not have counts as nothing listening there.
const NOTHING_THERE = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENETUNREACH']);

function isRefused(error: unknown): boolean {
  const err = error as { code?: string; errors?: unknown[] };
  if (Array.isArray(err.errors) && err.errors.length) {
    const codes = err.errors.map((x) => (x as { code?: string }).code ?? '');
    return codes.includes('ECONNREFUSED') && codes.every((c) => NOTHING_THERE.has(c));
  }
  return err.code === 'ECONNREFUSED';
}

/** GET /_local/health at the address, waiting at most waitMs for the whole answer. Never throws. */
export function probeHealth(baseUrl: string, waitMs: number, path = '/_local/health'): Promise<HealthProbe> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(`${baseUrl}${path}`);
    } catch {
      resolve({ kind: 'failed', code: 'ERR_INVALID_URL' });
      return;
    }
    let connected = false;
    // An https address (a local service behind TLS, COINOP_BASE_URL=https://...) is probed over https: node:http
    // throws on it ("Protocol "https:" not supported"), which came out as an internal error. node:https brings TLS
    // and crypto, so only an https address loads it (as the transport does).
    let request: typeof httpRequest;
    if (url.protocol === 'http:') request = httpRequest;
    else if (url.protocol === 'https:') request = (require('node:https') as typeof import('node:https')).request;
    else {
      resolve({ kind: 'failed', code: `unsupported protocol ${url.protocol}` });
      return;
    }
    const req = request(url, { method: 'GET', agent: false, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => void (chunks.length < 64 && chunks.push(c)));
      res.on('error', () => finish({ kind: 'failed', code: 'ECONNRESET' }));
      res.on('end', () =>
        finish({
          kind: 'answered',
          instanceId: instanceIdOf(Buffer.concat(chunks).toString('utf8')),
          headerId: headerValue(res.headers[INSTANCE_HEADER]),
          ...answerOf({ status: res.statusCode ?? 0, headers: res.headers }),
        }),
      );
    });
    const timer = setTimeout(() => finish({ kind: 'silent', connected }), waitMs);
    let done = false;
    function finish(probe: HealthProbe): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve(probe);
    }
    req.on('socket', (s) => s.once('connect', () => (connected = true)));
    req.on('error', (e) =>
      finish(isRefused(e) ? { kind: 'refused' } : { kind: 'failed', code: (e as { code?: string }).code ?? e.message }),
    );
    req.end();
  });
}

/** An instance id as the header carries it, when it is one. */
export function headerValue(header: string | string[] | undefined): string | undefined {
  const id = Array.isArray(header) ? header[0] : header;
  return typeof id === 'string' && /^[A-Za-z0-9-]{1,128}$/.test(id) ? id : undefined;
}

function instanceIdOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { instance_id?: unknown }).instance_id;
    return typeof id === 'string' && /^[A-Za-z0-9-]{1,128}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The address without a trailing slash, default port or letter case in the host: one service, one spelling. */
export function normalizedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}

/** A local service that reported its instance id (local:<uuid>), not a service named by its address. */
export function isLocalServiceId(serviceId: string): boolean {
  return serviceId.startsWith('local:') && !serviceId.includes('://');
}

export interface ReachedService {
  /** The context with the addresses actually used (the embedded service's, when it was started). */
  context: ResolvedContext;
  /** local:<instance_id> for a local service that reports one, else <environment>:<normalized base url>. */
  serviceId: string;
  /** The local service started in this process, when nothing listens at the local context's address. */
  embedded?: EmbeddedService;
  /**
   * For a local service that names its instance on every answer: the transport's check of each answer. Its
   * serviceId is the connection's, updated when an answer comes from another instance.
   */
  check?: InstanceCheck;
}

// ---- the identity cache ----------------------------------------------------------------------------------------

const CACHE_FILE = 'service-identities.json';

interface CacheEntry {
  instance_id: string;
  seen_at: string;
}

function cachePath(dataDir: string): string {
  return join(dataDir, CACHE_FILE);
}

function readCache(dataDir: string): Record<string, CacheEntry> {
  try {
    const v = JSON.parse(readFileSync(cachePath(dataDir), 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, CacheEntry>) : {};
  } catch {
    return {};
  }
}

/** The instance last seen answering at this address, if any. */
export function cachedInstance(dataDir: string, baseUrl: string): string | undefined {
  const e = readCache(dataDir)[normalizedUrl(baseUrl)];
  const id = e && typeof e === 'object' ? e.instance_id : undefined;
  return typeof id === 'string' && /^[A-Za-z0-9-]{1,128}$/.test(id) ? id : undefined;
}

/**
 * Records the instance answering at this address (undefined: forgets the address). Written whole to a 0600 file
 * renamed into place in a 0700 data directory; a cache that cannot be written is no error (the next run asks).
 */
export function rememberInstance(dataDir: string, baseUrl: string, id: string | undefined, now = Date.now()): void {
  try {
    const all = readCache(dataDir);
    const key = normalizedUrl(baseUrl);
    if (id === undefined) {
      if (!(key in all)) return;
      delete all[key];
    } else {
      if (all[key]?.instance_id === id) return;
      all[key] = { instance_id: id, seen_at: new Date(now).toISOString() };
    }
    privateDir(dataDir, () => undefined);
    const file = cachePath(dataDir);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    /* the next run asks the service again */
  }
}

/**
 * What a TCP connect to the address finds (nothing sent): accepted, refused (nothing listens), failed otherwise, or
 * no answer within the wait. Never throws.
 */
function connectTo(baseUrl: string, waitMs: number): Promise<'accepted' | 'refused' | 'failed' | 'silent'> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(baseUrl);
    } catch {
      resolve('silent');
      return;
    }
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const s = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (outcome: 'accepted' | 'refused' | 'failed' | 'silent') => {
      clearTimeout(timer);
      s.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('silent'), waitMs);
    s.once('connect', () => done('accepted'));
    s.once('error', (e) => done(isRefused(e) ? 'refused' : 'failed'));
  });
}

/** The check of every answer at the local service's address, starting from what it is believed to be. */
function instanceCheck(
  context: Pick<ResolvedContext, 'baseUrl' | 'overridden'>,
  id: string,
  dataDir: string,
  verified: boolean,
  waitMs: number,
): InstanceCheck {
  const { baseUrl } = context;
  let remembered: string | undefined = id;
  const check: InstanceCheck = {
    origin: new URL(baseUrl).origin,
    expected: id,
    serviceId: `local:${id}`,
    verified,
    waitMs,
    changed(actual, url, answer) {
      if (actual !== remembered) rememberInstance(dataDir, baseUrl, actual);
      remembered = actual;
      // What the cache believed is not there: an answer that names no instance is another program's (a 5xx may be
      // the service's own, its database unreadable for a moment), and nothing more goes to it.
      if (actual === undefined && !check.verified && answer && answer.status < 500)
        throw notLocalService(context, `${answer.method} ${new URL(url).pathname}`, answerOf(answer));
      // The run's identity follows the answer while it was only the cache's belief, or when this command changed the
      // instance itself (coinop local reset, a state import through the control API). A command that asked the
      // service first keeps the identity it keyed its journal, reservations and audit entries by (as it always did);
      // the cache alone learns the change, for the next run.
      const own = new URL(url).pathname.startsWith('/_local/');
      if (check.verified && !own) return;
      check.expected = actual;
      check.serviceId = actual ? `local:${actual}` : `local:${normalizedUrl(baseUrl)}`;
    },
    silent: (connected) => silentError(baseUrl, waitMs, connected),
  };
  return check;
}

/** An answer's status, content type and Server header, as a health probe keeps them. */
function answerOf(answer: {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}): Pick<Answered, 'status' | 'contentType' | 'server'> {
  const type = answer.headers['content-type'];
  const server = answer.headers.server;
  return {
    status: answer.status,
    contentType: typeof type === 'string' ? type.split(';')[0]?.trim() || undefined : undefined,
    server: typeof server === 'string' ? server.slice(0, 60) : undefined,
  };
}

/**
 * Finds the service a context talks to. The embedded local service starts only when nothing listens at the local
 * context's address; a service that accepted the connection but stays silent is an error, never a reason to
 * switch to another database.
 *
 * `verified`: the service is asked which instance it is (GET /_local/health) even when the cache knows the address:
 * for a command that keys anything of its own on the identity before its first answer could say it (a journal, a
 * reservation, an audit entry). Otherwise a cached identity is taken as it is, and checked on every answer.
 */
export async function reachService(
  context: ResolvedContext,
  settings: Pick<Settings, 'localWaitMs' | 'dataDir'>,
  options: { verified?: boolean; gatewayIdentity?: boolean; startEmbedded?: StartEmbedded } = {},
): Promise<ReachedService> {
  const byUrl = (p: ResolvedContext) => `${p.environment}:${normalizedUrl(p.baseUrl)}`;
  if (context.environment === 'custom' && options.gatewayIdentity) {
    // A coinop gateway names the store its instances share: a batch begun through one resumes through another.
    const probe = await probeHealth(context.baseUrl, settings.localWaitMs, '/_gateway/health');
    if (probe.kind === 'answered' && probe.status === 200 && probe.instanceId)
      return { context, serviceId: `gateway:${probe.instanceId}` };
  }
  if (context.environment !== 'local') return { context, serviceId: byUrl(context) };
  // How long a local service that accepted the connection may take to answer (COINOP_LOCAL_WAIT_MS).
  const waitMs = settings.localWaitMs;
  const { dataDir } = settings;
  const canEmbed = options.startEmbedded !== undefined && embeddable(context);
  const known = options.verified ? undefined : cachedInstance(dataDir, context.baseUrl);
  // The embedded service starts when nothing listens: a connect says so without a request (the health check's is
  // the embedded default's, every time). At an address given by hand, the command's own request reports a service
  // that is not there.
  const connected = canEmbed ? await connectTo(context.baseUrl, waitMs) : undefined;
  if (known && (!canEmbed || connected === 'accepted' || connected === 'failed')) {
    const check = instanceCheck(context, known, dataDir, false, waitMs);
    return { context, serviceId: check.serviceId, check };
  }
  const probe: HealthProbe = connected === 'refused' ? { kind: 'refused' } : await probeHealth(context.baseUrl, waitMs);
  if (probe.kind === 'refused' && canEmbed) {
    const svc = await options.startEmbedded!(dataDir);
    const p = { ...context, baseUrl: svc.baseUrl, authUrl: svc.authUrl, wsUrl: svc.wsUrl };
    // Its instance is read in this process: no request (its port is new each time, so nothing is cached for it).
    const id = svc.instanceId();
    const check = instanceCheck(p, id, dataDir, true, waitMs);
    return { context: p, embedded: svc, serviceId: check.serviceId, check };
  }
  if (probe.kind === 'silent') throw silentError(context.baseUrl, waitMs, probe.connected);
  if (probe.kind === 'failed' && canEmbed) {
    throw new CoinopError(
      'network',
      `the local service at ${context.baseUrl} did not answer its health check (${probe.code})`,
      {
        hint: 'check what listens there (coinop local start), or stop it to let coinop start its own',
      },
    );
  }
  // Something answered: a coinop local service names its instance; anything else gets nothing more from coinop.
  if (probe.kind === 'answered') return answeredAsLocal(context, probe, dataDir, waitMs);
  // Refused or failed at an address given by hand: the command's own request reports it (secretGuard keeps the
  // client secret from going there unconfirmed).
  rememberInstance(dataDir, context.baseUrl, undefined);
  return { context, serviceId: byUrl(context) };
}

type Answered = Extract<HealthProbe, { kind: 'answered' }>;

/**
 * The local context's address answered its health check. A coinop local service names its instance (in the body of
 * GET /_local/health, or in the coinop-instance header of any answer, a refusal of its control API included);
 * anything else is another program on the port, and is refused before any credential goes to it.
 */
function answeredAsLocal(context: ResolvedContext, probe: Answered, dataDir: string, waitMs: number): ReachedService {
  const id = probe.instanceId ?? probe.headerId;
  if (!id) {
    rememberInstance(dataDir, context.baseUrl, undefined);
    throw notLocalService(context, 'GET /_local/health', probe);
  }
  // Only a service that names its instance on every answer can be checked by its answers: only its is kept.
  if (probe.headerId === id) {
    rememberInstance(dataDir, context.baseUrl, id);
    const check = instanceCheck(context, id, dataDir, true, waitMs);
    return { context, serviceId: check.serviceId, check };
  }
  rememberInstance(dataDir, context.baseUrl, undefined);
  return { context, serviceId: `local:${id}` };
}

/** What answered, in a few words: its status, content type and Server header. */
function answerSummary(probe: Pick<Answered, 'status' | 'contentType' | 'server'>): string {
  const type = probe.contentType ? ` ${probe.contentType}` : ' (no content type)';
  return `${probe.status}${type}${probe.server ? `, server "${probe.server}"` : ''}`;
}

/** host:port of an address (and its path, when it has one), as a person names what listens there. */
function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

/** Another program answers at a local context's address: nothing more goes to it, the client secret least of all. */
export function notLocalService(
  context: Pick<ResolvedContext, 'baseUrl' | 'overridden'>,
  request: string,
  probe: Pick<Answered, 'status' | 'contentType' | 'server'>,
  url = context.baseUrl,
): CoinopError {
  const host = hostOf(url);
  const other = Number(new URL(url).port || LOCAL_PORT) + 1;
  const hint = context.overridden
    ? `check COINOP_BASE_URL and COINOP_AUTH_URL (they point the local context at ${host}), or stop the program listening there`
    : `stop the program listening there, or run the local service on another port (coinop local start --port ${other}) and point coinop at it (COINOP_BASE_URL=http://127.0.0.1:${other})`;
  return new CoinopError(
    'network',
    `${host} is not a coinop local service (it answered ${request} with ${answerSummary(probe)}); no credentials were sent to it`,
    { hint },
  );
}

/**
 * The check made before a local context's client secret leaves for its token endpoint: the server there must be
 * known to be a coinop local service. Known: the embedded service, the service asked this run (GET /_local/health),
 * or an answer of this run that named its instance. An identity only the cache believes, one whose answer named no
 * instance, or an address where nothing answered the probe, is asked now: one GET /_local/health for each token
 * fetched, never one per command (a cached token needs none). The token address when it is not the API's is always
 * asked. Other environments need none: a sandbox or production secret goes only to its saved https endpoint.
 */
export function secretGuard(
  reached: ReachedService,
  settings: Pick<Settings, 'localWaitMs' | 'dataDir'>,
): (() => Promise<void>) | undefined {
  const waitMs = settings.localWaitMs;
  const { context, check } = reached;
  if (context.environment !== 'local' || reached.embedded) return undefined;
  const authServer = authRoot(context.authUrl);
  const sameServer = normalizedUrl(authServer) === normalizedUrl(context.baseUrl);
  let confirmed = false;
  return async () => {
    const id = check ? check.serviceId : reached.serviceId;
    if (confirmed || (sameServer && isLocalServiceId(id) && (!check || check.verified))) return;
    const probe = await probeHealth(authServer, waitMs);
    if (probe.kind === 'answered' && (probe.instanceId ?? probe.headerId)) {
      confirmed = true;
      return;
    }
    const path = `${new URL(authServer).pathname.replace(/\/+$/, '')}/_local/health`;
    if (sameServer) rememberInstance(settings.dataDir, context.baseUrl, undefined);
    if (probe.kind === 'answered') throw notLocalService(context, `GET ${path}`, probe, authServer);
    if (probe.kind === 'silent') throw silentError(authServer, waitMs, probe.connected);
    const why = probe.kind === 'refused' ? 'ECONNREFUSED' : probe.code;
    throw new CoinopError('network', `cannot reach the local service at ${authServer}: ${why}`, {
      hint: 'nothing was sent; start it (coinop local start) or check the address (coinop auth status)',
    });
  };
}

function silentError(baseUrl: string, waitMs: number, connected: boolean): CoinopError {
  const wait = waitMs % 1000 === 0 ? `${waitMs / 1000} s` : `${waitMs} ms`;
  return new CoinopError(
    'network',
    connected
      ? `the local service at ${baseUrl} accepted the connection but did not answer within ${wait}; is it stopped (kill -STOP) or busy?`
      : `the local service at ${baseUrl} did not answer within ${wait}`,
    {
      hint: 'resume or restart it (kill -CONT, or coinop local start), or wait longer with COINOP_LOCAL_WAIT_MS; nothing was sent',
    },
  );
}
