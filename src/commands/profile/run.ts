// profile list, use and show.
import { ID_MAX_LENGTH } from '../../api/schemas.js';
import type { CliContext } from '../../cli/context.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import { builtinLocalProfile, LOCAL_PROFILE, activeProfileName } from '../../config/profile.js';
import type { StoredProfile } from '../../config/store.js';

function all(ctx: CliContext): Record<string, StoredProfile> {
  const stored = ctx.store().profiles();
  return stored[LOCAL_PROFILE] ? stored : { [LOCAL_PROFILE]: builtinLocalProfile(), ...stored };
}

/** Every profile's name, the built-in local one first; none when the configuration cannot be read (for completion). */
export function profileNames(ctx: CliContext): string[] {
  try {
    return Object.keys(all(ctx));
  } catch {
    return [LOCAL_PROFILE];
  }
}

function row(ctx: CliContext, name: string, p: StoredProfile, active: string) {
  const store = ctx.store();
  return {
    name,
    active: name === active,
    environment: p.environment,
    base_url: p.baseUrl,
    auth_url: p.authUrl,
    ws_url: p.wsUrl,
    client_id: p.clientId,
    scopes: p.scopes,
    service_profile_id: p.profileId,
    has_secret: name === LOCAL_PROFILE && !store.profile(LOCAL_PROFILE) ? true : store.secret(name) !== undefined,
    built_in: name === LOCAL_PROFILE && !store.profile(LOCAL_PROFILE),
  };
}

export async function list(ctx: CliContext): Promise<void> {
  const active = activeProfileName(ctx.store(), ctx.globals.profile, ctx.settings);
  const rows = Object.entries(all(ctx)).map(([n, p]) => row(ctx, n, p, active));
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

export async function use(ctx: CliContext, name: string): Promise<void> {
  if (!Object.hasOwn(all(ctx), name)) throw usageError(`profile: no profile named "${name}" (see coinop profile list)`);
  await ctx.store().setActive(name);
  ctx.io.err(`Profile "${name}" is now active.\n`);
}

export async function show(ctx: CliContext, name?: string): Promise<void> {
  const n = name ?? activeProfileName(ctx.store(), ctx.globals.profile, ctx.settings);
  const profiles = all(ctx);
  const p = Object.hasOwn(profiles, n) ? profiles[n] : undefined;
  if (!p) throw usageError(`profile: no profile named "${n}" (see coinop profile list)`);
  const active = activeProfileName(ctx.store(), ctx.globals.profile, ctx.settings);
  ctx.output().one(row(ctx, n, p, active));
}

/** A name a profile can be saved under: letters, digits, dot, dash and underscore, up to 64. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A saved profile by name, or a usage error (the built-in local one is not saved: nothing to rename or delete). */
function saved(ctx: CliContext, name: string, what: string): void {
  if (ctx.store().profile(name)) return;
  if (name === LOCAL_PROFILE)
    throw usageError(`${what}: "local" is built in, not saved (coinop login --env local saves one to change)`);
  throw usageError(`${what}: no saved profile named "${name}" (see coinop profile list)`);
}

export async function rename(ctx: CliContext, from: string, to: string): Promise<void> {
  saved(ctx, from, 'profile rename');
  if (!PROFILE_NAME.test(to))
    throw usageError(
      `profile rename: NEW must be letters, digits, ".", "-" or "_", starting with a letter or digit, up to 64 (got "${to}")`,
    );
  if (Object.hasOwn(all(ctx), to)) throw usageError(`profile rename: a profile named "${to}" exists already`);
  await ctx.store().renameProfile(from, to);
  ctx.io.err(`Profile "${from}" is now "${to}".\n`);
}

export async function remove(ctx: CliContext, name: string, yes: boolean): Promise<void> {
  saved(ctx, name, 'profile delete');
  if (!yes) {
    if (!ctx.prompter.allowed)
      throw usageError(`profile delete: add --yes to delete "${name}" without a terminal to ask on`);
    if (!(await ctx.prompter.confirm(`Delete profile "${name}", its secret and cached tokens?`)))
      throw new CoinopError('cancelled', 'not deleted');
  }
  await ctx.store().removeProfile(name);
  ctx.io.err(`Profile "${name}" is deleted, with its secret and cached tokens.\n`);
}

export async function setProfileId(ctx: CliContext, id: string, name?: string): Promise<void> {
  const n = name ?? activeProfileName(ctx.store(), ctx.globals.profile, ctx.settings);
  saved(ctx, n, 'profile set-profile-id');
  const v = id.trim();
  if (v.length > ID_MAX_LENGTH || /\s/.test(v))
    throw usageError(
      `profile set-profile-id: PROFILE-ID must be the service's profile id: no spaces, up to ${ID_MAX_LENGTH} characters (see coinop profiles list)`,
    );
  await ctx.store().setProfileId(n, v || undefined);
  ctx.io.err(
    v
      ? `Profile "${n}" now uses the service profile ${v} by default.\n`
      : `Profile "${n}" has no default service profile now.\n`,
  );
}
