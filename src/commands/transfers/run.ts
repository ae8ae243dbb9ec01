// coinop transfers list, get and watch.
import { operations, type Transfer } from '../../api/index.js';
import type { CliContext } from '../../cli/context.js';
import { CliError, usageError } from '../../cli/errors.js';
import { intFlag, parseTime } from '../../cli/options.js';
import { need } from '../../cli/prompt.js';
import { checkRequest, type FlagNames } from '../../client/api.js';
import { TRANSFER_COLUMNS, TRANSFER_LIST_COLUMNS } from '../../render/columns.js';
import { follow } from './follow.js';

const FLAGS: FlagNames = {
  ids: '--id',
  ref_ids: '--ref-id',
  profile_ids: '--profile-id',
  type: '--type',
  statuses: '--status',
  crypto_tx_hashes: '--tx-hash',
  group_ids: '--group-id',
  limit: '--limit',
  order: '--order',
  order_by: '--order-by',
  page_cursor: '--cursor',
  id: 'ID',
};
for (const [f, l] of [['created', 'created_at'], ['updated', 'updated_at']]) {
  Object.assign(FLAGS, { [`${l}.lt`]: `--${f}-before`, [`${l}.lte`]: `--${f}-until`, [`${l}.eq`]: `--${f}-at`, [`${l}.gte`]: `--${f}-from`, [`${l}.gt`]: `--${f}-after` });
}

type ListOptions = Record<string, string | string[] | boolean | undefined>;

export async function list(ctx: CliContext, o: ListOptions): Promise<void> {
  const now = ctx.now();
  const up = (v: unknown) => (Array.isArray(v) ? v.map((x) => String(x).toUpperCase()) : undefined);
  const query: Record<string, unknown> = {
    ids: o.id,
    ref_ids: o.refId,
    profile_ids: o.profileId,
    type: up(o.type),
    statuses: up(o.status),
    crypto_tx_hashes: o.txHash,
    group_ids: o.groupId,
    limit: o.limit,
    order: o.order,
    order_by: o.orderBy,
    page_cursor: o.cursor,
  };
  for (const [f, l] of [['created', 'created_at'], ['updated', 'updated_at']]) {
    const cap = f[0].toUpperCase() + f.slice(1);
    query[`${l}.lt`] = parseTime(o[`${f}Before`] as string | undefined, now);
    query[`${l}.lte`] = parseTime(o[`${f}Until`] as string | undefined, now);
    query[`${l}.eq`] = parseTime(o[`${f}At`] as string | undefined, now);
    query[`${l}.gte`] = parseTime(o[`${f}From`] as string | undefined, now);
    query[`${l}.gt`] = parseTime(o[`${f}After`] as string | undefined, now);
    void cap;
  }
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  checkRequest(operations.listTransfers, { query }, FLAGS);
  const conn = await ctx.connect();
  const out = ctx.output();
  const n = await out.list(conn.client.items('listTransfers', { query }, FLAGS, !!o.all), TRANSFER_LIST_COLUMNS, { empty: 'no transfers match' });
  if (out.format === 'table' && n) ctx.io.err(out.p.dim(`${n} transfer${n === 1 ? '' : 's'}`) + '\n');
}

export async function get(ctx: CliContext, id: string | undefined, o: { refId?: string }): Promise<void> {
  if (id !== undefined && o.refId !== undefined) throw usageError('ID and --ref-id: give one');
  let transfer: Record<string, unknown> | undefined;
  if (o.refId !== undefined) {
    const query = { ref_ids: [o.refId], limit: '1' };
    checkRequest(operations.listTransfers, { query }, FLAGS);
    const conn = await ctx.connect();
    const { data } = await conn.client.call<{ items?: Transfer[] }>('listTransfers', { query }, FLAGS);
    transfer = data.items?.[0];
    if (!transfer) throw new CliError('api', `no transfer has ref_id ${o.refId}`);
  } else {
    const tid = await need(ctx.prompter, 'ID', id, () => ctx.prompter.text('Transfer id'));
    checkRequest(operations.getTransfer, { params: { id: tid } }, FLAGS);
    const conn = await ctx.connect();
    transfer = (await conn.client.call('getTransfer', { params: { id: tid } }, FLAGS)).data;
  }
  ctx.output().one(transfer, TRANSFER_COLUMNS);
}

export async function watch(ctx: CliContext, ids: string[], o: { timeout?: string }): Promise<void> {
  const timeout = intFlag('--timeout', o.timeout, 1, 86_400) ?? 600;
  for (const id of ids) checkRequest(operations.getTransfer, { params: { id } }, FLAGS);
  const conn = await ctx.connect();
  const out = ctx.output();
  const finals = await follow(ctx, conn, ids, { timeoutSeconds: timeout, onChange: out.format === 'ndjson' ? (t) => out.one(t) : undefined });
  if (out.format === 'table') await out.list(finals, TRANSFER_LIST_COLUMNS);
  else if (out.format !== 'ndjson') await out.list(finals, TRANSFER_LIST_COLUMNS);
  const failed = finals.filter((t) => t.status === 'FAILED');
  if (failed.length) throw new CliError('failed', `${failed.length} of ${finals.length} transfer(s) ended FAILED: ${failed.map((t) => String(t.id)).join(', ')}`);
}
