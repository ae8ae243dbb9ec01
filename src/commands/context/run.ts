// coinop context (old name: coinop context) list, use, show, rename, delete and set-profile-id.
import { ID_MAX_LENGTH } from '../../contract/schemas.js';
import type { Invocation } from '../../cli/invocation.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import { activeContextName, checkContextName, LOCAL_CONTEXT, savedContexts } from '../../config/context.js';
import type { StoredContext } from '../../config/store.js';

function row(ctx: Invocation, name: string, stored: StoredContext, active: string) {
  const store = ctx.store();
  return {
    name,
    active: name === active,
    environment: stored.environment,
    base_url: stored.baseUrl,
    auth_url: stored.authUrl,
    ws_url: stored.wsUrl,
    client_id: stored.clientId,
    scopes: stored.scopes,
    service_profile_id: stored.profileId,
    has_secret: name === LOCAL_CONTEXT && !store.context(LOCAL_CONTEXT) ? true : store.secret(name) !== undefined,
    built_in: name === LOCAL_CONTEXT && !store.context(LOCAL_CONTEXT),
  };
}

export async function list(ctx: Invocation): Promise<void> {
  const active = activeContextName(ctx.store(), ctx.globals.context, ctx.settings);
  const rows = Object.entries(savedContexts(ctx.store())).map(([n, p]) => row(ctx, n, p, active));
  const out = ctx.output();
  if (out.format === 'table') {
    out.table(
      rows.map((r) => ({ ...r, active: r.active ? '*' : '' })),
      [
        { key: 'active', header: ' ' },
        { key: 'name' },
        { key: 'environment' },
        { key: 'client_id', header: 'client id' },
        { key: 'base_url', header: 'api' },
      ],
    );
  } else
    await out.list(rows, [
      { key: 'name' },
      { key: 'active' },
      { key: 'environment' },
      { key: 'client_id' },
      { key: 'base_url' },
      { key: 'auth_url' },
      { key: 'ws_url' },
    ]);
}

export async function use(ctx: Invocation, name: string): Promise<void> {
  if (!Object.hasOwn(savedContexts(ctx.store()), name))
    throw usageError(`context: no context named "${name}" (see coinop context list)`);
  await ctx.store().setActive(name);
  ctx.io.err(`Context "${name}" is now active.\n`);
}

export async function show(ctx: Invocation, name?: string): Promise<void> {
  const n = name ?? activeContextName(ctx.store(), ctx.globals.context, ctx.settings);
  const profiles = savedContexts(ctx.store());
  const p = Object.hasOwn(profiles, n) ? profiles[n] : undefined;
  if (!p) throw usageError(`context: no context named "${n}" (see coinop context list)`);
  const active = activeContextName(ctx.store(), ctx.globals.context, ctx.settings);
  ctx.output().one(row(ctx, n, p, active));
}

/** A saved profile by name, or a usage error (the built-in local one is not saved: nothing to rename or delete). */
function saved(ctx: Invocation, name: string, what: string): void {
  if (ctx.store().context(name)) return;
  if (name === LOCAL_CONTEXT)
    throw usageError(`${what}: "local" is built in, not saved (coinop login --env local --name NAME saves one)`);
  throw usageError(`${what}: no saved context named "${name}" (see coinop context list)`);
}

export async function rename(ctx: Invocation, from: string, to: string): Promise<void> {
  saved(ctx, from, 'context rename');
  checkContextName(to, 'context rename: NEW');
  if (Object.hasOwn(savedContexts(ctx.store()), to))
    throw usageError(`context rename: a context named "${to}" exists already`);
  const { linkPolicy } = await import('./policy.js');
  const policy = linkPolicy(ctx.settings.configDir, from, to);
  try {
    await ctx.store().renameProfile(from, to);
  } catch (e) {
    policy.undo();
    throw e;
  }
  const left = policy.commit();
  const moved = policy.files.map((f) => f.to).join(', ');
  ctx.io.err(`Context "${from}" is now "${to}"${moved ? `, with its policy (${moved})` : ''}.\n`);
  if (left.length) ctx.io.err(`warning: the policy's old name could not be removed: ${left.join(', ')}\n`);
}

export async function remove(ctx: Invocation, name: string, yes: boolean): Promise<void> {
  saved(ctx, name, 'context delete');
  if (!yes) {
    if (!ctx.prompter.allowed)
      throw usageError(`context delete: add --yes to delete "${name}" without a terminal to ask on`);
    if (!(await ctx.prompter.confirm(`Delete context "${name}", its secret and cached tokens?`)))
      throw new CoinopError('cancelled', 'not deleted');
  }
  await ctx.store().removeProfile(name);
  const { keptPolicyNote } = await import('./policy.js');
  const kept = keptPolicyNote(ctx.settings.configDir, name);
  ctx.io.err(`Context "${name}" is deleted, with its secret and cached tokens.${kept ? ` ${kept}` : ''}\n`);
}

export async function setProfileId(ctx: Invocation, id: string, name?: string): Promise<void> {
  const n = name ?? activeContextName(ctx.store(), ctx.globals.context, ctx.settings);
  saved(ctx, n, 'context set-profile-id');
  const v = id.trim();
  if (v.length > ID_MAX_LENGTH || /\s/.test(v))
    throw usageError(
      `context set-profile-id: PROFILE-ID must be the service's profile id: no spaces, up to ${ID_MAX_LENGTH} characters (see coinop profiles list)`,
    );
  await ctx.store().setProfileId(n, v || undefined);
  ctx.io.err(
    v
      ? `Context "${n}" now uses the service profile ${v} by default.\n`
      : `Context "${n}" has no default service profile now.\n`,
  );
}
