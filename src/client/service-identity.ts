// Which service a command talks to, decided once per run: for the local environment, GET /_local/health answers
// with the service's instance_id (or nothing listens, and the embedded service is started); elsewhere the
// environment and the API address say it. Token caches and batch journals are keyed by this identity.
import { createRequire } from 'node:module';
import { request as httpRequest } from 'node:http';
import { CoinopError } from '../errors.js';
import type { ResolvedProfile } from '../config/profile.js';
import type { Settings } from '../config/settings.js';
import { embeddable, startEmbedded, type EmbeddedService } from './embedded.js';

const require = createRequire(import.meta.url);

export type HealthProbe =
  /** Something answered over HTTP (any status); instanceId when it is a local service that reports one. */
  | { kind: 'answered'; status: number; instanceId?: string }
  /** Nothing listens at the address: the connection was refused (on every address a name resolved to). */
  | { kind: 'refused' }
  /** The connection was made (or not) but no answer came within the wait. */
  | { kind: 'silent'; connected: boolean }
  /** Anything else (reset, unreachable network, unknown host). */
  | { kind: 'failed'; code: string };

// With localhost resolving to ::1 and 127.0.0.1, Node tries both and reports an AggregateError of both failures;
// a family the machine does not have counts as nothing listening there.
const NOTHING_THERE = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENETUNREACH']);

function isRefused(e: unknown): boolean {
  const err = e as { code?: string; errors?: unknown[] };
  if (Array.isArray(err.errors) && err.errors.length) {
    const codes = err.errors.map((x) => (x as { code?: string }).code ?? '');
    return codes.includes('ECONNREFUSED') && codes.every((c) => NOTHING_THERE.has(c));
  }
  return err.code === 'ECONNREFUSED';
}

/** GET /_local/health at the address, waiting at most waitMs for the whole answer. Never throws. */
export function probeHealth(baseUrl: string, waitMs: number): Promise<HealthProbe> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(`${baseUrl}/_local/health`);
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
          status: res.statusCode ?? 0,
          instanceId: instanceIdOf(Buffer.concat(chunks).toString('utf8')),
        }),
      );
    });
    const timer = setTimeout(() => finish({ kind: 'silent', connected }), waitMs);
    let done = false;
    function finish(p: HealthProbe): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve(p);
    }
    req.on('socket', (s) => s.once('connect', () => (connected = true)));
    req.on('error', (e) =>
      finish(isRefused(e) ? { kind: 'refused' } : { kind: 'failed', code: (e as { code?: string }).code ?? e.message }),
    );
    req.end();
  });
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
  /** The profile with the addresses actually used (the embedded service's, when it was started). */
  profile: ResolvedProfile;
  /** local:<instance_id> for a local service that reports one, else <environment>:<normalized base url>. */
  serviceId: string;
  /** The local service started in this process, when nothing listened at the local profile's address. */
  embedded?: EmbeddedService;
}

/**
 * Finds the service a profile talks to. The embedded local service starts only when nothing listens at the local
 * profile's address; a service that accepted the connection but stays silent is an error, never a reason to
 * switch to another database.
 */
export async function reachService(
  profile: ResolvedProfile,
  settings: Pick<Settings, 'localWaitMs' | 'dataDir'>,
): Promise<ReachedService> {
  const byUrl = (p: ResolvedProfile) => `${p.environment}:${normalizedUrl(p.baseUrl)}`;
  if (profile.environment !== 'local') return { profile, serviceId: byUrl(profile) };
  // How long a local service that accepted the connection may take to answer (COINOP_LOCAL_WAIT_MS).
  const waitMs = settings.localWaitMs;
  const probe = await probeHealth(profile.baseUrl, waitMs);
  const canEmbed = embeddable(profile);
  if (probe.kind === 'refused' && canEmbed) {
    const svc = await startEmbedded(settings.dataDir);
    const p = { ...profile, baseUrl: svc.baseUrl, authUrl: svc.authUrl, wsUrl: svc.wsUrl };
    const own = await probeHealth(svc.baseUrl, waitMs);
    return {
      profile: p,
      embedded: svc,
      serviceId: own.kind === 'answered' && own.instanceId ? `local:${own.instanceId}` : byUrl(p),
    };
  }
  if (probe.kind === 'silent') throw silentError(profile.baseUrl, waitMs, probe.connected);
  if (probe.kind === 'failed' && canEmbed) {
    throw new CoinopError(
      'network',
      `the local service at ${profile.baseUrl} did not answer its health check (${probe.code})`,
      {
        hint: 'check what listens there (coinop local start), or stop it to let coinop start its own',
      },
    );
  }
  // Refused or failed at an address given by hand: the command's own request reports it.
  if (probe.kind === 'answered' && probe.instanceId) return { profile, serviceId: `local:${probe.instanceId}` };
  return { profile, serviceId: byUrl(profile) };
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
