// profile list, use and show.
import type { CliContext } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
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
