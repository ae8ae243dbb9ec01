// coinop events list and get: the event feed as the service lists it.
import type { Invocation } from '../../cli/invocation.js';
import type { RawFlags } from '../../cli/options.js';
import { need } from '../../cli/prompt.js';
import { checkRequest } from '../../client/service-client.js';
import { EVENT_COLUMNS, EVENT_LIST_COLUMNS } from '../../render/columns.js';
import { FLAGS, parseEventGetOptions, parseEventsListOptions } from './options.js';
import { operations } from '../../contract/index.js';

export const READ_ONLY = 'interrupted: nothing was changed (this command only reads)';

export async function list(ctx: Invocation, raw: RawFlags): Promise<void> {
  ctx.interruptNote = READ_ONLY;
  const { query, all } = parseEventsListOptions(raw, ctx.now());
  const conn = await ctx.connect();
  const out = ctx.output();
  const n = await out.list(conn.client.items('listEvents', { query }, FLAGS, all), EVENT_LIST_COLUMNS, {
    empty: 'no events match',
  });
  if (out.format === 'table' && n) ctx.io.err(`${out.p.dim(`${n} event${n === 1 ? '' : 's'}`)}\n`);
}

export async function get(ctx: Invocation, idArg: string | undefined): Promise<void> {
  const o = parseEventGetOptions(idArg);
  ctx.interruptNote = READ_ONLY;
  const id = await need(ctx.prompter, 'ID', o.id, () => ctx.prompter.text('Event id'));
  checkRequest(operations.getEvent, { params: { id } }, FLAGS, ctx.catalogue());
  const conn = await ctx.connect();
  ctx.output().one((await conn.client.call('getEvent', { params: { id } }, FLAGS)).data, EVENT_COLUMNS);
}
