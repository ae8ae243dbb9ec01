// coinop withdraw: gather the values the flags left out, check the request, quote, confirm, send once (ref_id),
// report (optionally following the transfer to its end).
import {
  addressHasChecksum,
  dec,
  fmt,
  operations,
  withdrawalTargetIssues,
  type CreateCryptoWithdrawalRequest,
  type CryptoNetwork,
  type CryptoWithdrawalFee,
  type Decimal,
} from '../../api/index.js';
import type { AuditWhat } from '../../audit/entry.js';
import { askAddress, askAsset, askNetwork, amountRule } from '../../cli/ask.js';
import { outcomeOfError, quoteOutcome } from '../../cli/audit.js';
import type { CliContext, Connection } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { amountOrTotalMissing } from '../../cli/options.js';
import { checkRequest, checkUnlisted } from '../../client/api.js';
import type { ResolvedProfile } from '../../config/profile.js';
import { announceRefId, refIdFor, reportDryRun, reportTransfer, submitOnce } from '../transfers/submit.js';
import { balanceRow, type Funds, insufficientFunds, readFunds, shortfall } from './funds.js';
import { bookDestination } from './destination.js';
import { checkAddress, WITHDRAW_FLAGS, type WithdrawOptions } from './options.js';

/** The values of the withdrawal: each from its flag, or asked for on a terminal. */
interface Gathered {
  asset: string;
  network: CryptoNetwork;
  address: string;
  amount?: string;
  total?: string;
  profileId: string;
  /** The address book's nickname of the destination, with --to. */
  nickname?: string;
  refId: string;
  /** No --ref-id was given: the ref_id is made up here, and printed. */
  generatedRef: boolean;
}

/** The fee quote for the summary (and, with --quote, the fee id sent); why there is none when it failed. */
interface Quoted {
  quote?: CryptoWithdrawalFee;
  error?: string;
  /** The failed quote itself, to end a terminal preview with. */
  failure?: unknown;
}

/** The asset the withdrawal is debited from. */
const debited = (o: WithdrawOptions, g: Gathered): string => (o.balanceAsset ?? g.asset).toUpperCase();

/** What leaves the balance: the total, or the amount plus the fee when known (the amount alone when not). */
function leaving(g: Gathered, q: Quoted): Decimal {
  if (g.total !== undefined) return dec(g.total);
  const fee = q.quote?.fee;
  return dec(g.amount ?? '0').plus(fee ? dec(fee) : 0);
}

/** Refuses, before sending, an amount plus fee over a known available balance (of the withdrawn asset itself). */
function refuseShortfall(o: WithdrawOptions, g: Gathered, q: Quoted, funds: Funds): void {
  const asset = debited(o, g);
  if (asset !== g.asset.toUpperCase()) return;
  const needed = leaving(g, q);
  if (!shortfall(funds, asset, needed)) return;
  const what = g.total !== undefined ? 'the total' : q.quote ? 'the amount plus fee' : 'the amount';
  throw insufficientFunds(asset, needed, funds, what);
}

export async function withdraw(ctx: CliContext, o: WithdrawOptions): Promise<void> {
  const profile = ctx.profile();
  // The asset and network given, against the catalogue before anything is asked (the whole request is checked again).
  checkUnlisted(ctx.catalogue(), withdrawalTargetIssues({ asset: o.asset, crypto_network: o.network }), WITHDRAW_FLAGS);
  const g = await gather(ctx, o, profile.profileId);
  const body = check(ctx, o, g);

  ctx.interruptNote = 'interrupted: no withdrawal was sent';
  if (g.generatedRef) announceRefId(ctx, g.refId);
  const conn = await ctx.connect();
  const quoted = await quote(ctx, conn, o, body);
  const funds = await readFunds(conn, g.profileId, [debited(o, g)]);
  if (o.dryRun) {
    const { rows } = summary(profile, o, g, quoted, funds, ctx.now());
    const extra = quoted.quote ? { quote: quoted.quote } : {};
    return reportDryRun(ctx, {
      operation: 'createCryptoWithdrawal',
      environment: profile.environment,
      rows,
      body,
      extra,
    });
  }

  // A preview that already failed ends with its error rather than asking to send what could not be priced.
  if (quoted.failure && !o.yes && ctx.prompter.allowed) throw quoted.failure;
  refuseShortfall(o, g, quoted, funds);
  await confirmWithdrawal(ctx, conn, { profile, o, g, body, funds, quoted });
  const audit = { kind: 'withdrawal' as const, what: auditWhat(g, body) };
  const transfer = await submitOnce(ctx, conn, {
    operation: 'createCryptoWithdrawal',
    body,
    flags: WITHDRAW_FLAGS,
    noun: 'withdrawal',
    audit,
  });
  await reportTransfer(ctx, conn, o, transfer, audit);
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

/** Seconds a guaranteed fee still holds, or undefined without one. */
function secondsLeft(o: WithdrawOptions, q: Quoted, now: number): number | undefined {
  if (!o.quote || !q.quote) return undefined;
  const at = Date.parse(q.quote.expires_at);
  return Number.isFinite(at) ? Math.max(0, Math.floor((at - now) / 1000)) : undefined;
}

/**
 * The confirmation; with --quote it must come while the fee holds. A quote that expires first is renewed (the new
 * fee id goes into the request) and the operator is asked again, told whether the fee changed.
 */
async function confirmWithdrawal(
  ctx: CliContext,
  conn: Connection,
  w: {
    profile: ResolvedProfile;
    o: WithdrawOptions;
    g: Gathered;
    body: CreateCryptoWithdrawalRequest;
    funds: Funds;
    quoted: Quoted;
  },
): Promise<void> {
  const { o, g } = w;
  let { quoted } = w;
  for (;;) {
    const { rows, shownAmount } = summary(w.profile, o, g, quoted, w.funds, ctx.now());
    const left = secondsLeft(o, quoted, ctx.now());
    const answer = await ctx.confirm({
      title: `Withdraw ${shownAmount ?? g.total} ${g.asset}`,
      rows,
      environment: w.profile.environment,
      yes: o.yes,
      question: `Send this withdrawal?${left === undefined ? '' : ` (the fee holds for ${left} s)`}`,
      typed: [
        shownAmount !== undefined
          ? { label: `the amount (${g.asset})`, value: shownAmount }
          : { label: `the total (${g.asset})`, value: g.total ?? '' },
      ],
      // No deadline for a quote already out of time by this clock (a skewed clock must not renew in a loop).
      ...(!left || !quoted.quote ? {} : { deadline: Date.parse(quoted.quote.expires_at), now: ctx.now }),
    });
    if (answer === 'confirmed') return;
    const before = quoted.quote?.fee;
    quoted = await quote(ctx, conn, o, w.body);
    refuseShortfall(o, g, quoted, w.funds);
    const after = quoted.quote?.fee;
    ctx.io.err(
      before === after
        ? `the fee quote expired before the answer; a new one holds the same fee (${after} ${g.asset})\n`
        : `the fee quote expired before the answer and the fee changed: ${before} → ${after} ${g.asset}; check it and confirm again\n`,
    );
  }
}

/** Every value the flags left out: asked for on a terminal, a usage error otherwise. */
async function gather(ctx: CliContext, o: WithdrawOptions, defaultProfileId: string | undefined): Promise<Gathered> {
  const pr = ctx.prompter;
  const book = o.to !== undefined ? await bookDestination(ctx, { ...o, to: o.to }) : undefined;
  const asset = book?.asset ?? (await askAsset(pr, o.asset));
  const network = book?.network ?? (await askNetwork(pr, asset, o.network));
  const address = book?.address ?? (await askAddress(pr, network, o.address));
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

/** The request, checked whole against the contract (and the address against its network) before anything is sent. */
function check(ctx: CliContext, o: WithdrawOptions, g: Gathered): CreateCryptoWithdrawalRequest {
  const body: CreateCryptoWithdrawalRequest = {
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
  checkRequest(operations.createCryptoWithdrawal, { body }, WITHDRAW_FLAGS, ctx.catalogue());
  checkAddress(g.network, g.address);
  return body;
}

/**
 * A fee quote: binding with --quote (its id goes into the request), and for the confirmation and the dry run so
 * the operator sees the fee (there, a failed quote is only shown).
 */
async function quote(
  ctx: CliContext,
  conn: Connection,
  o: WithdrawOptions,
  body: CreateCryptoWithdrawalRequest,
): Promise<Quoted> {
  const wantsConfirm = !o.yes && ctx.prompter.allowed;
  if (!o.quote && !o.dryRun && !wantsConfirm) return {};
  const req = {
    asset: body.asset,
    destination_address: body.destination_address,
    crypto_network: body.crypto_network,
    ...(body.amount !== undefined ? { amount: body.amount } : { total: body.total }),
  };
  const what: AuditWhat = {
    asset: req.asset,
    network: req.crypto_network,
    amount: body.amount,
    total: body.total,
    destination: req.destination_address,
    profile_id: body.profile_id,
  };
  try {
    const { data } = await conn.client.call<CryptoWithdrawalFee>(
      'createCryptoWithdrawalFee',
      { body: req },
      WITHDRAW_FLAGS,
    );
    await ctx.audit.note({ kind: 'quote', ref_id: body.ref_id, what, outcome: quoteOutcome(data) }, conn);
    if (o.quote) body.fee_id = data.id;
    return { quote: data };
  } catch (e) {
    await ctx.audit.note({ kind: 'quote', ref_id: body.ref_id, what, outcome: outcomeOfError(e) }, conn);
    if (o.quote) throw e;
    return { error: e instanceof Error ? e.message : String(e), failure: e };
  }
}

/** The destination as confirmed: one without a checksum says so (a mistyped character would not be found). */
function destination(g: Gathered): string {
  const named = g.nickname !== undefined ? `${g.address} (${g.nickname})` : g.address;
  return addressHasChecksum(g.network, g.address) ? named : `${named} (carries no checksum: check every character)`;
}

/** The rows of the confirmation and the dry run; the amount shown (worked out from a total when the fee is known). */
function summary(
  profile: ResolvedProfile,
  o: WithdrawOptions,
  g: Gathered,
  q: Quoted,
  funds: Funds,
  now: number,
): { rows: [string, string | undefined][]; shownAmount?: string } {
  const { asset, amount, total } = g;
  const fee = q.quote?.fee;
  const shownAmount = amount ?? (fee && total ? fmt(dec(total).minus(fee)) : undefined);
  const shownTotal = total ?? (fee && amount ? fmt(dec(amount).plus(fee)) : undefined);
  const rows: [string, string | undefined][] = [
    ['environment', profile.environment],
    ['profile', `${profile.name} (service profile ${g.profileId})`],
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
