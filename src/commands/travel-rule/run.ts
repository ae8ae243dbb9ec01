// coinop vasps list|get (the Travel Rule's VASP directory) and deposits update|reject (a crypto deposit the service
// holds for its originator: released with the originator's details, or turned away). An update releases money into
// the profile and a rejection turns it away for good, so each is confirmed (the amount typed out in production) and
// recorded in the audit trail before it is sent, with its outcome after. No policy rule judges them: the policy
// judges where money goes out to, and a held deposit goes nowhere the operator chooses (docs/deposits-profiles-and-
// transfers.md says so for operators).
import { operations, type Transfer, type Vasp } from '../../contract/index.js';
import type { AuditWhat } from '../../audit/entry.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { usageError } from '../../cli/errors.js';
import { listFooter } from '../../cli/list-flags.js';
import { need } from '../../cli/prompt.js';
import { askParty, originatorBody, type Party, pickVasp } from '../../cli/travel-rule.js';
import { checkRequest, type Paging } from '../../client/service-client.js';
import { TRANSFER_COLUMNS, VASP_COLUMNS } from '../../render/columns.js';
import {
  DEPOSIT_REJECT_FLAGS,
  DEPOSIT_UPDATE_FLAGS,
  type DepositAnswerOptions,
  VASP_LIST_FLAGS,
  type VaspListOptions,
} from './options.js';

export async function listVasps(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: VaspListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const n = await out.list(
    conn.client.items('listVasps', { query: options.query }, VASP_LIST_FLAGS, options.all, paging),
    VASP_COLUMNS,
    { empty: 'no VASPs match' },
  );
  listFooter(display, out, n, ['VASP', 'VASPs'], options.all ? undefined : paging.next);
}

export async function getVasp(
  { display, service, prompter: pr }: Pick<Ports, 'display' | 'service' | 'prompter'>,
  id: string | undefined,
): Promise<void> {
  if (id === undefined && !pr.allowed)
    throw usageError('missing ID', pr.hint('the VASP id (coinop vasps list --search NAME)', 'pick one'));
  const conn = await service.connect();
  const chosen = id ?? (await pickVasp(conn, pr));
  const { data } = await conn.client.call('getVasp', { params: { id: chosen } });
  display.output().one((data.vasp ?? {}) as Vasp, VASP_COLUMNS);
}

/** What update and reject take: the service, the operator, the audit trail. */
export type DepositAnswerDeps = Pick<Ports, 'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'interrupt'>;

type Answer = 'update' | 'reject';

/** The deposit as the service has it now (what the confirmation shows), or its problem. */
async function heldDeposit(conn: Connection, id: string): Promise<Transfer> {
  const { data } = await conn.client.call('getTransfer', { params: { id } });
  return data;
}

const secondary = (transfer: Transfer) => (transfer.secondary_status as { name?: string } | undefined)?.name;

/** The audit entry's fields: the deposit, what it is, and who answers for it. */
function depositWhat(answer: Answer, deposit: Transfer, identityId: string, originator?: Party): AuditWhat {
  const name = originator
    ? 'institution' in originator
      ? originator.institution
      : `${originator.person.first} ${originator.person.last}`
    : undefined;
  return {
    action: answer,
    deposit_id: deposit.id,
    asset: deposit.asset,
    amount: deposit.amount,
    network: deposit.crypto_network,
    profile_id: deposit.profile_id,
    identity_id: identityId,
    ...(name ? { originator: name } : {}),
  };
}

/** The originator from the flags, or asked for on a terminal. */
async function originatorOf(pr: Ports['prompter'], given: Party | undefined): Promise<Party> {
  if (given) return given;
  const flags = '--originator-first-name and --originator-last-name (or --originator-institution)';
  if (!pr.allowed) throw usageError(`missing ${flags}: who sent the deposit`, pr.hint(flags));
  return askParty(pr, 'originator');
}

async function answerDeposit(ctx: DepositAnswerDeps, answer: Answer, options: DepositAnswerOptions): Promise<void> {
  const pr = ctx.prompter;
  const identityId = await need(pr, '--identity-id', options.identityId, () =>
    pr.text('The identity (identity_id) answering for the deposit'),
  );
  const originator = answer === 'update' ? await originatorOf(pr, options.originator) : undefined;
  const body =
    answer === 'update'
      ? { identity_id: identityId, originator_address_info: originatorBody(originator as Party) }
      : { identity_id: identityId };
  const op = answer === 'update' ? operations.updateCryptoDeposit : operations.rejectCryptoDeposit;
  const flags = answer === 'update' ? DEPOSIT_UPDATE_FLAGS : DEPOSIT_REJECT_FLAGS;
  checkRequest(op, { params: { id: options.id }, body }, flags, ctx.service.catalogue());
  const conn = await ctx.service.connect();
  const deposit = await heldDeposit(conn, options.id);
  if (
    deposit.type !== 'CRYPTO_DEPOSIT' ||
    deposit.status !== 'PENDING' ||
    secondary(deposit) !== 'TRAVEL_RULE_INFO_REQUESTED'
  )
    ctx.display.io.err(
      `note: transfer ${deposit.id} is a ${deposit.type} ${deposit.status}${secondary(deposit) ? ` (${secondary(deposit)})` : ''}, not a deposit held for its originator: the service will likely refuse\n`,
    );
  await ctx.confirmer.confirm({
    title: answer === 'update' ? 'Release a held crypto deposit' : 'Reject a held crypto deposit',
    rows: [
      ['context', conn.context.name],
      ['deposit', deposit.id],
      ['amount', `${deposit.amount} ${deposit.asset}${deposit.crypto_network ? ` on ${deposit.crypto_network}` : ''}`],
      ['profile', deposit.profile_id],
      ['identity', identityId],
      [
        'originator',
        originator ? (depositWhat(answer, deposit, identityId, originator).originator as string) : undefined,
      ],
    ],
    environment: conn.context.environment,
    yes: options.yes,
    typed: [{ label: 'the amount', value: deposit.amount }],
    question:
      answer === 'update'
        ? 'Release it (credited once confirmed on chain)?'
        : 'Reject it? The funds will no longer be available',
  });
  ctx.interrupt.say(
    `interrupted: the deposit may have been ${answer === 'update' ? 'updated' : 'rejected'}; see coinop transfers get ${deposit.id}`,
  );
  const attempt = await ctx.audit.attempt(
    { kind: 'deposit_travel_rule', what: depositWhat(answer, deposit, identityId, originator) },
    conn,
  );
  try {
    // The body was checked against the operation's request above.
    await conn.client.callAny(
      answer === 'update' ? 'updateCryptoDeposit' : 'rejectCryptoDeposit',
      { params: { id: options.id }, body },
      flags,
    );
  } catch (e) {
    await attempt.failed(e);
    throw e;
  }
  const after = await heldDeposit(conn, options.id).catch(() => deposit);
  await attempt.done({ result: 'sent', transfer_id: after.id, status: after.status });
  const out = ctx.display.output();
  if (out.format === 'table')
    ctx.display.io.err(
      `${out.p.green('✓')} deposit ${after.id} ${answer === 'update' ? 'released: it is credited once confirmed' : 'rejected'} (${after.status}${secondary(after) ? `, ${secondary(after)}` : ''})\n`,
    );
  out.one(after, TRANSFER_COLUMNS);
}

export const updateDeposit = (ctx: DepositAnswerDeps, options: DepositAnswerOptions) =>
  answerDeposit(ctx, 'update', options);
export const rejectDeposit = (ctx: DepositAnswerDeps, options: DepositAnswerOptions) =>
  answerDeposit(ctx, 'reject', options);
