// coinop deposit-instructions create, list and get.
import {
  FIAT_NETWORKS,
  type CreateFiatDepositInstructionsRequest,
  type FiatDepositInstructions,
  type FiatNetwork,
  operations,
} from '../../contract/index.js';
import type { Ports } from '../../cli/ports.js';
import { commandProfile } from '../../cli/service-profiles.js';
import { announceRefId } from '../../cli/submit.js';
import { usageError } from '../../cli/errors.js';
import { need } from '../../cli/prompt.js';
import { listFooter } from '../../cli/list-flags.js';
import { checkRequest, type Paging } from '../../client/service-client.js';
import { DEPOSIT_INSTRUCTIONS_COLUMNS } from '../../render/columns.js';
import { refIdFor } from '../../send/withdrawal.js';
import { flatEntries, keyValueLines } from '../../render/key-value.js';
import type { Output } from '../../render/output.js';
import { CREATE_FLAGS, type InstructionsCreateOptions, type InstructionsListOptions, LIST_FLAGS } from './options.js';
import { fiatNetworkOf, pickInstructions, recentInstructions } from '../../cli/deposit-instruction-pick.js';

/** Instructions with their network named (WIRE, RTP...), for the table and CSV. */
const withNetwork = (i: FiatDepositInstructions) => ({ ...i, fiat_network: fiatNetworkOf(i) });

/** One set of instructions: every field for people (where to send, in full), the object for machines. */
function show(out: Output, instructions: FiatDepositInstructions): void {
  if (out.format !== 'table')
    return out.one(out.format === 'csv' ? withNetwork(instructions) : instructions, DEPOSIT_INSTRUCTIONS_COLUMNS);
  const { id, status, memo_id, fiat_network_instructions, created_at, ...rest } = instructions;
  const rows = flatEntries({
    id,
    status,
    memo_id,
    fiat_network: fiatNetworkOf(instructions),
    created_at,
    ...rest,
    // Where to send, by network: wire.account_number, wire.routing_details.bank_name ...
    ...fiat_network_instructions,
  }).map(
    ([k, v]) => [k, k === 'memo_id' ? out.p.bold(String(v)) : out.cell(v, k === 'status' ? 'status' : 'text')] as const,
  );
  for (const line of keyValueLines(rows, out.p)) out.io.out(`${line}\n`);
}

export async function create(
  ctx: Pick<Ports, 'display' | 'service' | 'prompter' | 'interrupt'>,
  options: InstructionsCreateOptions,
): Promise<void> {
  const pr = ctx.prompter;
  const network = await need(pr, '--network', options.network, () =>
    pr.select<FiatNetwork>('Fiat network', [...FIAT_NETWORKS], 'WIRE'),
  );
  if (options.routingType !== undefined && network !== 'WIRE')
    throw usageError(`--routing-type: is for --network WIRE only, not ${network}`);
  const { id: profileId } = await commandProfile(
    ctx,
    options.profileId,
    ctx.service.context().profileId,
    "The service's profile the deposits credit",
  );
  const { refId, generated } = refIdFor(options.refId);
  const body: CreateFiatDepositInstructionsRequest = {
    profile_id: profileId,
    fiat_network: network,
    ref_id: refId,
    ...(options.routingType !== undefined ? { routing_number_type: options.routingType as 'ABA' | 'SWIFT' } : {}),
    ...(options.identityId !== undefined ? { identity_id: options.identityId } : {}),
    ...(options.accountId !== undefined ? { account_id: options.accountId } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
  };
  checkRequest(operations.createFiatDepositInstructions, { body }, CREATE_FLAGS, ctx.service.catalogue());
  const conn = await ctx.service.connect();
  if (generated) announceRefId(ctx.display, refId);
  ctx.interrupt.say(
    `interrupted: the instructions may have been made; see coinop deposit-instructions list --ref-id ${refId}`,
  );
  const res = await conn.client.call('createFiatDepositInstructions', { body }, CREATE_FLAGS);
  const out = ctx.display.output();
  if (res.alreadySubmitted && !res.submittedByThisCall)
    ctx.display.io.err(
      `${out.p.yellow('already exists')}: ref_id ${refId} was used before; the existing instructions:\n`,
    );
  else if (out.format === 'table')
    ctx.display.io.err(
      `${out.p.green('✓')} deposits that carry memo ${res.data.memo_id} credit profile ${res.data.profile_id}\n`,
    );
  show(out, res.data);
}

export async function list(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: InstructionsListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = conn.client.items(
    'listFiatDepositInstructions',
    { query: options.query },
    LIST_FLAGS,
    options.all,
    paging,
  );
  const rows = out.format === 'table' || out.format === 'csv' ? mapItems(items, withNetwork) : items;
  const n = await out.list(rows, DEPOSIT_INSTRUCTIONS_COLUMNS, {
    empty: 'no deposit instructions match (make some: coinop deposit-instructions create)',
  });
  listFooter(
    display,
    out,
    n,
    ['set of deposit instructions', 'sets of deposit instructions'],
    options.all ? undefined : paging.next,
  );
}

async function* mapItems<T, U>(items: AsyncIterable<T>, mapItem: (t: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield mapItem(item);
}

export async function get(
  { display, service, prompter: pr }: Pick<Ports, 'display' | 'service' | 'prompter'>,
  id: string | undefined,
): Promise<void> {
  if (id !== undefined)
    checkRequest(operations.getFiatDepositInstructions, { params: { id } }, { id: 'ID' }, service.catalogue());
  if (id === undefined && !pr.allowed) throw usageError('missing ID', pr.hint('the instructions id', 'pick one'));
  const conn = await service.connect();
  let chosen = id;
  if (chosen === undefined) {
    const items = await recentInstructions(conn);
    if (!items.length) throw usageError('no deposit instructions yet', 'make some: coinop deposit-instructions create');
    chosen = await pickInstructions(pr, 'Deposit instructions', items, { profileId: conn.context.profileId });
  }
  const { data } = await conn.client.call('getFiatDepositInstructions', {
    params: { id: chosen },
  });
  show(display.output(), data);
}
