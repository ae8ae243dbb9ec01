// coinop gateway: init (the store and an admin operator), start (the server in the foreground, holding the upstream
// context's credentials), operators add|list|disable|enable, policy show|set|history. The administration commands
// work on the store directly, on the machine that runs the gateway; each change is an entry in the store's audit chain.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Ports } from '../../cli/ports.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import { resolveContext } from '../../config/context.js';
import { storeKind } from '../../gateway/sql.js';
import type { GatewayOptions, RunningGateway } from '../../gateway/server.js';
import type { GatewayStore } from '../../gateway/store.js';
import type { Role } from '../../gateway/operators.js';
import type { PolicySetOptions, StartOptions, StoreOptions } from './options.js';

/**
 * What the administration commands take: what the operator sees, the way out (the store closed), the store's clock and
 * the environment (the person at this machine, named in the store's audit chain).
 */
export type AdminDeps = Pick<Ports, 'display' | 'interrupt' | 'clock' | 'contexts'>;

/** What start takes besides: the upstream context's connection and the signals a server in the foreground owns. */
export type StartDeps = AdminDeps & Pick<Ports, 'service' | 'foreground'>;

/** The store the options name, opened and brought up to date; closed when the command ends. */
export async function openStore(ctx: Pick<Ports, 'interrupt' | 'clock'>, options: StoreOptions): Promise<GatewayStore> {
  const [{ openSql }, { GatewayStore }] = await Promise.all([
    import('../../gateway/sql.js'),
    import('../../gateway/store.js'),
  ]);
  const { dialect, target } = storeKind(options.store);
  if (dialect === 'sqlite') mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  let sql: Awaited<ReturnType<typeof openSql>>;
  try {
    sql = await openSql(options.store);
  } catch (e) {
    throw new CoinopError(
      'file',
      `the gateway store ${redactUrl(options.store)} cannot be opened (${(e as Error).message})`,
    );
  }
  ctx.interrupt.onExit(() => sql.close());
  const store = new GatewayStore(sql, () => ctx.clock.now());
  try {
    await store.init();
  } catch (e) {
    throw new CoinopError(
      'file',
      `the gateway store ${redactUrl(options.store)} cannot be used (${(e as Error).message})`,
    );
  }
  return store;
}

/** A store URL with its password left out (it is never printed). */
export const redactUrl = (url: string): string => url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');

/** coinop gateway init: the store, and an admin operator whose secret is shown this once. */
export async function init(ctx: AdminDeps, options: StoreOptions): Promise<void> {
  const store = await openStore(ctx, options);
  const admins = (await store.operators()).filter((op) => op.role === 'admin');
  if (admins.length) {
    ctx.display.io.err(
      `the gateway store ${redactUrl(options.store)} is ready; it has an admin already (${admins[0].name})\n`,
    );
    return;
  }
  const creds = await store.addOperator('admin', 'admin');
  await recordAdmin(ctx, store, 'gateway_init', { operator: 'admin', role: 'admin' });
  showCredentials(ctx, 'admin', 'admin', creds);
}

function showCredentials(
  ctx: Pick<Ports, 'display'>,
  name: string,
  role: Role,
  credentials: { clientId: string; secret: string },
): void {
  ctx.display
    .output()
    .one({ operator: name, role, client_id: credentials.clientId, client_secret: credentials.secret });
  ctx.display.io.err(
    'the client secret is shown this once and kept only as a hash: hand it to the operator, who logs in with\n' +
      `  coinop login --env custom --name gw --base-url <gateway> --auth-url <gateway> --ws-url <gateway ws>/ws \\\n` +
      `    --client-id ${credentials.clientId} --client-secret-stdin --profile-id <the service profile to use>\n`,
  );
}

/** An administration change in the store's audit chain, naming the person at this machine. */
async function recordAdmin(
  ctx: Pick<Ports, 'contexts'>,
  store: GatewayStore,
  change: string,
  what: Record<string, unknown>,
): Promise<void> {
  const { osUser } = await import('../../audit/who.js');
  await store.appendAudit([
    {
      who: { os_user: osUser(ctx.contexts.env) },
      event: { kind: 'gateway_admin', ref_id: null, what: { change, ...what }, outcome: { result: 'sent' } },
    },
  ]);
}

export async function addOperator(ctx: AdminDeps, options: StoreOptions, name: string, role: Role): Promise<void> {
  const store = await openStore(ctx, options);
  if (await store.operator(name)) throw usageError(`NAME: the gateway has an operator ${name} already`);
  const creds = await store.addOperator(name, role);
  await recordAdmin(ctx, store, 'operator_added', { operator: name, role });
  showCredentials(ctx, name, role, creds);
}

export async function listOperators(ctx: AdminDeps, options: StoreOptions): Promise<void> {
  const store = await openStore(ctx, options);
  const rows = (await store.operators()).map((op) => ({
    name: op.name,
    role: op.role,
    client_id: op.clientId,
    disabled: op.disabled,
    approver_key: op.approverKey,
    created_at: op.createdAt,
  }));
  await ctx.display
    .output()
    .list(rows, [
      { key: 'name' },
      { key: 'role' },
      { key: 'client_id', kind: 'id' },
      { key: 'disabled' },
      { key: 'created_at', kind: 'time' },
    ]);
}

export async function setDisabled(
  ctx: AdminDeps,
  options: StoreOptions,
  name: string,
  disabled: boolean,
): Promise<void> {
  const store = await openStore(ctx, options);
  if (!(await store.setDisabled(name, disabled))) throw usageError(`NAME: the gateway has no operator ${name}`);
  await recordAdmin(ctx, store, disabled ? 'operator_disabled' : 'operator_enabled', { operator: name });
  ctx.display.io.err(`${name} is ${disabled ? 'disabled: their tokens stop working now' : 'enabled'}\n`);
}

export async function policyShow(ctx: AdminDeps, options: StoreOptions): Promise<void> {
  const { display } = ctx;
  const store = await openStore(ctx, options);
  const p = await store.policy();
  if (!p) {
    display.io.err(
      'the gateway has no policy yet: every money-moving request passes (coinop gateway policy set FILE)\n',
    );
    return display.output().one({ version: 0, body: null });
  }
  if (display.format() === 'table') display.io.out(p.body.endsWith('\n') ? p.body : `${p.body}\n`);
  else display.output().one({ version: p.version, sha256: p.sha256, set_by: p.setBy, set_at: p.setAt, body: p.body });
}

/** What policy set takes besides: the current context's connection (--gateway sends the file to its gateway). */
export type PolicySetDeps = AdminDeps & Pick<Ports, 'service'>;

export async function policySet(ctx: PolicySetDeps, options: PolicySetOptions, file: string): Promise<void> {
  const { loadPolicyFile, PolicyFileError, formatPolicyIssue } = await import('../../policy/load.js');
  let sha256: string;
  try {
    sha256 = loadPolicyFile(file).sha256;
  } catch (e) {
    if (e instanceof PolicyFileError) throw usageError(e.issues.map((i) => formatPolicyIssue(file, i)).join('; '));
    throw e;
  }
  if (options.gateway) return policySetThroughGateway(ctx, file, sha256);
  const store = await openStore(ctx, options);
  const [{ osUser }, { PolicyChanges }] = await Promise.all([
    import('../../audit/who.js'),
    import('../../gateway/held-policy-changes.js'),
  ]);
  const user = osUser(ctx.contexts.env);
  const changes = new PolicyChanges(store, { now: () => ctx.clock.now(), ttlMs: options.approvalTtlMs });
  const text = readFileSync(file, 'utf8');
  const proposal = await changes.propose({ text, sha256, file, proposer: user, who: { os_user: user } });
  if (proposal.set) {
    ctx.display.io.err(`the gateway's policy is version ${proposal.version} now (sha256 ${sha256.slice(0, 12)}…)\n`);
    return;
  }
  const id = proposal.pending.id;
  ctx.display.io.err(
    `held: the policy in force (version ${proposal.replaces}) needs ${approvalsWord(proposal.required)} for a change: pending ${id} (sha256 ${sha256.slice(0, 12)}…); an approver runs coinop approvals approve ${id}\n`,
  );
  showHeldChange(ctx, (await changes.answer(proposal.pending)).body);
}

const approvalsWord = (n: number) => `${n} approval${n === 1 ? '' : 's'}`;

/** A held policy change as policy set shows it. */
function showHeldChange(ctx: Pick<Ports, 'display'>, held: Record<string, unknown>): void {
  ctx.display.output().one(held, [
    { key: 'pending_id', kind: 'id' },
    { key: 'status', kind: 'status' },
    { key: 'request.sha256', header: 'sha256' },
    { key: 'request.replaces_version', header: 'replaces version' },
    { key: 'approvals_required', header: 'approvals needed' },
    { key: 'expires_at', kind: 'time' },
  ]);
}

/** policy set --gateway: the file sent to the current context's gateway (PUT /_gateway/policy; an admin's login). */
async function policySetThroughGateway(
  ctx: Pick<Ports, 'display' | 'service'>,
  file: string,
  sha256: string,
): Promise<void> {
  const { gatewayCall } = await import('../../client/gateway-calls.js');
  const { client } = await ctx.service.connect();
  const answer = await gatewayCall(client, 'setPolicy', { body: { policy: readFileSync(file, 'utf8'), file } });
  if ('version' in answer) {
    ctx.display.io.err(`the gateway's policy is version ${answer.version} now (sha256 ${sha256.slice(0, 12)}…)\n`);
    return;
  }
  const id = String(answer.pending_id);
  ctx.display.io.err(
    `held: the policy in force needs ${approvalsWord(Number(answer.approvals_required))} for a change: pending ${id} (sha256 ${sha256.slice(0, 12)}…); an approver runs coinop approvals approve ${id}\n`,
  );
  showHeldChange(ctx, answer);
}

export async function policyHistory(ctx: AdminDeps, options: StoreOptions): Promise<void> {
  const store = await openStore(ctx, options);
  const rows = (await store.policyHistory()).map((p) => ({
    version: p.version,
    sha256: p.sha256,
    set_by: p.setBy,
    set_at: p.setAt,
  }));
  await ctx.display
    .output()
    .list(rows, [
      { key: 'version' },
      { key: 'sha256', kind: 'id' },
      { key: 'set_by' },
      { key: 'set_at', kind: 'time' },
    ]);
}

/** The gateway serving, over the upstream context's connection; for start and for tests. */
export async function serveGateway(
  ctx: Pick<Ports, 'interrupt' | 'clock' | 'contexts' | 'service'>,
  options: StartOptions & Pick<GatewayOptions, 'desk' | 'tokenFailuresPerMinute'>,
): Promise<RunningGateway> {
  const store = await openStore(ctx, options);
  const resolved = resolveContext(ctx.contexts.store(), options.upstream, ctx.contexts.settings());
  const conn = await ctx.service.connectAs(resolved);
  const [{ startGateway }, { gatewayUpstream }] = await Promise.all([
    import('../../gateway/server.js'),
    import('../../gateway/upstream.js'),
  ]);
  const gw = await startGateway({
    store,
    upstream: gatewayUpstream(conn, ctx.service.catalogue()),
    host: options.host,
    port: options.port,
    tls: options.tls,
    now: () => ctx.clock.now(),
    ratePerSecond: options.rate,
    approvalTtlMs: options.approvalTtlMs,
    desk: options.desk,
    tokenFailuresPerMinute: options.tokenFailuresPerMinute,
  });
  ctx.interrupt.onExit(() => gw.close());
  return gw;
}

/** coinop gateway start: serves until SIGINT or SIGTERM, then stops cleanly (exit 0). */
export async function start(ctx: StartDeps, options: StartOptions): Promise<void> {
  ctx.foreground.own();
  let gw: RunningGateway;
  try {
    gw = await serveGateway(ctx, options);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'EADDRINUSE')
      throw usageError(`--port: ${options.host}:${options.port} is in use already; nothing was started`);
    throw e;
  }
  ctx.display.io.err(
    `coinop gateway at ${gw.url} (stream ${gw.wsUrl}) for context ${options.upstream}; store ${redactUrl(options.store)}. Ctrl-C stops it.\n`,
  );
  await ctx.foreground.stopped();
  await gw.close();
  ctx.display.io.err('coinop gateway stopped\n');
}
