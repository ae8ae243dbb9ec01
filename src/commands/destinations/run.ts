// coinop destinations list and put.
import {
  CRYPTO_NETWORKS,
  operations,
  type CryptoNetwork,
  type PutCryptoDestinationAddressRequest,
} from '../../contract/index.js';
import { askAddress } from '../../cli/ask.js';
import type { Ports } from '../../cli/ports.js';
import { need } from '../../cli/prompt.js';
import { listFooter } from '../../cli/list-flags.js';
import { gateFor } from '../../cli/gate.js';
import { checkRequest, type Paging } from '../../client/service-client.js';
import { isHeld } from '../../client/gateway-calls.js';
import { addressCheckFor } from '../../config/environments.js';
import { checkAddress } from '../../cli/withdrawal-flags.js';
import { DESTINATION_COLUMNS } from '../../render/columns.js';
import { keepCompletionWords } from '../../config/completion-words.js';
import { pickVasp } from '../../cli/travel-rule.js';
import { type DestinationListOptions, type DestinationPutOptions, LIST_FLAGS, PUT_FLAGS } from './options.js';

export async function list(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: DestinationListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const nicknames: string[] = [];
  const n = await out.list(
    nicknamesOf(
      conn.client.items('listCryptoDestinationAddresses', { query: options.query }, LIST_FLAGS, options.all, paging),
      nicknames,
    ),
    DESTINATION_COLUMNS,
    { empty: 'no destination addresses match (add one: coinop destinations put)' },
  );
  // The nicknames seen, for withdraw --to's completion (coinop __complete destinations reads them, no request).
  keepCompletionWords(service.dataDir(), service.context().name, 'destinations', nicknames);
  listFooter(display, out, n, ['destination address', 'destination addresses'], options.all ? undefined : paging.next);
}

/** The addresses of the book as they come, each nickname kept in `into` on the way. */
async function* nicknamesOf<T extends { nickname?: string }>(items: AsyncIterable<T>, into: string[]) {
  for await (const item of items) {
    if (item.nickname) into.push(item.nickname);
    yield item;
  }
}

/** The request: the flags, with the network and address asked for on a terminal when neither they nor --id are given. */
async function putRequest(
  ctx: Pick<Ports, 'service' | 'prompter'>,
  options: DestinationPutOptions,
): Promise<PutCryptoDestinationAddressRequest> {
  const pr = ctx.prompter;
  const body: PutCryptoDestinationAddressRequest = {};
  if (options.id !== undefined) body.id = options.id;
  else {
    const network = await need(pr, '--network', options.network as CryptoNetwork | undefined, () =>
      pr.select<CryptoNetwork>('Network', [...CRYPTO_NETWORKS]),
    );
    body.crypto_network = network;
    const addresses = addressCheckFor(ctx.service.context().environment);
    body.address = await askAddress(pr, network, addresses, options.address);
    checkAddress(network, body.address, addresses);
    const nickname =
      options.nickname ??
      (pr.allowed && options.address === undefined
        ? (await pr.text('Nickname (empty: made from the network and address)', { required: false })) || undefined
        : undefined);
    if (nickname !== undefined) body.nickname = nickname;
  }
  if (options.id !== undefined && options.nickname !== undefined) body.nickname = options.nickname;
  if (options.bookmark !== undefined) body.bookmarked_status = options.bookmark;
  if (options.identityId !== undefined) body.identity_id = options.identityId;
  if (options.travelRule !== undefined)
    body.travelrule_metadata = options.travelRule as PutCryptoDestinationAddressRequest['travelrule_metadata'];
  checkRequest(operations.putCryptoDestinationAddress, { body }, PUT_FLAGS, ctx.service.catalogue());
  return body;
}

/** What destinations put takes: the service, through the gate (so the audit trail and the policy), and the operator. */
export type DestinationPutDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

export async function put(ctx: DestinationPutDeps, options: DestinationPutOptions): Promise<void> {
  const body = await putRequest(ctx, options);
  ctx.interrupt.say('interrupted: the address may have been saved; see coinop destinations list');
  const conn = await ctx.service.connect();
  // Custodied by a VASP, which was not named: picked from the service's directory on a terminal (else none is sent).
  if (options.pickVasp && ctx.prompter.allowed && body.travelrule_metadata)
    body.travelrule_metadata = { ...body.travelrule_metadata, vasp: { id: await pickVasp(conn, ctx.prompter) } };
  // Through the gate: the policy decides first (a write that would widen its destinations is refused, exit 8), and
  // every write, allowed or refused, is in the audit trail.
  const gate = gateFor(ctx, conn, 'destinations put');
  const p = await gate.prepare({
    operation: 'putCryptoDestinationAddress',
    body,
    command: 'destinations put',
    flags: PUT_FLAGS,
  });
  const data = (await gate.send(p)).data;
  const out = ctx.display.output();
  // Read leniently: an answer without the address (or a gateway's hold of the request) is shown as it came.
  const saved: Record<string, unknown> = { ...(isHeld(data) ? data : (data.address ?? data)) };
  if (typeof saved.nickname === 'string')
    keepCompletionWords(ctx.service.dataDir(), ctx.service.context().name, 'destinations', [saved.nickname]);
  if (out.format === 'table')
    ctx.display.io.err(
      `${out.p.green('✓')} saved in the address book as ${String(saved.nickname ?? saved.id ?? body.address)}\n`,
    );
  out.one(saved, DESTINATION_COLUMNS);
}
