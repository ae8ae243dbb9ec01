// coinop events list and get: the event feed as the service lists it.
import type { Ports } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import { need } from '../../cli/prompt.js';
import { checkRequest } from '../../client/service-client.js';
import { EVENT_COLUMNS, EVENT_LIST_COLUMNS } from '../../render/columns.js';
import { FLAGS, parseEventGetOptions, parseEventsListOptions } from './options.js';
import { operations } from '../../contract/index.js';

export const READ_ONLY = 'interrupted: nothing was changed (this command only reads)';

export async function list(
  { display, service, clock, interrupt }: Pick<Ports, 'display' | 'service' | 'clock' | 'interrupt'>,
  raw: RawFlags,
): Promise<void> {
  interrupt.say(READ_ONLY);
  const { query, all, view } = parseEventsListOptions(raw, clock.now());
  const conn = await service.connect();
  const out = display.output(view);
  const n = await out.list(conn.client.items('listEvents', { query }, FLAGS, all), EVENT_LIST_COLUMNS, {
    empty: 'no events match',
  });
  if (out.format === 'table' && n) display.io.err(`${out.p.dim(`${n} event${n === 1 ? '' : 's'}`)}\n`);
}

export async function get(
  { display, service, prompter, interrupt }: Pick<Ports, 'display' | 'service' | 'prompter' | 'interrupt'>,
  idArg: string | undefined,
): Promise<void> {
  const o = parseEventGetOptions(idArg);
  interrupt.say(READ_ONLY);
  const id = await need(prompter, 'ID', o.id, () => prompter.text('Event id'));
  checkRequest(operations.getEvent, { params: { id } }, FLAGS, service.catalogue());
  const conn = await service.connect();
  display.output().one((await conn.client.call('getEvent', { params: { id } }, FLAGS)).data, EVENT_COLUMNS);
}
