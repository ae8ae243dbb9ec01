// coinop fiat-accounts create, update, list, get and delete. A fiat account says where fiat withdrawals may go: its
// creation goes through the gate (the policy, the audit trail), as an address book write does.
import { accountNumberRule, asPromptRule, routingNumberRule } from '../../cli/bank-rules.js';
import {
  type CreateFiatAccountRequest,
  type FiatAccount,
  operations,
  type UpdateFiatAccountRequest,
} from '../../contract/index.js';
import {
  fiatAccountNetwork,
  fiatAccountNumber,
  fiatAccountOwner,
  pickFiatAccount,
  recentFiatAccounts,
} from '../../cli/fiat-account-pick.js';
import type { Ports } from '../../cli/ports.js';
import { usageError } from '../../cli/errors.js';
import { need } from '../../cli/prompt.js';
import { listFooter } from '../../cli/list-flags.js';
import { gateFor } from '../../cli/gate.js';
import { announceRefId } from '../../cli/submit.js';
import { checkRequest, type Paging } from '../../client/service-client.js';
import { FIAT_ACCOUNT_COLUMNS } from '../../render/columns.js';
import { flatEntries, keyValueLines } from '../../render/key-value.js';
import type { Output } from '../../render/output.js';
import { refIdFor } from '../../send/withdrawal.js';
import { FIAT_ACCOUNT_NETWORK_NAMES } from './flags.js';
import {
  CREATE_FLAGS,
  type FiatAccountCreateOptions,
  type FiatAccountDeleteOptions,
  type FiatAccountListOptions,
  type FiatAccountUpdateOptions,
  LIST_FLAGS,
  type OwnerFlags,
  UPDATE_FLAGS,
} from './options.js';

type Network = (typeof FIAT_ACCOUNT_NETWORK_NAMES)[number];

/** An account with its network, number and owner named, for the table and CSV. */
const described = (a: FiatAccount) => ({
  ...a,
  fiat_network: fiatAccountNetwork(a),
  account: fiatAccountNumber(a),
  owner: fiatAccountOwner(a),
});

/** One account: every field for people, the object for machines. */
function show(out: Output, account: FiatAccount): void {
  if (out.format !== 'table') return out.one(out.format === 'csv' ? described(account) : account, FIAT_ACCOUNT_COLUMNS);
  const { id, status, fiat_network_instructions, fiat_account_owner, created_at, ...rest } = account;
  const rows = flatEntries({
    id,
    status,
    fiat_network: fiatAccountNetwork(account),
    owner: fiatAccountOwner(account),
    created_at,
    ...rest,
    ...fiat_network_instructions,
  }).map(([k, v]) => [k, out.cell(v, k === 'status' ? 'status' : 'text')] as const);
  for (const line of keyValueLines(rows, out.p)) out.io.out(`${line}\n`);
}

/** The owner from the flags, or asked for on a terminal. */
async function askOwner(
  pr: Ports['prompter'],
  owner: OwnerFlags,
): Promise<CreateFiatAccountRequest['fiat_account_owner']> {
  if ('institution' in owner) return { institution_details: { name: owner.institution } };
  if ('person' in owner) return { person_details: { first_name: owner.person.first, last_name: owner.person.last } };
  // Nobody to ask: the usage error names --owner-name (or --first-name and --last-name).
  const kind = await need(pr, '--owner-name', undefined, () =>
    pr.select('Owned by', ['an institution', 'a person'], 'an institution'),
  );
  if (kind === 'an institution') return { institution_details: { name: await pr.text("The institution's name") } };
  return { person_details: { first_name: await pr.text('First name'), last_name: await pr.text('Last name') } };
}

/** The network's instructions from the flags, with what a terminal is asked for. */
async function askInstructions(
  pr: Ports['prompter'],
  network: Network,
  options: FiatAccountCreateOptions,
): Promise<Record<string, unknown>> {
  const text = (flag: string, value: string | undefined, label: string, rule?: (v: string) => string | undefined) =>
    need(pr, flag, value, () => pr.text(label, rule ? { validate: asPromptRule(rule) } : {}));
  switch (network) {
    case 'CBIT':
      return { cbit: { wallet_address: await text('--wallet-address', options.walletAddress, 'CBIT wallet address') } };
    case 'CUBIX':
      return { cubix: { account_id: await text('--cubix-account-id', options.cubixAccountId, 'CUBIX account id') } };
    case 'DBS_ACT':
    case 'SCB':
      return {
        [network.toLowerCase()]: {
          account_number: await text('--account-number', options.accountNumber, 'Account number', accountNumberRule),
        },
      };
    case 'RTP':
      return {
        rtp: {
          account_number: await text('--account-number', options.accountNumber, 'Account number', accountNumberRule),
          routing_details: {
            routing_number: await text('--routing-number', options.routingNumber, 'Routing number'),
            ...(options.bankName !== undefined ? { bank_name: options.bankName } : {}),
          },
        },
      };
    case 'WIRE': {
      const accountNumber = await text('--account-number', options.accountNumber, 'Account number', accountNumberRule);
      const type = options.routingType ?? 'ABA';
      const routingNumber = await text(
        '--routing-number',
        options.routingNumber,
        type === 'ABA' ? 'ABA routing number' : 'SWIFT/BIC code',
        (v) => routingNumberRule(type, v),
      );
      const bankName = await text('--bank-name', options.bankName, "The bank's name");
      return {
        wire: {
          account_number: accountNumber,
          fiat_account_owner_address: {
            country: options.ownerCountry ?? 'USA',
            ...(options.ownerAddress !== undefined ? { address1: options.ownerAddress } : {}),
            ...(options.ownerCity !== undefined ? { city: options.ownerCity } : {}),
          },
          routing_details: {
            routing_number_type: type,
            routing_number: routingNumber,
            bank_name: bankName,
            bank_address: { country: options.bankCountry ?? 'USA' },
          },
        },
      };
    }
  }
}

/** The request from --file, or from the flags and a terminal's answers. */
async function createRequest(
  ctx: Pick<Ports, 'prompter'>,
  options: FiatAccountCreateOptions,
): Promise<{ body: Record<string, unknown>; generated: boolean }> {
  if (options.file) return { body: options.file, generated: false };
  const pr = ctx.prompter;
  const network = await need(pr, '--network', options.network, () =>
    pr.select<Network>('Fiat network', [...FIAT_ACCOUNT_NETWORK_NAMES], 'WIRE'),
  );
  const owner = await askOwner(pr, options.owner);
  const instructions = await askInstructions(pr, network, options);
  const { refId, generated } = refIdFor(options.refId);
  const body: CreateFiatAccountRequest = {
    ref_id: refId,
    fiat_account_owner: owner,
    fiat_network_instructions: instructions,
    ...(options.identityId !== undefined ? { identity_id: options.identityId } : {}),
    ...(options.accountId !== undefined ? { account_id: options.accountId } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
  };
  return { body, generated };
}

/** What create takes: the service through the gate (the policy, the audit trail) and the operator. */
export type FiatAccountWriteDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

export async function create(ctx: FiatAccountWriteDeps, options: FiatAccountCreateOptions): Promise<void> {
  const { body, generated } = await createRequest(ctx, options);
  checkRequest(operations.createFiatAccount, { body }, CREATE_FLAGS, ctx.service.catalogue());
  const conn = await ctx.service.connect();
  ctx.interrupt.say('interrupted: the fiat account may have been made; see coinop fiat-accounts list');
  const gate = gateFor(ctx, conn, 'fiat-accounts create');
  const p = await gate.prepare({
    operation: 'createFiatAccount',
    body,
    command: 'fiat-accounts create',
    flags: CREATE_FLAGS,
  });
  const refId = typeof body.ref_id === 'string' ? body.ref_id : undefined;
  if (generated && refId) announceRefId(ctx.display, refId);
  const sent = await gate.send(p);
  const out = ctx.display.output();
  const account = sent.data as unknown as FiatAccount;
  if (sent.alreadySubmitted && !sent.submittedByThisCall)
    ctx.display.io.err(`${out.p.yellow('already exists')}: ref_id ${refId} was used before; the existing account:\n`);
  else if (out.format === 'table')
    ctx.display.io.err(
      `${out.p.green('✓')} fiat account ${account.id} (${account.status}): withdraw to it with coinop withdraw fiat --fiat-account-id ${account.id}\n`,
    );
  show(out, account);
}

/**
 * The update goes to the service as it is: it changes the owner's details, addresses, bank names and metadata, never
 * the account number or routing number, so it cannot send withdrawals elsewhere (no gate, as for a delete).
 */
export async function update(
  ctx: Pick<Ports, 'display' | 'service' | 'interrupt'>,
  options: FiatAccountUpdateOptions,
): Promise<void> {
  const conn = await ctx.service.connect();
  ctx.interrupt.say(`interrupted: the fiat account may have been updated; see coinop fiat-accounts get ${options.id}`);
  const { data } = await conn.client.call(
    'updateFiatAccount',
    { params: { id: options.id }, body: options.body as UpdateFiatAccountRequest },
    UPDATE_FLAGS,
  );
  const out = ctx.display.output();
  if (out.format === 'table')
    ctx.display.io.err(
      `${out.p.green('✓')} fiat account ${data.id} updated (${data.status}: the service reviews the change)\n`,
    );
  show(out, data);
}

export async function remove(
  ctx: Pick<Ports, 'display' | 'service' | 'confirmer'>,
  options: FiatAccountDeleteOptions,
): Promise<void> {
  const conn = await ctx.service.connect();
  const { data } = await conn.client.call('getFiatAccount', { params: { id: options.id } });
  await ctx.confirmer.confirm({
    title: 'Delete a fiat account',
    rows: [
      ['context', conn.context.name],
      ['account', `${data.id} (${fiatAccountNetwork(data) ?? '-'} ${fiatAccountNumber(data) ?? ''})`],
      ['owner', fiatAccountOwner(data)],
    ],
    environment: conn.context.environment,
    yes: options.yes,
    question: 'Delete it? No withdrawal can go to it after',
  });
  await conn.client.call('deleteFiatAccount', { params: { id: options.id } });
  const out = ctx.display.output();
  if (out.format === 'table') ctx.display.io.err(`${out.p.green('✓')} fiat account ${options.id} deleted\n`);
  else out.one({ id: options.id, deleted: true });
}

export async function list(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: FiatAccountListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = conn.client.items('listFiatAccounts', { query: options.query }, LIST_FLAGS, options.all, paging);
  const rows = out.format === 'table' || out.format === 'csv' ? describedItems(items) : items;
  const n = await out.list(rows, FIAT_ACCOUNT_COLUMNS, {
    empty: 'no fiat accounts match (add one: coinop fiat-accounts create)',
  });
  listFooter(display, out, n, ['fiat account', 'fiat accounts'], options.all ? undefined : paging.next);
}

async function* describedItems(items: AsyncIterable<FiatAccount>) {
  for await (const item of items) yield described(item);
}

export async function get(
  { display, service, prompter: pr }: Pick<Ports, 'display' | 'service' | 'prompter'>,
  id: string | undefined,
): Promise<void> {
  if (id !== undefined) checkRequest(operations.getFiatAccount, { params: { id } }, { id: 'ID' }, service.catalogue());
  if (id === undefined && !pr.allowed) throw usageError('missing ID', pr.hint('the fiat account id', 'pick one'));
  const conn = await service.connect();
  let chosen = id;
  if (chosen === undefined) {
    const items = await recentFiatAccounts(conn);
    if (!items.length) throw usageError('no fiat accounts yet', 'add one: coinop fiat-accounts create');
    chosen = await pickFiatAccount(pr, 'Fiat account', items);
  }
  const { data } = await conn.client.call('getFiatAccount', { params: { id: chosen } });
  show(display.output(), data);
}
