// coinop withdraw: gather the values the flags left out, check the request, quote, confirm, send once (ref_id),
// report (optionally following the transfer to its end).
import {
  type AddressCheck,
  addressHasChecksum,
  isTestnetAddress,
  operations,
  problemName,
  withdrawalTargetIssues,
  type CreateCryptoWithdrawalRequest,
  type CryptoNetwork,
  type CryptoWithdrawalFee,
  type Decimal,
} from '../../contract/index.js';
import type { AuditWhat } from '../../audit/entry.js';
import { askAddress, askTarget, amountRule } from '../../cli/ask.js';
import { outcomeOfError, quoteOutcome } from '../../cli/audit.js';
import { clockText } from '../../cli/countdown.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { commandProfile, shownLabel } from '../../cli/service-profiles.js';
import { CoinopError } from '../../cli/errors.js';
import { amountOrTotalMissing } from '../../cli/options.js';
import { checkRequest, checkUnlisted } from '../../client/service-client.js';
import { addressCheckFor } from '../../config/environments.js';
import type { ResolvedContext } from '../../config/context.js';
import type { PolicyVerdict } from '../../policy/evaluate.js';
import { balanceRow, type Funds, insufficientFunds, readFunds, shortfall } from '../../send/funds.js';
import { type LimitCheck, refuseOverLimit, withdrawalLimits } from '../../send/limits-preflight.js';
import { canonicalRequest, feeRequestOf, leavingWords, refIdFor, withdrawalFigures } from '../../send/withdrawal.js';
import { approvalFiles, approvalScope, readSavedRequest, savedNote, saveRequest } from '../../cli/approval-content.js';
import { contextPolicy, refusal, refuseUnlessAllowed, verdictText } from '../../cli/policy-enforce.js';
import { gateFor, refusedBeforeSending } from '../../cli/gate.js';
import { type MoneyGate, type MoneyRequest, wasRecorded } from '../../gate/gate.js';
import { type Audited, reportDryRun, reportTransfer, submitOnce } from '../../cli/submit.js';
import { bookDestination } from './destination.js';
import { askParty, beneficiaryBody, beneficiaryMissing, bookTravelRule } from '../../cli/travel-rule.js';
import { beneficiaryName } from '../../gate/money.js';
import { WITHDRAW_FLAGS } from '../../cli/withdrawal-flags.js';
import type { WithdrawOptions } from './options.js';

/** The values of the withdrawal: each from its flag, or asked for on a terminal. */
interface Gathered {
  asset: string;
  network: CryptoNetwork;
  address: string;
  /** The address as given, when its one spelling (what is sent) differs: whether it carried a checksum is its own. */
  given?: string;
  amount?: string;
  total?: string;
  profileId: string;
  /** How the confirmation and the dry run name the profile: "nickname (short id)" once known. */
  profileShown: string;
  /** The address book's nickname of the destination, with --to. */
  nickname?: string;
  refId: string;
  /** No --ref-id was given: the ref_id is made up here, and printed once the withdrawal is sent. */
  generatedRef: boolean;
}

/** The fee quote for the summary (and, with --quote, the fee id sent); why there is none when it failed. */
interface Quoted {
  quote?: CryptoWithdrawalFee;
  error?: string;
  /** The failed quote itself, to end a terminal preview with. */
  failure?: unknown;
}

/** Whether the destination may be a testnet address: in the sandbox and on the local service only. */
const addresses = (ctx: Pick<Ports, 'service'>): AddressCheck => addressCheckFor(ctx.service.context().environment);

/** The asset the withdrawal is debited from. */
const debited = (o: WithdrawOptions, g: Gathered): string => o.balanceAsset ?? g.asset;

/** What leaves the balance: the total, or the amount plus the fee when known (the amount alone when not). */
const leaving = (g: Gathered, q: Quoted): Decimal => withdrawalFigures(g, q.quote?.fee).leaving;

/** What leaves, in words: the total, the amount plus the fee, or the amount alone when the fee is not known. */
const leavingWhat = (g: Gathered, q: Quoted) => leavingWords(g, !!q.quote);

/** The withdrawal against what is left of each transfer limit on crypto withdrawals (never throws). */
const checkLimits = (ctx: Pick<Ports, 'clock'>, conn: Connection, g: Gathered, q: Quoted): Promise<LimitCheck> =>
  withdrawalLimits(conn, { asset: g.asset, leaving: leaving(g, q), words: leavingWhat(g, q) }, ctx.clock.now());

/** The confirmation's row: the limit it would go over, or the limits it is within, or why they are unknown. */
function limitsRow(check: LimitCheck): string {
  if (check.short.length) return check.short.join('; ');
  if (!check.limits) return 'unknown (the service did not say)';
  if (!check.limits.length) return 'none on crypto withdrawals';
  return `within ${check.limits.join(', ')}${check.notes.length ? ' (not all checked: notes above)' : ''}`;
}

/** Refuses, before sending, an amount plus fee over a known available balance (of the withdrawn asset itself). */
function refuseShortfall(options: WithdrawOptions, gathered: Gathered, quoted: Quoted, funds: Funds): void {
  const asset = debited(options, gathered);
  if (asset !== gathered.asset) return;
  const needed = leaving(gathered, quoted);
  if (!shortfall(funds, asset, needed)) return;
  throw insufficientFunds(asset, needed, funds, leavingWhat(gathered, quoted));
}

/** The options of a request saved by --dry-run --save: every value from the file, the rest from the flags. */
function savedOptions(options: WithdrawOptions, request: CreateCryptoWithdrawalRequest): WithdrawOptions {
  return {
    ...options,
    asset: request.asset,
    network: request.crypto_network,
    address: request.destination_address,
    amount: request.amount,
    total: request.total,
    refId: request.ref_id,
    profileId: request.profile_id,
    identityId: request.identity_id,
    accountId: request.account_id,
    balanceAsset: request.balance_asset,
    memo: request.memo,
    metadata: request.metadata,
    beneficiary: request.beneficiary as Record<string, unknown> | undefined,
  };
}

/** What withdraw takes: every port but none of the rest of the invocation. */
export type WithdrawDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

export async function withdraw(ctx: WithdrawDeps, given: WithdrawOptions): Promise<void> {
  const context = ctx.service.context();
  // A policy file that does not load stops everything, before anything is asked.
  // Its refusal names what the flags asked for.
  await contextPolicy(ctx, 'withdraw', {
    request: {
      ref_id: given.refId,
      asset: given.asset,
      network: given.network,
      amount: given.amount,
      total: given.total,
      destination: given.address,
      destination_nickname: given.to,
      profile_id: given.profileId ?? context.profileId,
    },
  });
  let o = given.request ? savedOptions(given, readSavedRequest(context, given.request, 'withdrawal').request) : given;
  const g = await gather(ctx, o, context.profileId);
  const request = withdrawalRequestOf(ctx, o, g);
  // Checked before connecting: bad input starts no service; its refusal is in the audit trail all the same.
  let checked: CreateCryptoWithdrawalRequest | undefined;
  await refusedBeforeSending(ctx, request, () => {
    checked = check(ctx, g, request.body);
  });
  if (checked) request.body = checked;

  ctx.interrupt.say('stopped: no withdrawal was sent');
  const conn = await ctx.service.connect();
  // A destination the address book says a VASP holds wants a beneficiary: asked for on a terminal, else said.
  const beneficiary = await beneficiaryForDestination(ctx, conn, o, request.body);
  if (beneficiary) {
    o = { ...o, beneficiary };
    request.body = { ...request.body, beneficiary };
  }
  const gate = gateFor(ctx, conn, 'withdraw');
  // The request as the service will receive it (one spelling of the destination), checked again by the gate.
  const p = await gate.prepare(request);
  const body: CreateCryptoWithdrawalRequest = p.body;
  try {
    const verdict = await gate.judge(p, { dryRun: o.dryRun });
    if (!o.dryRun) refuseUnlessAllowed(ctx, verdict, { command: 'withdraw', request: o.request });
    const quoted = await quote(ctx, conn, o, body);
    const funds = await readFunds(conn, g.profileId, [debited(o, g)]);
    const limits = await checkLimits(ctx, conn, g, quoted);
    for (const n of limits.notes) ctx.display.io.err(`${n}\n`);
    if (o.dryRun) return dryRunReport(ctx, { context, o, g, quoted, funds, limits, body, verdict });

    // A preview that already failed ends with its error rather than asking to send what could not be priced.
    if (quoted.failure && !o.yes && ctx.prompter.allowed) throw quoted.failure;
    refuseShortfall(o, g, quoted, funds);
    refuseOverLimit(limits);
    const { transfer, audit } = await confirmAndSend(
      ctx,
      { conn, gate },
      { context, o, g, body, funds, quoted, limits, request },
    );
    await reportTransfer(ctx, conn, o, transfer, audit);
  } catch (e) {
    if (o.dryRun || wasRecorded(e)) throw e;
    return gate.refuse(p, e);
  }
}

/**
 * The Travel Rule: a withdrawal to an address the book says a VASP custodies, without a beneficiary there or in the
 * request, is held by the service (TRAVEL_RULE_INFO_REQUESTED) until one is saved on the address. On a terminal the
 * book is read and the beneficiary asked for (and sent with the withdrawal). Without one nothing more is asked of the
 * service (a script's withdrawal makes no extra request): the answer's secondary status says it was held
 * (reportTransfer). A saved request (--request) is never changed: its approvals are of it as saved.
 */
async function beneficiaryForDestination(
  ctx: Pick<Ports, 'display' | 'prompter'>,
  conn: Connection,
  options: WithdrawOptions,
  body: CreateCryptoWithdrawalRequest,
): Promise<Record<string, unknown> | undefined> {
  if (body.beneficiary !== undefined || options.request || !ctx.prompter.allowed) return undefined;
  const book = await bookTravelRule(conn, body.crypto_network, body.destination_address, body.identity_id);
  if (!beneficiaryMissing(book, undefined)) return undefined;
  const vasp = book?.vasp?.name ?? book?.vasp?.custom_vasp_name;
  ctx.display.io.err(
    `${book?.nickname ?? body.destination_address} is custodied by a VASP${vasp ? ` (${vasp})` : ''} and the address book has no beneficiary for it (the service would hold the withdrawal): who receives the funds?\n`,
  );
  return beneficiaryBody(await askParty(ctx.prompter, 'beneficiary'));
}

/** The withdrawal as it comes to the gate: its request, the approvals given, the nickname it pays by. */
/** A withdrawal's request for the gate, its body as the options and answers make it (checked by the gate). */
type WithdrawalRequest = MoneyRequest<'createCryptoWithdrawal'> & { body: CreateCryptoWithdrawalRequest };

function withdrawalRequestOf(
  ctx: Pick<Ports, 'service'>,
  options: WithdrawOptions,
  gathered: Gathered,
): WithdrawalRequest {
  const body = requestBody(options, gathered);
  return {
    operation: 'createCryptoWithdrawal',
    body,
    command: 'withdraw',
    approvals: {
      scope: approvalScope(ctx.service.context(), 'withdrawal', body.profile_id),
      files: approvalFiles(options.request, options.approvals),
    },
    ...(gathered.nickname !== undefined ? { what: { destination_nickname: gathered.nickname } } : {}),
    flags: WITHDRAW_FLAGS,
  };
}

/** The withdrawal as the audit log names it: what it pays, where from and to. */
function auditWhat(gathered: Gathered, body: CreateCryptoWithdrawalRequest): AuditWhat {
  return {
    asset: body.asset,
    network: body.crypto_network,
    amount: body.amount,
    total: body.total,
    fee_id: body.fee_id,
    destination: body.destination_address,
    destination_nickname: gathered.nickname,
    profile_id: body.profile_id,
    balance_asset: body.balance_asset,
  };
}

/** --dry-run: what would be sent and each rule's verdict (exit 8 when the policy would refuse); --save keeps it. */
async function dryRunReport(
  ctx: Pick<Ports, 'display' | 'service' | 'clock'>,
  report: {
    context: ResolvedContext;
    o: WithdrawOptions;
    g: Gathered;
    quoted: Quoted;
    funds: Funds;
    limits: LimitCheck;
    body: CreateCryptoWithdrawalRequest;
    verdict: PolicyVerdict;
  },
): Promise<void> {
  const { o, body, verdict } = report;
  if (o.save) {
    saveRequest(
      o.save,
      approvalScope(report.context, 'withdrawal', body.profile_id),
      body,
      new Date(ctx.clock.now()).toISOString(),
    );
    ctx.display.io.err(savedNote(o.save, 'withdrawal'));
  }
  const { rows } = summary(
    report.context,
    o,
    report.g,
    { quoted: report.quoted, funds: report.funds, limits: report.limits },
    ctx.clock.now(),
  );
  const extra = { ...(report.quoted.quote ? { quote: report.quoted.quote } : {}), policy: verdict };
  await reportDryRun(ctx, {
    operation: 'createCryptoWithdrawal',
    environment: report.context.environment,
    rows,
    body,
    extra,
  });
  if (ctx.display.format() === 'table') ctx.display.io.err(verdictText(ctx, verdict));
  if (!verdict.allowed) throw refusal(verdict, { command: 'withdraw', request: o.request });
}

/** Seconds a guaranteed fee still holds, or undefined without one. */
function secondsLeft(options: WithdrawOptions, quoted: Quoted, now: number): number | undefined {
  if (!options.quote || !quoted.quote) return undefined;
  const at = Date.parse(quoted.quote.expires_at);
  return Number.isFinite(at) ? Math.max(0, Math.floor((at - now) / 1000)) : undefined;
}

/** What the confirmation and the send share: the withdrawal, what was read for it, and its fee quote (renewed). */
interface Pending {
  /** The withdrawal as it came to the gate (its body is w.body once the fee quote is in). */
  request: MoneyRequest;
  context: ResolvedContext;
  o: WithdrawOptions;
  g: Gathered;
  body: CreateCryptoWithdrawalRequest;
  funds: Funds;
  quoted: Quoted;
  limits: LimitCheck;
}

/** The service refused the withdrawal because its guaranteed fee expired (nothing was created). */
const feeExpired = (e: unknown) =>
  e instanceof CoinopError && e.problem !== undefined && problemName(e.problem) === 'expired';

/**
 * The confirmation, then the one send. With --quote the answer must come while the fee holds: on a terminal the
 * time left counts down under the question. A quote that expires first (by this machine's clock, or by the service's
 * when it refuses the fee as expired) is renewed (the new fee id goes into the request) and the operator is asked
 * again, told whether the fee changed.
 */
async function confirmAndSend(
  ctx: WithdrawDeps,
  send: { conn: Connection; gate: MoneyGate },
  pending: Pending,
): Promise<{ transfer: Record<string, unknown>; audit: Audited }> {
  const { conn, gate } = send;
  const asked = !pending.o.yes && ctx.prompter.allowed;
  const expired = 'the fee quote expired before the answer';
  let renewed = false;
  let announced = false;
  for (;;) {
    // Run out already (a slow terminal): renewed before asking, once in a row (a clock far ahead of the service's
    // would see every new quote run out; then the service says when one has).
    if (asked && !renewed && secondsLeft(pending.o, pending.quoted, ctx.clock.now()) === 0) {
      await renewQuote(ctx, conn, pending, expired);
      renewed = true;
      continue;
    }
    renewed = false;
    if ((await confirmWithdrawal(ctx, pending)) === 'expired') {
      await renewQuote(ctx, conn, pending, expired);
      continue;
    }
    try {
      // A generated ref_id is said once, when the withdrawal is first sent (a renewed quote sends the same ref_id).
      const generated = pending.g.generatedRef && !announced;
      announced = true;
      // As sent: a renewed quote changed the request's fee_id (the gate checks it whole again).
      const p = await gate.prepare({ ...pending.request, body: pending.body });
      const audit: Audited = { kind: 'withdrawal', what: auditWhat(pending.g, pending.body) };
      const transfer = await submitOnce(ctx, gate, p, {
        noun: 'withdrawal',
        generated,
        preflighted: true,
        waitApproval: pending.o.waitApproval ? { timeoutSeconds: pending.o.waitTimeout } : undefined,
      });
      return { transfer, audit };
    } catch (e) {
      // Refused as expired, nothing was made: asked again with a new quote (with --yes the fee was never shown).
      if (!(pending.o.quote && asked && feeExpired(e))) throw e;
      ctx.interrupt.say('stopped: no withdrawal was sent');
      await renewQuote(
        ctx,
        conn,
        pending,
        "the service says the fee quote expired (its clock is ahead of this machine's)",
      );
    }
  }
}

/** One confirmation of the withdrawal as it stands: 'expired' when its fee quote ran out before the answer. */
function confirmWithdrawal(
  ctx: Pick<Ports, 'confirmer' | 'clock'>,
  pending: Pending,
): Promise<'confirmed' | 'expired'> {
  const { o, g, quoted } = pending;
  const { rows, shownAmount } = summary(
    pending.context,
    o,
    g,
    { quoted, funds: pending.funds, limits: pending.limits },
    ctx.clock.now(),
  );
  const left = secondsLeft(o, quoted, ctx.clock.now());
  return ctx.confirmer.confirm({
    title: `Withdraw ${shownAmount ?? g.total} ${g.asset}`,
    rows,
    environment: pending.context.environment,
    yes: o.yes,
    question: 'Send this withdrawal?',
    typed: [
      shownAmount !== undefined
        ? { label: `the amount (${g.asset})`, value: shownAmount }
        : { label: `the total (${g.asset})`, value: g.total ?? '' },
    ],
    // No deadline for a quote already out of time by this clock (a skewed clock must not renew in a loop): the
    // service says so when it is, and the quote is renewed then.
    ...(!left || !quoted.quote
      ? {}
      : {
          deadline: Date.parse(quoted.quote.expires_at),
          now: () => ctx.clock.now(),
          countdown: (s: number) => `fee guaranteed for ${clockText(s)}`,
        }),
  });
}

/** A new fee quote in place of one that expired; says whether the fee changed (the confirmation shows it again). */
async function renewQuote(
  ctx: Pick<Ports, 'display' | 'prompter' | 'audit' | 'clock'>,
  conn: Connection,
  pending: Pending,
  why: string,
): Promise<void> {
  const before = pending.quoted.quote?.fee;
  pending.quoted = await quote(ctx, conn, pending.o, pending.body);
  refuseShortfall(pending.o, pending.g, pending.quoted, pending.funds);
  const after = pending.quoted.quote?.fee;
  const asset = pending.g.asset;
  ctx.display.io.err(
    before === after
      ? `${why}; a new one holds the same fee (${after} ${asset})\n`
      : `${why} and the fee changed: ${before} → ${after} ${asset}; check it and confirm again\n`,
  );
  // A higher fee may go over a limit the old one did not (what is left of a period's limit moves on too).
  if (before === after) return;
  pending.limits = await checkLimits(ctx, conn, pending.g, pending.quoted);
  for (const n of pending.limits.notes) ctx.display.io.err(`${n}\n`);
  refuseOverLimit(pending.limits);
}

/** Every value the flags left out: asked for on a terminal, a usage error otherwise. */
async function gather(
  ctx: Pick<Ports, 'display' | 'service' | 'prompter'>,
  options: WithdrawOptions,
  defaultProfileId: string | undefined,
): Promise<Gathered> {
  const pr = ctx.prompter;
  // The profile first: an unknown one is refused before anything is asked (dry runs too).
  const profile = await commandProfile(ctx, options.profileId, defaultProfileId, "The service's profile to debit");
  // The asset and network given, against the catalogue before anything is asked (the whole request is checked again);
  // on a terminal one it refuses is picked from the list instead.
  if (options.to !== undefined)
    checkUnlisted(
      ctx.service.catalogue(),
      withdrawalTargetIssues({ asset: options.asset, crypto_network: options.network }),
      WITHDRAW_FLAGS,
    );
  const book = options.to !== undefined ? await bookDestination(ctx, { ...options, to: options.to }) : undefined;
  const { asset, network } = book ?? (await askTarget(ctx, options, WITHDRAW_FLAGS));
  const address = book?.address ?? (await askAddress(pr, network, addresses(ctx), options.address));
  let { amount, total } = options;
  if (amount === undefined && total === undefined) {
    if (!pr.allowed) throw amountOrTotalMissing();
    const which = await pr.select(
      'Give',
      [
        { value: 'amount', name: 'amount (fee on top)' },
        { value: 'total', name: 'total (fee included)' },
      ],
      'amount',
    );
    const v = await pr.text(which === 'amount' ? `Amount of ${asset}` : `Total of ${asset}, fee included`, {
      validate: amountRule(asset),
    });
    if (which === 'amount') amount = v;
    else total = v;
  }
  const { refId, generated: generatedRef } = refIdFor(options.refId);
  // Its nickname once everything is asked, for the confirmation or the dry run (a read, only when shown).
  const profileShown = await shownLabel(ctx, profile, options.dryRun || (!options.yes && pr.allowed));
  const profileId = profile.id;
  return {
    asset,
    network,
    address,
    amount,
    total,
    profileId,
    profileShown,
    nickname: book?.nickname,
    refId,
    generatedRef,
  };
}

/** The request the values make. */
function requestBody(options: WithdrawOptions, gathered: Gathered): CreateCryptoWithdrawalRequest {
  return {
    profile_id: gathered.profileId,
    destination_address: gathered.address,
    asset: gathered.asset,
    crypto_network: gathered.network,
    ref_id: gathered.refId,
    ...(gathered.amount !== undefined ? { amount: gathered.amount } : {}),
    ...(gathered.total !== undefined ? { total: gathered.total } : {}),
    ...(options.feeId !== undefined ? { fee_id: options.feeId } : {}),
    ...(options.identityId !== undefined ? { identity_id: options.identityId } : {}),
    ...(options.accountId !== undefined ? { account_id: options.accountId } : {}),
    ...(options.balanceAsset !== undefined ? { balance_asset: options.balanceAsset } : {}),
    ...(options.memo !== undefined ? { memo: options.memo } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
    ...(options.beneficiary ? { beneficiary: options.beneficiary } : {}),
  };
}

/** The request, checked whole against the contract (and the address against its network) before anything is sent. */
function check(
  ctx: Pick<Ports, 'service'>,
  gathered: Gathered,
  body: CreateCryptoWithdrawalRequest,
): CreateCryptoWithdrawalRequest {
  checkRequest(operations.createCryptoWithdrawal, { body }, WITHDRAW_FLAGS, ctx.service.catalogue());
  // What is sent, confirmed, checked by the policy and audited: the destination in its one spelling.
  const sent = canonicalRequest(body, addresses(ctx), WITHDRAW_FLAGS);
  if (sent.destination_address !== gathered.address) {
    gathered.given = gathered.address;
    gathered.address = sent.destination_address;
  }
  return sent;
}

/**
 * A fee quote: binding with --quote (its id goes into the request), and for the confirmation and the dry run so
 * the operator sees the fee (there, a failed quote is only shown).
 */
async function quote(
  ctx: Pick<Ports, 'prompter' | 'audit'>,
  conn: Connection,
  options: WithdrawOptions,
  body: CreateCryptoWithdrawalRequest,
): Promise<Quoted> {
  const wantsConfirm = !options.yes && ctx.prompter.allowed;
  if (!options.quote && !options.dryRun && !wantsConfirm) return {};
  const req = feeRequestOf(body);
  const what: AuditWhat = {
    asset: req.asset,
    network: req.crypto_network,
    amount: body.amount,
    total: body.total,
    destination: req.destination_address,
    profile_id: body.profile_id,
  };
  try {
    const { data } = await conn.client.call('createCryptoWithdrawalFee', { body: req }, WITHDRAW_FLAGS);
    await ctx.audit.note({ kind: 'quote', ref_id: body.ref_id, what, outcome: quoteOutcome(data) }, conn);
    if (options.quote) body.fee_id = data.id;
    return { quote: data };
  } catch (e) {
    await ctx.audit.note({ kind: 'quote', ref_id: body.ref_id, what, outcome: outcomeOfError(e) }, conn);
    if (options.quote) throw e;
    return { error: e instanceof Error ? e.message : String(e), failure: e };
  }
}

/**
 * The destination as confirmed: a testnet address says so, and one without a checksum says so (a mistyped character
 * would not be found).
 */
function destination(gathered: Gathered): string {
  const named = [gathered.address];
  if (gathered.nickname !== undefined) named.push(`(${gathered.nickname})`);
  if (isTestnetAddress(gathered.network, gathered.address)) named.push(`(${gathered.network} testnet)`);
  // An EVM address typed in one case is sent in its EIP-55 casing, which is made from what was typed: a mistyped
  // character is not found, so it is still said.
  if (!addressHasChecksum(gathered.network, gathered.given ?? gathered.address))
    named.push(
      gathered.given === undefined
        ? '(carries no checksum: check every character)'
        : `(given as ${gathered.given}, which carries no checksum: check every character)`,
    );
  return named.join(' ');
}

/** The rows of the confirmation and the dry run; the amount shown (worked out from a total when the fee is known). */
function summary(
  context: ResolvedContext,
  options: WithdrawOptions,
  gathered: Gathered,
  read: { quoted: Quoted; funds: Funds; limits: LimitCheck },
  now: number,
): { rows: [string, string | undefined][]; shownAmount?: string } {
  const { quoted: q, funds } = read;
  const { asset } = gathered;
  const fee = q.quote?.fee;
  const { amount: shownAmount, total: shownTotal } = withdrawalFigures(gathered, fee);
  const rows: [string, string | undefined][] = [
    ['environment', context.environment],
    ['context', `${context.name} (service profile ${gathered.profileShown})`],
    [
      'asset',
      asset + (options.balanceAsset && options.balanceAsset !== asset ? ` (debiting ${options.balanceAsset})` : ''),
    ],
    ['network', gathered.network],
    ['destination', destination(gathered)],
    ['amount', shownAmount ?? '(fee not known yet)'],
    [
      'fee',
      fee
        ? `${fee} ${asset}${options.quote ? ` (guaranteed for ${secondsLeft(options, q, now) ?? '?'} s)` : options.feeId ? ` (estimate; fee id ${options.feeId} sets the fee)` : ' (estimate)'}`
        : `unknown${q.error ? ` (${q.error})` : ''}`,
    ],
    ['total', shownTotal ? `${shownTotal} ${asset}` : '(fee not known yet)'],
    [
      'balance',
      balanceRow(
        funds,
        debited(options, gathered),
        debited(options, gathered) === asset.toUpperCase() ? leaving(gathered, q) : undefined,
      ),
    ],
    ['limits', limitsRow(read.limits)],
    ['ref_id', gathered.refId],
    ['memo', options.memo],
    [
      'metadata',
      options.metadata
        ? Object.entries(options.metadata)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : undefined,
    ],
    ['beneficiary', beneficiaryName(options.beneficiary)],
  ];
  return { rows, shownAmount };
}
