// coinop withdraw fiat: USD from a profile to a saved fiat account. Gather the values the flags left out, check the
// request, read the account, the balance and the transfer limits (the preflight), confirm (the amount typed out in
// production), send once through the gate (ref_id), report (optionally following the transfer to its end).
import { type CreateFiatWithdrawalRequest, type FiatAccount, operations } from '../../../contract/index.js';
import { amountRule } from '../../../cli/ask.js';
import {
  approvalFiles,
  approvalScope,
  readSavedRequest,
  savedNote,
  saveRequest,
} from '../../../cli/approval-content.js';
import { usageError } from '../../../cli/errors.js';
import { fiatAccountText, pickFiatAccount, recentFiatAccounts } from '../../../cli/fiat-account-pick.js';
import { gateFor, refusedBeforeSending } from '../../../cli/gate.js';
import type { Connection } from '../../../cli/invocation.js';
import { amountOrTotalMissing } from '../../../cli/options.js';
import { contextPolicy, refusal, refuseUnlessAllowed, verdictText } from '../../../cli/policy-enforce.js';
import type { Ports } from '../../../cli/ports.js';
import { commandProfile, shownLabel } from '../../../cli/service-profiles.js';
import { need } from '../../../cli/prompt.js';
import { reportDryRun, reportTransfer, submitOnce } from '../../../cli/submit.js';
import { checkRequest } from '../../../client/service-client.js';
import { type MoneyRequest, wasRecorded } from '../../../gate/gate.js';
import { balanceRow, type Funds, insufficientFunds, readFunds, shortfall } from '../../../send/funds.js';
import { fiatWithdrawalType, readFiatAccount } from '../../../send/fiat.js';
import { type LimitCheck, refuseOverLimit, withdrawalLimits } from '../../../send/limits-preflight.js';
import { leavingWords, refIdFor, withdrawalFigures } from '../../../send/withdrawal.js';
import { FIAT_WITHDRAW_FLAGS, type FiatWithdrawOptions } from './options.js';

/** What withdraw fiat takes: every port but none of the rest of the invocation. */
export type FiatWithdrawDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

/** The fiat account: from --fiat-account-id, or picked from the service's accounts on a terminal. */
async function accountId(ctx: FiatWithdrawDeps, options: FiatWithdrawOptions): Promise<string> {
  if (options.fiatAccountId !== undefined) return options.fiatAccountId;
  return need(ctx.prompter, '--fiat-account-id', undefined, async () => {
    const conn = await ctx.service.connect();
    const items = await recentFiatAccounts(conn);
    if (!items.length) throw usageError('no fiat accounts yet', 'add one: coinop fiat-accounts create');
    return pickFiatAccount(ctx.prompter, 'Send to fiat account', items);
  });
}

/** The request from the flags, and from the operator on a terminal for what they left out (checked whole after). */
async function gather(
  ctx: FiatWithdrawDeps,
  options: FiatWithdrawOptions,
  defaultProfile: string | undefined,
): Promise<{ body: CreateFiatWithdrawalRequest; generated: boolean; profileShown: string }> {
  const pr = ctx.prompter;
  // The profile first: an unknown one is refused before anything is asked (dry runs too).
  const profile = await commandProfile(ctx, options.profileId, defaultProfile, "The service's profile to debit");
  const profileShown = await shownLabel(ctx, profile, options.dryRun || (!options.yes && pr.allowed));
  const profileId = profile.id;
  const fiatAccountId = await accountId(ctx, options);
  let amount = options.amount;
  if (amount === undefined && options.total === undefined) {
    if (!pr.allowed) throw amountOrTotalMissing();
    amount = await pr.text(`Amount of ${options.asset}`, { validate: amountRule(options.asset) });
  }
  const { refId, generated } = refIdFor(options.refId);
  const body: CreateFiatWithdrawalRequest = {
    profile_id: profileId,
    fiat_account_id: fiatAccountId,
    asset: options.asset,
    ref_id: refId,
    ...(amount !== undefined ? { amount } : { total: options.total }),
    ...(options.identityId !== undefined ? { identity_id: options.identityId } : {}),
    ...(options.accountId !== undefined ? { account_id: options.accountId } : {}),
    ...(options.memo !== undefined ? { memo: options.memo } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
  };
  return { body, generated, profileShown };
}

/** What the preflight read: the account, what the profile has, the limits on withdrawals of the account's kind. */
interface Preflight {
  account?: FiatAccount;
  accountError?: string;
  funds: Funds;
  limits: LimitCheck;
}

async function preflight(
  ctx: FiatWithdrawDeps,
  conn: Connection,
  body: CreateFiatWithdrawalRequest,
): Promise<Preflight> {
  const { account, error: accountError } = await readFiatAccount(conn, body.fiat_account_id);
  const transferType = fiatWithdrawalType(account);
  const figures = withdrawalFigures(body, undefined);
  const [funds, limits] = await Promise.all([
    readFunds(conn, body.profile_id, [body.asset]),
    withdrawalLimits(
      conn,
      { asset: body.asset, leaving: figures.leaving, words: leavingWords(body, false), transferType },
      ctx.clock.now(),
    ),
  ]);
  return { account, accountError, funds, limits };
}

/** The confirmation's and the dry run's rows. */
function rows(
  conn: Connection,
  body: CreateFiatWithdrawalRequest,
  pre: Preflight,
  profileShown: string,
): [string, string | undefined][] {
  const leaving = withdrawalFigures(body, undefined).leaving;
  const limits = pre.limits;
  return [
    ['environment', conn.context.environment],
    ['context', conn.context.name],
    ['from', `service profile ${profileShown}`],
    ['balance', balanceRow(pre.funds, body.asset, leaving)],
    [
      'to',
      pre.account
        ? `fiat account ${body.fiat_account_id}: ${fiatAccountText(pre.account)}, ${pre.account.status}`
        : `fiat account ${body.fiat_account_id} (${pre.accountError ?? 'unknown'})`,
    ],
    [body.total !== undefined ? 'total' : 'amount', `${body.total ?? body.amount} ${body.asset}`],
    [
      'limits',
      limits.short.length
        ? limits.short.join('; ')
        : !limits.limits
          ? 'unknown (the service did not say)'
          : limits.limits.length
            ? `within ${limits.limits.join(', ')}`
            : 'none on this kind of withdrawal',
    ],
    ['memo', body.memo],
    ['ref_id', body.ref_id],
  ];
}

/** The options of a request saved by --dry-run --save: every value from the file, the rest from the flags. */
function savedOptions(options: FiatWithdrawOptions, request: CreateFiatWithdrawalRequest): FiatWithdrawOptions {
  return {
    ...options,
    fiatAccountId: request.fiat_account_id,
    amount: request.amount,
    total: request.total,
    asset: request.asset,
    refId: request.ref_id,
    profileId: request.profile_id,
    identityId: request.identity_id,
    accountId: request.account_id,
    memo: request.memo,
    metadata: request.metadata,
  };
}

export async function withdrawFiat(ctx: FiatWithdrawDeps, given: FiatWithdrawOptions): Promise<void> {
  const context = ctx.service.context();
  const options = given.request
    ? savedOptions(given, readSavedRequest(context, given.request, 'fiat_withdrawal').request)
    : given;
  // A policy file that does not load stops everything, before anything is asked.
  await contextPolicy(ctx, 'withdraw fiat', {
    request: {
      ref_id: options.refId,
      asset: options.asset,
      amount: options.amount,
      total: options.total,
      destination: options.fiatAccountId,
      profile_id: options.profileId ?? context.profileId,
    },
  });
  const { body, generated, profileShown } = await gather(ctx, options, context.profileId);
  const request: MoneyRequest<'createFiatWithdrawal'> = {
    operation: 'createFiatWithdrawal',
    body,
    command: 'withdraw fiat',
    approvals: {
      scope: approvalScope(context, 'withdrawal', body.profile_id),
      files: approvalFiles(options.request, options.approvals),
    },
    flags: FIAT_WITHDRAW_FLAGS,
  };
  await refusedBeforeSending(ctx, request, () =>
    checkRequest(operations.createFiatWithdrawal, { body }, FIAT_WITHDRAW_FLAGS, ctx.service.catalogue()),
  );
  ctx.interrupt.say('stopped: no fiat withdrawal was sent');
  const conn = await ctx.service.connect();
  const gate = gateFor(ctx, conn, 'withdraw fiat');
  const p = await gate.prepare(request);
  try {
    const verdict = await gate.judge(p, { dryRun: options.dryRun });
    if (!options.dryRun) refuseUnlessAllowed(ctx, verdict, { command: 'withdraw fiat', request: options.request });
    const pre = await preflight(ctx, conn, p.body);
    for (const n of pre.limits.notes) ctx.display.io.err(`${n}\n`);
    const summary = rows(conn, p.body, pre, profileShown);
    if (options.dryRun) {
      if (options.save) {
        const scope = approvalScope(context, 'withdrawal', p.body.profile_id);
        saveRequest(options.save, scope, p.body, new Date(ctx.clock.now()).toISOString(), 'fiat_withdrawal');
        ctx.display.io.err(savedNote(options.save, 'fiat_withdrawal'));
      }
      await reportDryRun(ctx, {
        operation: 'createFiatWithdrawal',
        environment: context.environment,
        rows: summary,
        body: p.body,
        extra: { policy: verdict, ...(pre.account ? { fiat_account: pre.account } : {}) },
      });
      if (ctx.display.format() === 'table') ctx.display.io.err(verdictText(ctx, verdict));
      if (!verdict.allowed) throw refusal(verdict, { command: 'withdraw fiat', request: options.request });
      return;
    }
    const leaving = withdrawalFigures(p.body, undefined).leaving;
    if (shortfall(pre.funds, p.body.asset, leaving))
      throw insufficientFunds(p.body.asset, leaving, pre.funds, leavingWords(p.body, false));
    refuseOverLimit(pre.limits);
    const figure = (p.body.amount ?? p.body.total) as string;
    await ctx.confirmer.confirm({
      title: `Withdraw ${figure} ${p.body.asset} to a fiat account`,
      rows: summary,
      environment: context.environment,
      yes: options.yes,
      question: 'Send this fiat withdrawal?',
      // In production the amount is typed out, as for a crypto withdrawal.
      typed: [{ label: `the ${p.body.amount !== undefined ? 'amount' : 'total'} (${p.body.asset})`, value: figure }],
    });
    const transfer = await submitOnce(ctx, gate, p, {
      noun: 'fiat withdrawal',
      generated,
      preflighted: true,
      waitApproval: options.waitApproval ? { timeoutSeconds: options.waitTimeout } : undefined,
    });
    await reportTransfer(ctx, conn, options, transfer, { kind: 'fiat_withdrawal', what: p.what });
  } catch (e) {
    if (options.dryRun || wasRecorded(e)) throw e;
    return gate.refuse(p, e);
  }
}
