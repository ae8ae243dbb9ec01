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
import { CoinopError, usageError } from '../../cli/errors.js';
import { amountOrTotalMissing } from '../../cli/options.js';
import { checkRequest, checkUnlisted } from '../../client/service-client.js';
import { addressCheckFor } from '../../config/environments.js';
import type { ResolvedContext } from '../../config/context.js';
import type { PolicyVerdict } from '../../policy/evaluate.js';
import { balanceRow, type Funds, insufficientFunds, readFunds, shortfall } from '../../send/funds.js';
import { type LimitCheck, refuseOverLimit, withdrawalLimits } from '../../send/limits-preflight.js';
import { canonicalRequest, feeRequestOf, leavingWords, refIdFor, withdrawalFigures } from '../../send/withdrawal.js';
import { approvalFiles, approvalScope, readSavedRequest, saveRequest } from '../../cli/approval-content.js';
import { profilePolicy, refusal, refuseUnlessAllowed, verdictText } from '../../cli/policy-enforce.js';
import { gateFor, refusedBeforeSending } from '../../cli/gate.js';
import { type MoneyGate, type MoneyRequest, wasRecorded } from '../../gate/gate.js';
import { type Audited, reportDryRun, reportTransfer, submitOnce } from '../../cli/submit.js';
import { bookDestination } from './destination.js';
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
function limitsRow(c: LimitCheck): string {
  if (c.short.length) return c.short.join('; ');
  if (!c.limits) return 'unknown (the service did not say)';
  if (!c.limits.length) return 'none on crypto withdrawals';
  return `within ${c.limits.join(', ')}${c.notes.length ? ' (not all checked: notes above)' : ''}`;
}

/** Refuses, before sending, an amount plus fee over a known available balance (of the withdrawn asset itself). */
function refuseShortfall(o: WithdrawOptions, g: Gathered, q: Quoted, funds: Funds): void {
  const asset = debited(o, g);
  if (asset !== g.asset) return;
  const needed = leaving(g, q);
  if (!shortfall(funds, asset, needed)) return;
  throw insufficientFunds(asset, needed, funds, leavingWhat(g, q));
}

/** The options of a request saved by --dry-run --save: every value from the file, the rest from the flags. */
function savedOptions(o: WithdrawOptions, r: CreateCryptoWithdrawalRequest): WithdrawOptions {
  return {
    ...o,
    asset: r.asset,
    network: r.crypto_network,
    address: r.destination_address,
    amount: r.amount,
    total: r.total,
    refId: r.ref_id,
    profileId: r.profile_id,
    identityId: r.identity_id,
    accountId: r.account_id,
    balanceAsset: r.balance_asset,
    memo: r.memo,
    metadata: r.metadata,
    beneficiary: r.beneficiary as Record<string, unknown> | undefined,
  };
}

/** What withdraw takes: every port but none of the rest of the invocation. */
export type WithdrawDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

export async function withdraw(ctx: WithdrawDeps, given: WithdrawOptions): Promise<void> {
  const profile = ctx.service.context();
  // A policy file that does not load stops everything, before anything is asked.
  // Its refusal names what the flags asked for.
  await profilePolicy(ctx, 'withdraw', {
    request: {
      ref_id: given.refId,
      asset: given.asset,
      network: given.network,
      amount: given.amount,
      total: given.total,
      destination: given.address,
      destination_nickname: given.to,
      profile_id: given.profileId ?? profile.profileId,
    },
  });
  const o = given.request ? savedOptions(given, readSavedRequest(profile, given.request).request) : given;
  const g = await gather(ctx, o, profile.profileId);
  const request = withdrawalRequestOf(ctx, o, g);
  // Checked before connecting: bad input starts no service; its refusal is in the audit trail all the same.
  let checked: CreateCryptoWithdrawalRequest | undefined;
  await refusedBeforeSending(ctx, request, () => {
    checked = check(ctx, g, request.body as unknown as CreateCryptoWithdrawalRequest);
  });
  if (checked) request.body = checked;

  ctx.interrupt.say('stopped: no withdrawal was sent');
  const conn = await ctx.service.connect();
  const gate = gateFor(ctx, conn, 'withdraw');
  // The request as the service will receive it (one spelling of the destination), checked again by the gate.
  const p = await gate.prepare(request);
  const body = p.body as unknown as CreateCryptoWithdrawalRequest;
  try {
    const verdict = await gate.judge(p, { dryRun: o.dryRun });
    if (!o.dryRun) refuseUnlessAllowed(ctx, verdict);
    const quoted = await quote(ctx, conn, o, body);
    const funds = await readFunds(conn, g.profileId, [debited(o, g)]);
    const limits = await checkLimits(ctx, conn, g, quoted);
    for (const n of limits.notes) ctx.display.io.err(`${n}\n`);
    if (o.dryRun) return dryRunReport(ctx, { profile, o, g, quoted, funds, limits, body, verdict });

    // A preview that already failed ends with its error rather than asking to send what could not be priced.
    if (quoted.failure && !o.yes && ctx.prompter.allowed) throw quoted.failure;
    refuseShortfall(o, g, quoted, funds);
    refuseOverLimit(limits);
    const { transfer, audit } = await confirmAndSend(
      ctx,
      { conn, gate },
      { profile, o, g, body, funds, quoted, limits, request },
    );
    await reportTransfer(ctx, conn, o, transfer, audit);
  } catch (e) {
    if (o.dryRun || wasRecorded(e)) throw e;
    return gate.refuse(p, e);
  }
}

/** The withdrawal as it comes to the gate: its request, the approvals given, the nickname it pays by. */
function withdrawalRequestOf(ctx: Pick<Ports, 'service'>, o: WithdrawOptions, g: Gathered): MoneyRequest {
  const body = requestBody(o, g);
  return {
    operation: 'createCryptoWithdrawal',
    body,
    command: 'withdraw',
    approvals: {
      scope: approvalScope(ctx.service.context(), 'withdrawal', body.profile_id),
      files: approvalFiles(o.request, o.approvals),
    },
    ...(g.nickname !== undefined ? { what: { destination_nickname: g.nickname } } : {}),
    flags: WITHDRAW_FLAGS,
  };
}

/** The withdrawal as the audit log names it: what it pays, where from and to. */
function auditWhat(g: Gathered, body: CreateCryptoWithdrawalRequest): AuditWhat {
  return {
    asset: body.asset,
    network: body.crypto_network,
    amount: body.amount,
    total: body.total,
    fee_id: body.fee_id,
    destination: body.destination_address,
    destination_nickname: g.nickname,
    profile_id: body.profile_id,
    balance_asset: body.balance_asset,
  };
}

/** --dry-run: what would be sent and each rule's verdict (exit 8 when the policy would refuse); --save keeps it. */
async function dryRunReport(
  ctx: Pick<Ports, 'display' | 'service' | 'clock'>,
  w: {
    profile: ResolvedContext;
    o: WithdrawOptions;
    g: Gathered;
    quoted: Quoted;
    funds: Funds;
    limits: LimitCheck;
    body: CreateCryptoWithdrawalRequest;
    verdict: PolicyVerdict;
  },
): Promise<void> {
  const { o, body, verdict } = w;
  if (o.save) {
    saveRequest(
      o.save,
      approvalScope(w.profile, 'withdrawal', body.profile_id),
      body,
      new Date(ctx.clock.now()).toISOString(),
    );
    ctx.display.io.err(
      `saved the request to ${o.save}: have it approved (coinop approve ${o.save}), then send it with coinop withdraw --request ${o.save}\n`,
    );
  }
  const { rows } = summary(w.profile, o, w.g, { quoted: w.quoted, funds: w.funds, limits: w.limits }, ctx.clock.now());
  const extra = { ...(w.quoted.quote ? { quote: w.quoted.quote } : {}), policy: verdict };
  await reportDryRun(ctx, {
    operation: 'createCryptoWithdrawal',
    environment: w.profile.environment,
    rows,
    body,
    extra,
  });
  if (ctx.display.format() === 'table') ctx.display.io.err(verdictText(ctx, verdict));
  if (!verdict.allowed) throw refusal(verdict);
}

/** Seconds a guaranteed fee still holds, or undefined without one. */
function secondsLeft(o: WithdrawOptions, q: Quoted, now: number): number | undefined {
  if (!o.quote || !q.quote) return undefined;
  const at = Date.parse(q.quote.expires_at);
  return Number.isFinite(at) ? Math.max(0, Math.floor((at - now) / 1000)) : undefined;
}

/** What the confirmation and the send share: the withdrawal, what was read for it, and its fee quote (renewed). */
interface Pending {
  /** The withdrawal as it came to the gate (its body is w.body once the fee quote is in). */
  request: MoneyRequest;
  profile: ResolvedContext;
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
  w: Pending,
): Promise<{ transfer: Record<string, unknown>; audit: Audited }> {
  const { conn, gate } = send;
  const asked = !w.o.yes && ctx.prompter.allowed;
  const expired = 'the fee quote expired before the answer';
  let renewed = false;
  let announced = false;
  for (;;) {
    // Run out already (a slow terminal): renewed before asking, once in a row (a clock far ahead of the service's
    // would see every new quote run out; then the service says when one has).
    if (asked && !renewed && secondsLeft(w.o, w.quoted, ctx.clock.now()) === 0) {
      await renewQuote(ctx, conn, w, expired);
      renewed = true;
      continue;
    }
    renewed = false;
    if ((await confirmWithdrawal(ctx, w)) === 'expired') {
      await renewQuote(ctx, conn, w, expired);
      continue;
    }
    try {
      // A generated ref_id is said once, when the withdrawal is first sent (a renewed quote sends the same ref_id).
      const generated = w.g.generatedRef && !announced;
      announced = true;
      // As sent: a renewed quote changed the request's fee_id (the gate checks it whole again).
      const p = await gate.prepare({ ...w.request, body: w.body });
      const audit: Audited = { kind: 'withdrawal', what: auditWhat(w.g, w.body) };
      const transfer = await submitOnce(ctx, gate, p, { noun: 'withdrawal', generated, preflighted: true });
      return { transfer, audit };
    } catch (e) {
      // Refused as expired, nothing was made: asked again with a new quote (with --yes the fee was never shown).
      if (!(w.o.quote && asked && feeExpired(e))) throw e;
      ctx.interrupt.say('stopped: no withdrawal was sent');
      await renewQuote(ctx, conn, w, "the service says the fee quote expired (its clock is ahead of this machine's)");
    }
  }
}

/** One confirmation of the withdrawal as it stands: 'expired' when its fee quote ran out before the answer. */
function confirmWithdrawal(ctx: Pick<Ports, 'confirmer' | 'clock'>, w: Pending): Promise<'confirmed' | 'expired'> {
  const { o, g, quoted } = w;
  const { rows, shownAmount } = summary(w.profile, o, g, { quoted, funds: w.funds, limits: w.limits }, ctx.clock.now());
  const left = secondsLeft(o, quoted, ctx.clock.now());
  return ctx.confirmer.confirm({
    title: `Withdraw ${shownAmount ?? g.total} ${g.asset}`,
    rows,
    environment: w.profile.environment,
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
  w: Pending,
  why: string,
): Promise<void> {
  const before = w.quoted.quote?.fee;
  w.quoted = await quote(ctx, conn, w.o, w.body);
  refuseShortfall(w.o, w.g, w.quoted, w.funds);
  const after = w.quoted.quote?.fee;
  const asset = w.g.asset;
  ctx.display.io.err(
    before === after
      ? `${why}; a new one holds the same fee (${after} ${asset})\n`
      : `${why} and the fee changed: ${before} → ${after} ${asset}; check it and confirm again\n`,
  );
  // A higher fee may go over a limit the old one did not (what is left of a period's limit moves on too).
  if (before === after) return;
  w.limits = await checkLimits(ctx, conn, w.g, w.quoted);
  for (const n of w.limits.notes) ctx.display.io.err(`${n}\n`);
  refuseOverLimit(w.limits);
}

/** Every value the flags left out: asked for on a terminal, a usage error otherwise. */
async function gather(
  ctx: Pick<Ports, 'display' | 'service' | 'prompter'>,
  o: WithdrawOptions,
  defaultProfileId: string | undefined,
): Promise<Gathered> {
  const pr = ctx.prompter;
  // The asset and network given, against the catalogue before anything is asked (the whole request is checked again);
  // on a terminal one it refuses is picked from the list instead.
  if (o.to !== undefined)
    checkUnlisted(
      ctx.service.catalogue(),
      withdrawalTargetIssues({ asset: o.asset, crypto_network: o.network }),
      WITHDRAW_FLAGS,
    );
  const book = o.to !== undefined ? await bookDestination(ctx, { ...o, to: o.to }) : undefined;
  const { asset, network } = book ?? (await askTarget(ctx, o, WITHDRAW_FLAGS));
  const address = book?.address ?? (await askAddress(pr, network, addresses(ctx), o.address));
  let { amount, total } = o;
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
  let profileId = o.profileId ?? defaultProfileId;
  if (!profileId) {
    if (!pr.allowed)
      throw usageError(
        'missing --profile-id',
        "give the service's profile id, or save one with coinop login --profile-id",
      );
    profileId = await pr.text("The service's profile id to debit");
  }
  const { refId, generated: generatedRef } = refIdFor(o.refId);
  return { asset, network, address, amount, total, profileId, nickname: book?.nickname, refId, generatedRef };
}

/** The request the values make. */
function requestBody(o: WithdrawOptions, g: Gathered): CreateCryptoWithdrawalRequest {
  return {
    profile_id: g.profileId,
    destination_address: g.address,
    asset: g.asset,
    crypto_network: g.network,
    ref_id: g.refId,
    ...(g.amount !== undefined ? { amount: g.amount } : {}),
    ...(g.total !== undefined ? { total: g.total } : {}),
    ...(o.feeId !== undefined ? { fee_id: o.feeId } : {}),
    ...(o.identityId !== undefined ? { identity_id: o.identityId } : {}),
    ...(o.accountId !== undefined ? { account_id: o.accountId } : {}),
    ...(o.balanceAsset !== undefined ? { balance_asset: o.balanceAsset } : {}),
    ...(o.memo !== undefined ? { memo: o.memo } : {}),
    ...(o.metadata ? { metadata: o.metadata } : {}),
    ...(o.beneficiary ? { beneficiary: o.beneficiary } : {}),
  };
}

/** The request, checked whole against the contract (and the address against its network) before anything is sent. */
function check(
  ctx: Pick<Ports, 'service'>,
  g: Gathered,
  body: CreateCryptoWithdrawalRequest,
): CreateCryptoWithdrawalRequest {
  checkRequest(operations.createCryptoWithdrawal, { body }, WITHDRAW_FLAGS, ctx.service.catalogue());
  // What is sent, confirmed, checked by the policy and audited: the destination in its one spelling.
  const sent = canonicalRequest(body, addresses(ctx), WITHDRAW_FLAGS);
  if (sent.destination_address !== g.address) {
    g.given = g.address;
    g.address = sent.destination_address;
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
  o: WithdrawOptions,
  body: CreateCryptoWithdrawalRequest,
): Promise<Quoted> {
  const wantsConfirm = !o.yes && ctx.prompter.allowed;
  if (!o.quote && !o.dryRun && !wantsConfirm) return {};
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
    if (o.quote) body.fee_id = data.id;
    return { quote: data };
  } catch (e) {
    await ctx.audit.note({ kind: 'quote', ref_id: body.ref_id, what, outcome: outcomeOfError(e) }, conn);
    if (o.quote) throw e;
    return { error: e instanceof Error ? e.message : String(e), failure: e };
  }
}

/**
 * The destination as confirmed: a testnet address says so, and one without a checksum says so (a mistyped character
 * would not be found).
 */
function destination(g: Gathered): string {
  const named = [g.address];
  if (g.nickname !== undefined) named.push(`(${g.nickname})`);
  if (isTestnetAddress(g.network, g.address)) named.push(`(${g.network} testnet)`);
  // An EVM address typed in one case is sent in its EIP-55 casing, which is made from what was typed: a mistyped
  // character is not found, so it is still said.
  if (!addressHasChecksum(g.network, g.given ?? g.address))
    named.push(
      g.given === undefined
        ? '(carries no checksum: check every character)'
        : `(given as ${g.given}, which carries no checksum: check every character)`,
    );
  return named.join(' ');
}

/** The rows of the confirmation and the dry run; the amount shown (worked out from a total when the fee is known). */
function summary(
  profile: ResolvedContext,
  o: WithdrawOptions,
  g: Gathered,
  read: { quoted: Quoted; funds: Funds; limits: LimitCheck },
  now: number,
): { rows: [string, string | undefined][]; shownAmount?: string } {
  const { quoted: q, funds } = read;
  const { asset } = g;
  const fee = q.quote?.fee;
  const { amount: shownAmount, total: shownTotal } = withdrawalFigures(g, fee);
  const rows: [string, string | undefined][] = [
    ['environment', profile.environment],
    ['context', `${profile.name} (service profile ${g.profileId})`],
    ['asset', asset + (o.balanceAsset && o.balanceAsset !== asset ? ` (debiting ${o.balanceAsset})` : '')],
    ['network', g.network],
    ['destination', destination(g)],
    ['amount', shownAmount ?? '(fee not known yet)'],
    [
      'fee',
      fee
        ? `${fee} ${asset}${o.quote ? ` (guaranteed for ${secondsLeft(o, q, now) ?? '?'} s)` : o.feeId ? ` (estimate; fee id ${o.feeId} sets the fee)` : ' (estimate)'}`
        : `unknown${q.error ? ` (${q.error})` : ''}`,
    ],
    ['total', shownTotal ? `${shownTotal} ${asset}` : '(fee not known yet)'],
    ['balance', balanceRow(funds, debited(o, g), debited(o, g) === asset.toUpperCase() ? leaving(g, q) : undefined)],
    ['limits', limitsRow(read.limits)],
    ['ref_id', g.refId],
    ['memo', o.memo],
    [
      'metadata',
      o.metadata
        ? Object.entries(o.metadata)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : undefined,
    ],
  ];
  return { rows, shownAmount };
}
