// coinop transfers list, get and watch.
import { assetIssues, operations, TRANSFER_LONE_FILTERS, transferFiltersGiven } from '../../contract/index.js';
import type { Display, Ports } from '../../cli/ports.js';
import { CoinopError } from '../../cli/errors.js';
import type { RawFlags } from '../../cli/options.js';
import { need } from '../../cli/prompt.js';
import { profileIdsNamed } from '../../cli/service-profiles.js';
import { checkRequest, checkUnlisted, type Paging } from '../../client/service-client.js';
import { listFooter } from '../../cli/list-flags.js';
import { TRANSFER_COLUMNS, TRANSFER_LIST_COLUMNS } from '../../render/columns.js';
import { follow } from '../../cli/follow.js';
import { filtered } from './filters.js';
import { FLAGS, parseTransferGetOptions, parseTransfersListOptions, parseTransfersWatchOptions } from './options.js';

export async function list(
  { display, service, clock }: Pick<Ports, 'display' | 'service' | 'clock'>,
  raw: RawFlags,
): Promise<void> {
  const { query, all, filter, view } = parseTransfersListOptions(raw, clock.now());
  // An asset the catalogue does not list matches nothing: refused on the local service (with a close one), a note else.
  checkUnlisted(service.catalogue(), filter?.assets?.flatMap((a) => assetIssues('asset', a)) ?? [], {
    asset: '--asset',
  });
  checkRequest(operations.listTransfers, { query }, FLAGS, service.catalogue());
  if (filter?.api) sayApart(display, query, filter.api);
  // Profiles by nickname or id prefix too (one GET /v2/profiles when one is not a full id), once the request's own
  // checks pass (nothing is asked of the service for a command line it refuses): sent, or applied here.
  if (query.profile_ids !== undefined)
    query.profile_ids = await profileIdsNamed({ service }, '--profile-id', query.profile_ids as string[]);
  if (filter?.api?.profile_ids)
    filter.api.profile_ids = await profileIdsNamed({ service }, '--profile-id', filter.api.profile_ids);
  const conn = await service.connect();
  const out = display.output(view);
  const paging: Paging = {};
  const items = conn.client.items('listTransfers', { query }, FLAGS, all, paging);
  const n = await out.list(filter ? filtered(items, filter) : items, TRANSFER_LIST_COLUMNS, {
    empty: 'no transfers match',
  });
  listFooter(display, out, n, ['transfer', 'transfers'], all ? undefined : paging.next);
}

/** Under --debug: which of the API's filters are sent, and which coinop applies (splitApiFilters). */
function sayApart(display: Display, sent: Record<string, unknown>, applied: Record<string, unknown>): void {
  const names = (keys: string[]) => keys.map((k) => FLAGS[k] ?? k).join(', ');
  display.debug()?.(
    `transfers list: the OpenAPI's ListTransfers takes ${TRANSFER_LONE_FILTERS.join(', ')} each with the time filters only: ` +
      `${names(transferFiltersGiven(sent))} sent, ${names(Object.keys(applied))} applied here to each page`,
  );
}

export async function get(
  { display, service, prompter }: Pick<Ports, 'display' | 'service' | 'prompter'>,
  idArg: string | undefined,
  raw: RawFlags,
): Promise<void> {
  const o = parseTransferGetOptions(idArg, raw);
  let transfer: Record<string, unknown> | undefined;
  if (o.refId !== undefined) {
    const query = { ref_ids: [o.refId], limit: '1' };
    checkRequest(operations.listTransfers, { query }, FLAGS, service.catalogue());
    const conn = await service.connect();
    const { data } = await conn.client.call('listTransfers', { query }, FLAGS);
    transfer = data.items?.[0];
    if (!transfer) throw new CoinopError('api', `no transfer has ref_id ${o.refId}`);
  } else {
    const tid = await need(prompter, 'ID', o.id, () => prompter.text('Transfer id'));
    checkRequest(operations.getTransfer, { params: { id: tid } }, FLAGS, service.catalogue());
    const conn = await service.connect();
    transfer = (await conn.client.call('getTransfer', { params: { id: tid } }, FLAGS)).data;
  }
  display.output().one(transfer, TRANSFER_COLUMNS);
}

export async function watch(
  ctx: Pick<Ports, 'display' | 'service' | 'clock' | 'interrupt'>,
  ids: string[],
  raw: RawFlags,
): Promise<void> {
  const o = parseTransfersWatchOptions(ids, raw);
  if (o.renamed) ctx.display.io.err(`${o.renamed}\n`);
  ctx.interrupt.say(
    'stopped watching; nothing was changed (the transfers go on: coinop transfers watch picks them up again)',
  );
  const conn = await ctx.service.connect();
  const out = ctx.display.output(o.view);
  const finals = await follow(ctx, conn, o.ids, {
    timeoutSeconds: o.timeoutSeconds,
    onChange: out.format === 'ndjson' ? (t) => out.one(t) : undefined,
  });
  // ndjson said each change as it came; the other formats list the transfers as they ended.
  if (out.format !== 'ndjson') await out.list(finals, TRANSFER_LIST_COLUMNS);
  const failed = finals.filter((t) => t.status === 'FAILED');
  if (failed.length)
    throw new CoinopError(
      'failed',
      `${failed.length} of ${finals.length} transfer(s) ended FAILED: ${failed.map((t) => String(t.id)).join(', ')}`,
    );
}
