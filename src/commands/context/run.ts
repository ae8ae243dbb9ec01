// coinop context (old name: coinop context) list, use, show, rename, delete and set-profile-id.
import { isUuid, profileLabel, profileNamed, type ProfileRef } from '../../cli/service-profiles.js';
import { ID_MAX_LENGTH } from '../../contract/schemas.js';
import { didYouMean } from '../../contract/suggest.js';
import type { Ports } from '../../cli/ports.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import {
  activeContextName,
  checkContextName,
  contextNames,
  LOCAL_CONTEXT,
  savedContexts,
} from '../../config/context.js';
import type { StoredContext } from '../../config/store.js';

export type ContextDeps = Pick<Ports, 'display' | 'contexts'>;

/** The context in use: --context, else COINOP_CONTEXT, else the file's active one, else the built-in local one. */
const activeName = (contexts: Ports['contexts']) =>
  activeContextName(contexts.store(), contexts.flag(), contexts.settings());

function row(contexts: Ports['contexts'], name: string, stored: StoredContext, active: string) {
  const store = contexts.store();
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

export async function list(deps: ContextDeps): Promise<void> {
  const active = activeName(deps.contexts);
  const rows = Object.entries(savedContexts(deps.contexts.store())).map(([n, p]) => row(deps.contexts, n, p, active));
  const out = deps.display.output();
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

/** The error for a context name none is called, with a close one when there is. */
const unknownContext = (contexts: Ports['contexts'], name: string) =>
  usageError(
    `context: no context named "${name}"${didYouMean(name, contextNames(contexts.store()))}`,
    'see coinop context list',
  );

export async function use(deps: ContextDeps, name: string): Promise<void> {
  if (!Object.hasOwn(savedContexts(deps.contexts.store()), name)) throw unknownContext(deps.contexts, name);
  await deps.contexts.store().setActive(name);
  deps.display.io.err(`Context "${name}" is now active.\n`);
}

export async function show(deps: ContextDeps, name?: string): Promise<void> {
  const n = name ?? activeName(deps.contexts);
  const profiles = savedContexts(deps.contexts.store());
  const p = Object.hasOwn(profiles, n) ? profiles[n] : undefined;
  if (!p) throw unknownContext(deps.contexts, n);
  const active = activeName(deps.contexts);
  deps.display.output().one(row(deps.contexts, n, p, active));
}

/** A saved profile by name, or a usage error (the built-in local one is not saved: nothing to rename or delete). */
function saved(contexts: Ports['contexts'], name: string, what: string): void {
  if (contexts.store().context(name)) return;
  if (name === LOCAL_CONTEXT)
    throw usageError(`${what}: "local" is built in, not saved (coinop login --env local --name NAME saves one)`);
  throw usageError(`${what}: no saved context named "${name}" (see coinop context list)`);
}

export async function rename(deps: ContextDeps, from: string, to: string): Promise<void> {
  const { contexts, display } = deps;
  saved(contexts, from, 'context rename');
  checkContextName(to, 'context rename: NEW');
  if (Object.hasOwn(savedContexts(contexts.store()), to))
    throw usageError(`context rename: a context named "${to}" exists already`);
  const { linkPolicy } = await import('./policy.js');
  const policy = linkPolicy(contexts.configDir(), from, to);
  try {
    await contexts.store().renameContext(from, to);
  } catch (e) {
    policy.undo();
    throw e;
  }
  const left = policy.commit();
  const moved = policy.files.map((f) => f.to).join(', ');
  display.io.err(`Context "${from}" is now "${to}"${moved ? `, with its policy (${moved})` : ''}.\n`);
  if (left.length) display.io.err(`warning: the policy's old name could not be removed: ${left.join(', ')}\n`);
}

export async function remove(
  deps: Pick<Ports, 'display' | 'contexts' | 'prompter'>,
  name: string,
  yes: boolean,
): Promise<void> {
  const { contexts, prompter } = deps;
  saved(contexts, name, 'context delete');
  if (!yes) {
    if (!prompter.allowed)
      throw usageError(`context delete: add --yes to delete "${name}" without a terminal to ask on`);
    if (!(await prompter.confirm(`Delete context "${name}", its secret and cached tokens?`)))
      throw new CoinopError('cancelled', 'not deleted');
  }
  await contexts.store().removeContext(name);
  const { keptPolicyNote } = await import('./policy.js');
  const kept = keptPolicyNote(contexts.configDir(), name);
  deps.display.io.err(`Context "${name}" is deleted, with its secret and cached tokens.${kept ? ` ${kept}` : ''}\n`);
}

export type SetProfileIdDeps = ContextDeps & Pick<Ports, 'service' | 'prompter'>;

export async function setProfileId(deps: SetProfileIdDeps, id: string, name?: string): Promise<void> {
  const n = name ?? activeName(deps.contexts);
  saved(deps.contexts, n, 'context set-profile-id');
  const v = id.trim();
  if (v.length > ID_MAX_LENGTH || /\s/.test(v))
    throw usageError(
      `context set-profile-id: PROFILE-ID must be the service's profile id: no spaces, up to ${ID_MAX_LENGTH} characters (see coinop profiles list)`,
    );
  const profile = v ? await namedFor(deps, { context: n, value: v }) : undefined;
  await deps.contexts.store().setProfileId(n, profile?.id);
  deps.display.io.err(
    profile
      ? `Context "${n}" now uses the service profile ${profileLabel(profile)} by default.\n`
      : `Context "${n}" has no default service profile now.\n`,
  );
}

/**
 * The profile a value names for context `n`: a whole id as given (a context may be set before its service answers);
 * a nickname or id prefix looked up with the context in use, which must be `n` (another's credentials are not used).
 */
async function namedFor(deps: SetProfileIdDeps, asked: { context: string; value: string }): Promise<ProfileRef> {
  const { context, value } = asked;
  if (isUuid(value)) return { id: value };
  if (context !== activeName(deps.contexts))
    throw usageError(
      `context set-profile-id: "${value}" is not a profile id; a nickname is looked up with the context in use (run with --context ${context})`,
    );
  return profileNamed(
    { service: deps.service, prompter: deps.prompter },
    { flag: 'PROFILE-ID', given: value, question: '' },
  );
}
