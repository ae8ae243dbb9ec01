// coinop profiles list, get and create.
import { operations } from '../../contract/index.js';
import type { Ports } from '../../cli/ports.js';
import { profileNamed } from '../../cli/service-profiles.js';
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

export async function list(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: ProfilesListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = conn.client.items('listProfiles', { query: options.query }, PROFILES_FLAGS, options.all, paging);
  const n = await out.list(items, PROFILE_COLUMNS, { empty: 'no profiles match' });
  listFooter(display, out, n, ['profile', 'profiles'], options.all ? undefined : paging.next);
}

export async function get(
  { display, service, prompter: pr }: Pick<Ports, 'display' | 'service' | 'prompter'>,
  options: ProfilesGetOptions,
): Promise<void> {
  const { id } = await profileNamed(
    { service, prompter: pr },
    { flag: 'ID', given: options.id ?? service.context().profileId, question: "The service's profile" },
  );
  const parts = {
    params: { profile_id: id },
    ...(options.includeDeactivated ? { query: { include_deactivated: 'true' } } : {}),
  };
  checkRequest(operations.getProfile, parts, PROFILES_FLAGS, service.catalogue());
  const conn = await service.connect();
  display.output().one((await conn.client.call('getProfile', parts, PROFILES_FLAGS)).data, PROFILE_COLUMNS);
}

export async function create(
  { display, service, prompter: pr, interrupt }: Pick<Ports, 'display' | 'service' | 'prompter' | 'interrupt'>,
  options: ProfilesCreateOptions,
): Promise<void> {
  const nickname = await need(pr, '--nickname', options.nickname, () => pr.text('Nickname of the new service profile'));
  const body = { nickname, ...(options.description !== undefined ? { description: options.description } : {}) };
  checkRequest(operations.createProfile, { body }, PROFILES_FLAGS, service.catalogue());
  interrupt.say(
    `interrupted: profile ${nickname} may have been created: check with coinop profiles list --nickname ${nickname}`,
  );
  const conn = await service.connect();
  const { data } = await conn.client.call('createProfile', { body }, PROFILES_FLAGS);
  const out = display.output();
  if (out.format === 'table') display.io.err(`${out.p.green('✓')} service profile created: ${data.id}\n`);
  out.one(data, PROFILE_COLUMNS);
}
