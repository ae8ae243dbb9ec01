// coinop addresses list and create.
import { randomUUID } from 'node:crypto';
import { CRYPTO_NETWORKS, operations, type CryptoNetwork, type DepositAddress } from '../../api/index.js';
import type { CliContext } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { keyValues, parseTime } from '../../cli/options.js';
import { need } from '../../cli/prompt.js';
import { checkRequest, type FlagNames } from '../../client/api.js';
import { DEPOSIT_ADDRESS_COLUMNS } from '../../render/columns.js';

interface ListOptions {
  profileId?: string[];
  identityId?: string[];
  accountId?: string[];
  id?: string[];
  refId?: string[];
  network?: string[];
  createdBefore?: string;
  createdUntil?: string;
  createdAt?: string;
  createdFrom?: string;
  createdAfter?: string;
  limit?: string;
  order?: string;
  orderBy?: string;
  cursor?: string;
  all?: boolean;
}

const LIST_FLAGS: FlagNames = {
  profile_ids: '--profile-id',
  identity_ids: '--identity-id',
  account_ids: '--account-id',
  ids: '--id',
  ref_ids: '--ref-id',
  networks: '--network',
  'created_at.lt': '--created-before',
  'created_at.lte': '--created-until',
  'created_at.eq': '--created-at',
  'created_at.gte': '--created-from',
  'created_at.gt': '--created-after',
  limit: '--limit',
  order: '--order',
  order_by: '--order-by',
  page_cursor: '--cursor',
};

export function listQuery(ctx: CliContext, o: ListOptions): Record<string, unknown> {
  const now = ctx.now();
  const q: Record<string, unknown> = {
    profile_ids: o.profileId,
    identity_ids: o.identityId,
    account_ids: o.accountId,
    ids: o.id,
    ref_ids: o.refId,
    networks: o.network?.map((n) => n.toUpperCase()),
    'created_at.lt': parseTime(o.createdBefore, now),
    'created_at.lte': parseTime(o.createdUntil, now),
    'created_at.eq': parseTime(o.createdAt, now),
    'created_at.gte': parseTime(o.createdFrom, now),
    'created_at.gt': parseTime(o.createdAfter, now),
    limit: o.limit,
    order: o.order,
    order_by: o.orderBy,
    page_cursor: o.cursor,
  };
  for (const k of Object.keys(q)) if (q[k] === undefined) delete q[k];
  return q;
}

export async function list(ctx: CliContext, o: ListOptions): Promise<void> {
  const query = listQuery(ctx, o);
  checkRequest(operations.listDepositAddresses, { query }, LIST_FLAGS);
  const conn = await ctx.connect();
  const out = ctx.output();
  const n = await out.list(conn.client.items('listDepositAddresses', { query }, LIST_FLAGS, !!o.all), DEPOSIT_ADDRESS_COLUMNS, { empty: 'no deposit addresses match' });
  if (out.format === 'table' && n) ctx.io.err(out.p.dim(`${n} deposit address${n === 1 ? '' : 'es'}`) + '\n');
}

const CREATE_FLAGS: FlagNames = {
  profile_id: '--profile-id',
  crypto_network: '--network',
  identity_id: '--identity-id',
  account_id: '--account-id',
  ref_id: '--ref-id',
  conversion_target_asset: '--conversion',
  metadata: '--meta',
};

export async function create(
  ctx: CliContext,
  o: { network?: string; profileId?: string; identityId?: string; accountId?: string; refId?: string; conversion?: string; meta?: string[] },
): Promise<void> {
  const metadata = keyValues('--meta', o.meta);
  const pr = ctx.prompter;
  const profile = ctx.profile();
  const network = await need(pr, '--network', o.network?.toUpperCase() as CryptoNetwork | undefined, () => pr.select<CryptoNetwork>('Network', [...CRYPTO_NETWORKS]));
  const profileId = await need(pr, '--profile-id', o.profileId ?? profile.profileId, () => pr.text("The service's profile id"));
  const refId = o.refId ?? `coinop-${randomUUID()}`;
  const body = {
    profile_id: profileId,
    crypto_network: network,
    ref_id: refId,
    ...(o.identityId !== undefined ? { identity_id: o.identityId } : {}),
    ...(o.accountId !== undefined ? { account_id: o.accountId } : {}),
    ...(o.conversion !== undefined ? { conversion_target_asset: o.conversion } : {}),
    ...(metadata ? { metadata } : {}),
  };
  checkRequest(operations.createDepositAddress, { body }, CREATE_FLAGS);
  if (o.refId === undefined) ctx.io.err(`ref_id ${refId}\n`);
  const conn = await ctx.connect();
  const res = await conn.client.call<DepositAddress>('createDepositAddress', { body }, CREATE_FLAGS);
  const out = ctx.output();
  if (res.alreadySubmitted) ctx.io.err(`${out.p.yellow('already exists')}: ref_id ${refId} was used before; the existing deposit address:\n`);
  out.one(res.data, DEPOSIT_ADDRESS_COLUMNS);
  void usageError;
}
