// coinop doctor: every check at once (the contexts' in parallel), one line each, exit 1 when one fails.
import type { Ports } from '../../cli/ports.js';
import { CoinopError } from '../../cli/errors.js';
import { type ResolvedContext, resolveContext } from '../../config/context.js';
import { palette } from '../../render/style.js';
import { type Check, completionCheck, permissionChecks, type Status } from './checks.js';
import type { DoctorOptions } from './options.js';

/** A clock this far from the service's (seconds) is warned about; twice the token margin fails. */
const SKEW_WARN_S = 30;
const SKEW_FAIL_S = 120;

interface Probe {
  ok: boolean;
  status?: number;
  date?: string;
  error?: string;
}

/** Any HTTP answer is reachable; nothing, or nothing in time, is not. */
async function probe(url: string, timeoutMs: number): Promise<Probe> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await res.body?.cancel();
    return { ok: true, status: res.status, date: res.headers.get('date') ?? undefined };
  } catch (e) {
    const c = (e as { cause?: { code?: string; message?: string } }).cause;
    const cause = c?.code ?? c?.message;
    const name = (e as Error).name;
    return { ok: false, error: name === 'TimeoutError' ? 'no answer in time' : (cause ?? (e as Error).message) };
  }
}

export type DoctorDeps = Pick<Ports, 'display' | 'service' | 'contexts' | 'clock'>;

function configCheck(contexts: Ports['contexts']): Check {
  try {
    const n = Object.keys(contexts.store().contexts()).length;
    const damaged = contexts.store().secretsDamage();
    if (damaged) return { check: 'config', status: 'fail', message: damaged, fix: 'fix the file, or log in again' };
    return { check: 'config', status: 'ok', message: `${contexts.configDir()}: ${n} saved context(s)` };
  } catch (e) {
    return { check: 'config', status: 'fail', message: (e as Error).message, fix: (e as CoinopError).hint };
  }
}

async function policyCheck(configDir: string, name: string): Promise<Check> {
  const { policyLocation } = await import('../../policy/location.js');
  const at = policyLocation(configDir, name);
  if (at.problem)
    return {
      check: 'policy',
      profile: name,
      status: 'fail',
      message: `${at.problem}: every command that moves money is refused`,
      fix: `make ${at.path} a readable policy file, or remove it to have no rules`,
    };
  if (!at.exists) return { check: 'policy', profile: name, status: 'ok', message: 'no policy file' };
  if (at.others.length)
    return {
      check: 'policy',
      profile: name,
      status: 'fail',
      message: `more than one policy file (${[at.path, ...at.others].join(', ')}): every command that moves money is refused`,
      fix: 'keep one of them',
    };
  try {
    const { loadPolicyFile } = await import('../../policy/load.js');
    loadPolicyFile(at.path);
    return { check: 'policy', profile: name, status: 'ok', message: `${at.path} loads` };
  } catch (e) {
    return { check: 'policy', profile: name, status: 'fail', message: (e as Error).message, fix: `edit ${at.path}` };
  }
}

/** The endpoints (in parallel), then the token and the clock when the API answers. */
async function contextChecks(deps: DoctorDeps, context: ResolvedContext, options: DoctorOptions): Promise<Check[]> {
  const at = (check: string, status: Status, message: string, fix?: string): Check => ({
    check,
    profile: context.name,
    status,
    message,
    ...(fix ? { fix } : {}),
  });
  const urls = { api: context.baseUrl, token: context.authUrl, stream: context.wsUrl.replace(/^ws/, 'http') };
  const probes = await Promise.all(Object.values(urls).map((u) => probe(u, options.timeoutMs)));
  const api = probes[0];
  if (context.environment === 'local' && !api.ok && api.error === 'ECONNREFUSED')
    return [
      at('endpoints', 'ok', `nothing listens at ${context.baseUrl}: commands start the local service in-process`),
    ];
  const down = Object.keys(urls).filter((_, i) => !probes[i].ok);
  const checks = [
    down.length
      ? at(
          'endpoints',
          'fail',
          down
            .map((k) => `${k} ${urls[k as keyof typeof urls]}: ${probes[Object.keys(urls).indexOf(k)].error}`)
            .join('; '),
          `check the network and the addresses (coinop context show ${context.name}); coinop login again if they moved`,
        )
      : at('endpoints', 'ok', `api, token and stream answer (${context.baseUrl})`),
  ];
  if (!api.ok) return checks;
  if (context.environment === 'local') {
    const local = await localServiceCheck(context, options.timeoutMs);
    checks.push(at('local service', local.status, local.message, local.fix));
    // Another program on the port: no token is asked of it (the client secret is not sent there).
    if (local.status === 'fail') return checks;
  }
  if (api.date) {
    const skew = Math.round((deps.clock.now() - Date.parse(api.date)) / 1000);
    const status = Math.abs(skew) >= SKEW_FAIL_S ? 'fail' : Math.abs(skew) >= SKEW_WARN_S ? 'warn' : 'ok';
    checks.push(
      at(
        'clock',
        status,
        `${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} the service`,
        status === 'ok' ? undefined : 'set the clock by NTP (timedatectl set-ntp true)',
      ),
    );
  }
  checks.push(await tokenCheck(deps.service, context, at));
  return checks;
}

/**
 * A local context's address must be a coinop local service (its health check names its instance), the rule every
 * command keeps before the client secret leaves: another program on the port fails, with the same words.
 */
async function localServiceCheck(
  context: ResolvedContext,
  timeoutMs: number,
): Promise<Pick<Check, 'status' | 'message' | 'fix'>> {
  const { probeHealth, notLocalService } = await import('../../client/service-identity.js');
  const probe = await probeHealth(context.baseUrl, timeoutMs);
  if (probe.kind !== 'answered') {
    const why = probe.kind === 'failed' ? probe.code : probe.kind === 'silent' ? 'no answer in time' : 'refused';
    return { status: 'fail', message: `GET ${context.baseUrl}/_local/health: ${why}` };
  }
  const id = probe.instanceId ?? probe.headerId;
  if (id) return { status: 'ok', message: `a coinop local service (instance ${id})` };
  const e = notLocalService(context, 'GET /_local/health', probe);
  return { status: 'fail', message: e.message, fix: e.hint };
}

/** A token is fetched (never the cached one, never printed): the credentials work now. */
async function tokenCheck(
  service: Ports['service'],
  context: ResolvedContext,
  at: (check: string, status: Status, message: string, fix?: string) => Check,
): Promise<Check> {
  if (!context.envToken && !context.clientSecret)
    return at('token', 'fail', 'no client secret saved', `coinop login --context ${context.name}`);
  try {
    const conn = await service.connectAs(context, { quiet: true, tokenCache: false, live: true });
    const t = await conn.tokens.token();
    const scopes = (t.scope ?? '').split(' ').filter(Boolean).length;
    return at('token', 'ok', `a token was issued${scopes ? ` (${scopes} scopes)` : ''}`);
  } catch (e) {
    const fix =
      e instanceof CoinopError && e.category === 'auth'
        ? `coinop login --context ${context.name}`
        : e instanceof CoinopError
          ? e.hint
          : undefined;
    return at('token', 'fail', (e as Error).message, fix);
  }
}

/** The saved contexts (only --context's when given); none saved: the one in use. */
function contextsToCheck(deps: DoctorDeps): ResolvedContext[] {
  const store = deps.contexts.store();
  const names = Object.keys(store.contexts());
  if (deps.contexts.flag() || !names.length) return [deps.service.context()];
  return names.map((n) => resolveContext(store, n, deps.contexts.settings()));
}

export async function doctor(deps: DoctorDeps, options: DoctorOptions): Promise<void> {
  const { contexts } = deps;
  const config = configCheck(contexts);
  const checks: Check[] = [config, ...permissionChecks(contexts.configDir(), deps.service.dataDir())];
  if (config.status !== 'fail') {
    const toCheck = contextsToCheck(deps);
    const perContext = await Promise.all(
      toCheck.map(async (p) => [
        ...(await contextChecks(deps, p, options)),
        await policyCheck(contexts.configDir(), p.name),
      ]),
    );
    checks.push(...perContext.flat());
  }
  checks.push(completionCheck(contexts.env));
  await show(deps.display, checks);
  const failed = checks.filter((c) => c.status === 'fail').length;
  if (failed) throw new CoinopError('api', `doctor: ${failed} of ${checks.length} checks failed`);
}

async function show(display: Ports['display'], checks: Check[]): Promise<void> {
  const out = display.output();
  if (out.format !== 'table') {
    // `context` beside `profile`, this field's first name (JSON fields are only added, never renamed).
    await out.list(
      checks.map((c) => ({ ...c, ...(c.profile !== undefined ? { context: c.profile } : {}) })),
      [{ key: 'status' }, { key: 'check' }, { key: 'context' }, { key: 'profile' }, { key: 'message' }, { key: 'fix' }],
    );
    return;
  }
  const p = palette(display.io.colour);
  const mark = { ok: p.green('ok  '), warn: p.yellow('warn'), fail: p.red('fail') };
  for (const c of checks) {
    display.io.out(`${mark[c.status]}  ${c.check}${c.profile ? ` [context ${c.profile}]` : ''}: ${c.message}\n`);
    if (c.fix) display.io.out(`      fix: ${c.fix}\n`);
  }
}
