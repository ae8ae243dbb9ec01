// coinop profiles list, get and create.
import { operations, type Profile } from '../../contract/index.js';
import type { Invocation } from '../../cli/invocation.js';
import { need } from '../../cli/prompt.js';
import { listFooter } from '../../cli/list-flags.js';
import { checkRequest, type Paging } from '../../client/service-client.js';
import { PROFILE_COLUMNS } from '../../render/columns.js';
import {
  PROFILES_FLAGS,
  type ProfilesCreateOptions,
  type ProfilesGetOptions,
  type ProfilesListOptions,
} from './options.js';

export async function list(ctx: Invocation, o: ProfilesListOptions): Promise<void> {
  const conn = await ctx.connect();
  const out = ctx.output(o.view);
  const paging: Paging = {};
  const items = conn.client.items('listProfiles', { query: o.query }, PROFILES_FLAGS, o.all, paging);
  const n = await out.list(items, PROFILE_COLUMNS, { empty: 'no profiles match' });
  listFooter(ctx, out, n, ['profile', 'profiles'], o.all ? undefined : paging.next);
}

export async function get(ctx: Invocation, o: ProfilesGetOptions): Promise<void> {
  const pr = ctx.prompter;
  const id = await need(pr, 'ID', o.id ?? ctx.context().profileId, () =>
    pr.text("The service's profile id (or default)"),
  );
  const parts = {
    params: { profile_id: id },
    ...(o.includeDeactivated ? { query: { include_deactivated: 'true' } } : {}),
  };
  checkRequest(operations.getProfile, parts, PROFILES_FLAGS, ctx.catalogue());
  const conn = await ctx.connect();
  ctx.output().one((await conn.client.call<Profile>('getProfile', parts, PROFILES_FLAGS)).data, PROFILE_COLUMNS);
}

export async function create(ctx: Invocation, o: ProfilesCreateOptions): Promise<void> {
  const pr = ctx.prompter;
  const nickname = await need(pr, '--nickname', o.nickname, () => pr.text('Nickname of the new service profile'));
  const body = { nickname, ...(o.description !== undefined ? { description: o.description } : {}) };
  checkRequest(operations.createProfile, { body }, PROFILES_FLAGS, ctx.catalogue());
  ctx.interruptNote = `interrupted: profile ${nickname} may have been created: check with coinop profiles list --nickname ${nickname}`;
  const conn = await ctx.connect();
  const { data } = await conn.client.call<Profile>('createProfile', { body }, PROFILES_FLAGS);
  const out = ctx.output();
  if (out.format === 'table') ctx.io.err(`${out.p.green('✓')} service profile created: ${data.id}\n`);
  out.one(data, PROFILE_COLUMNS);
}
