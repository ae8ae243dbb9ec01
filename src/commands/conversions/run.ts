// coinop convert: USD to a stablecoin or back, one to one, in a service profile. Gather the values the flags left out,
// check the request, read both balances (the change each will see is shown before confirming), confirm (the amount
// typed out in production), send once through the gate (ref_id), report (optionally following it to its end).
// coinop conversions list|get|cancel: the service's conversions; a cancel (while CREATED) gives the source back and
// moves no money out, so it takes no policy, but it is confirmed and written to the audit trail.
import {
  type CreateStablecoinConversionRequest,
  dec,
  fmt,
  operations,
  STABLECOINS,
  type StablecoinConversion,
} from '../../contract/index.js';
import { transferOutcome } from '../../audit/outcomes.js';
import { amountRule } from '../../cli/ask.js';
import { approvalFiles, approvalScope } from '../../cli/approval-content.js';
import { usageError } from '../../cli/errors.js';
import { gateFor, refusedBeforeSending } from '../../cli/gate.js';
import type { Connection } from '../../cli/invocation.js';
import { listFooter } from '../../cli/list-flags.js';
import { contextPolicy, refusal, refuseUnlessAllowed, verdictText } from '../../cli/policy-enforce.js';
import type { Ports } from '../../cli/ports.js';
import { commandProfile, profileNamed, shownLabel } from '../../cli/service-profiles.js';
import { need } from '../../cli/prompt.js';
import { reportDryRun, reportTransfer, submitOnce } from '../../cli/submit.js';
import { checkRequest, type Paging } from '../../client/service-client.js';
import { type MoneyRequest, wasRecorded } from '../../gate/gate.js';
import { CONVERSION_COLUMNS } from '../../render/columns.js';
import { type Funds, insufficientFunds, readFunds, shortfall } from '../../send/funds.js';
import { refIdFor } from '../../send/withdrawal.js';
import {
  CONVERT_FLAGS,
  type ConversionCancelOptions,
  type ConversionListOptions,
  type ConvertOptions,
  LIST_FLAGS,
} from './options.js';

/** What convert takes: every port but none of the rest of the invocation. */
export type ConvertDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

/** The pair: --from and --to, the one left out worked out (USD on the other side), or picked on a terminal. */
async function pair(ctx: ConvertDeps, options: ConvertOptions): Promise<{ from: string; to: string }> {
  const pr = ctx.prompter;
  const other = (a: string) => (a === 'USD' ? undefined : 'USD');
  let from = options.from ?? (options.to !== undefined ? other(options.to) : undefined);
  let to = options.to ?? (from !== undefined ? other(from) : undefined);
  if (from === undefined) from = 'USD';
  to = await need(pr, '--to', to, () =>
    pr.select(
      'Convert USD to',
      STABLECOINS.map((c) => ({ value: c, name: c, description: `USD to ${c}, one to one` })),
      STABLECOINS[0],
    ),
  );
  return { from, to };
}

/** How the confirmation and the dry run name the profiles: "nickname (short id)" once known. */
interface Shown {
  profile: string;
  recipient?: string;
}

/** The request from the flags, and from the operator on a terminal for what they left out (checked whole after). */
async function gather(
  ctx: ConvertDeps,
  options: ConvertOptions,
  defaultProfile: string | undefined,
): Promise<{ body: CreateStablecoinConversionRequest; generated: boolean; shown: Shown }> {
  const pr = ctx.prompter;
  // The profiles first: an unknown one is refused before anything is asked (dry runs too).
  const profile = await commandProfile(ctx, options.profileId, defaultProfile, "The service's profile to convert in");
  const recipient =
    options.recipientProfileId !== undefined
      ? await profileNamed(ctx, {
          flag: '--recipient-profile-id',
          given: options.recipientProfileId,
          question: "The service's profile credited",
          verify: true,
        })
      : undefined;
  const showing = options.dryRun || (!options.yes && pr.allowed);
  const shown: Shown = {
    profile: await shownLabel(ctx, profile, showing),
    recipient: recipient && (await shownLabel(ctx, recipient, showing)),
  };
  const profileId = profile.id;
  const { from, to } = await pair(ctx, options);
  const amount = await need(pr, '--amount', options.amount, () =>
    pr.text(`Amount of ${from} to convert to ${to}`, { validate: amountRule('USD') }),
  );
  const { refId, generated } = refIdFor(options.refId);
  const body: CreateStablecoinConversionRequest = {
    profile_id: profileId,
    amount,
    source_asset: from,
    target_asset: to,
    ref_id: refId,
    ...(recipient !== undefined ? { recipient_profile_id: recipient.id } : {}),
    ...(options.identityId !== undefined ? { identity_id: options.identityId } : {}),
    ...(options.accountId !== undefined ? { account_id: options.accountId } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
  };
  return { body, generated, shown };
}

/** A balance before and after the conversion: "1000 USD → 900 USD", or why it is unknown. */
function change(funds: Funds, asset: string, by: (before: ReturnType<typeof dec>) => ReturnType<typeof dec>): string {
  if (funds.unknown) return `unknown (${funds.unknown})`;
  const before = funds.available.get(asset) ?? dec(0);
  return `${fmt(before)} ${asset} → ${fmt(by(before))} ${asset}`;
}

/** What the confirmation and the dry run show: where, the pair, each balance's change, the ref_id. */
function rows(
  conn: Connection,
  body: CreateStablecoinConversionRequest,
  funds: { source: Funds; target: Funds },
  shown: Shown,
): [string, string | undefined][] {
  const { source, target } = funds;
  const amount = dec(body.amount);
  const recipient = shown.recipient;
  return [
    ['environment', conn.context.environment],
    ['context', conn.context.name],
    ['profile', `service profile ${shown.profile}`],
    ['convert', `${fmt(amount)} ${body.source_asset} to ${fmt(amount)} ${body.target_asset} (one to one)`],
    [`${body.source_asset} balance`, change(source, body.source_asset, (b) => b.minus(amount))],
    [
      `${body.target_asset} balance${recipient ? ` (of ${recipient})` : ''}`,
      `${change(target, body.target_asset, (b) => b.plus(amount))} once SETTLED`,
    ],
    ['ref_id', body.ref_id],
  ];
}

export async function convert(ctx: ConvertDeps, options: ConvertOptions): Promise<void> {
  const context = ctx.service.context();
  // A policy file that does not load stops everything, before anything is asked.
  await contextPolicy(ctx, 'convert', {
    request: {
      ref_id: options.refId,
      asset: options.from,
      target_asset: options.to,
      amount: options.amount,
      profile_id: options.profileId ?? context.profileId,
    },
  });
  const { body, generated, shown } = await gather(ctx, options, context.profileId);
  const request: MoneyRequest<'createStablecoinConversion'> = {
    operation: 'createStablecoinConversion',
    body,
    command: 'convert',
    approvals: {
      scope: approvalScope(context, 'withdrawal', body.profile_id),
      files: approvalFiles(undefined, options.approvals),
    },
    flags: CONVERT_FLAGS,
  };
  await refusedBeforeSending(ctx, request, () =>
    checkRequest(operations.createStablecoinConversion, { body }, CONVERT_FLAGS, ctx.service.catalogue()),
  );
  ctx.interrupt.say('stopped: no conversion was sent');
  const conn = await ctx.service.connect();
  const gate = gateFor(ctx, conn, 'convert');
  const p = await gate.prepare(request);
  try {
    const verdict = await gate.judge(p, { dryRun: options.dryRun });
    if (!options.dryRun) refuseUnlessAllowed(ctx, verdict);
    const { source_asset: from, target_asset: to } = p.body;
    const [source, target] = await Promise.all([
      readFunds(conn, p.body.profile_id, [from]),
      readFunds(conn, p.body.recipient_profile_id ?? p.body.profile_id, [to]),
    ]);
    const summary = rows(conn, p.body, { source, target }, shown);
    if (options.dryRun) {
      await reportDryRun(ctx, {
        operation: 'createStablecoinConversion',
        environment: context.environment,
        rows: summary,
        body: p.body,
        extra: { policy: verdict },
      });
      if (ctx.display.format() === 'table') ctx.display.io.err(verdictText(ctx, verdict));
      if (!verdict.allowed) throw refusal(verdict);
      return;
    }
    const amount = dec(p.body.amount);
    if (shortfall(source, from, amount)) throw insufficientFunds(from, amount, source, 'the amount');
    await ctx.confirmer.confirm({
      title: `Convert ${p.body.amount} ${from} to ${to}`,
      rows: summary,
      environment: context.environment,
      yes: options.yes,
      question: 'Send this conversion?',
      // In production the amount is typed out, as for a withdrawal.
      typed: [{ label: `the amount (${from})`, value: p.body.amount }],
    });
    const conversion = await submitOnce(ctx, gate, p, {
      noun: 'conversion',
      object: 'conversion',
      generated,
      preflighted: true,
      waitApproval: options.waitApproval ? { timeoutSeconds: options.waitTimeout } : undefined,
    });
    await reportTransfer(ctx, conn, options, conversion, { kind: 'conversion', what: p.what }, 'conversion');
  } catch (e) {
    if (options.dryRun || wasRecorded(e)) throw e;
    return gate.refuse(p, e);
  }
}

export async function list(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: ConversionListOptions,
): Promise<void> {
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = conn.client.items(
    'listStablecoinConversions',
    { query: options.query },
    LIST_FLAGS,
    options.all,
    paging,
  );
  const n = await out.list(items, CONVERSION_COLUMNS, {
    empty: 'no conversions match (convert with coinop convert)',
  });
  listFooter(display, out, n, ['conversion', 'conversions'], options.all ? undefined : paging.next);
}

/** The newest conversions, CREATED ones (those a cancel can still stop) offered first, for a picker. */
async function pick(
  conn: Connection,
  pr: Ports['prompter'],
  message: string,
  only?: (c: StablecoinConversion) => boolean,
): Promise<string> {
  const { data } = await conn.client.call('listStablecoinConversions', { query: { limit: 50 } });
  const items = (data.items ?? []).filter((c) => !only || only(c));
  if (!items.length) throw usageError('no conversions to choose from', 'convert with coinop convert');
  const choices = items.map((c) => ({
    value: c.id,
    name: `${c.amount} ${c.source_asset} → ${c.target_asset}  ${c.status}${c.ref_id ? `  ref ${c.ref_id}` : ''}`,
    description: `conversion ${c.id}${c.created_at ? `, created ${c.created_at}` : ''}`,
  }));
  const open = items.find((c) => c.status === 'CREATED');
  return pr.select(message, choices, open?.id ?? choices[0].value);
}

export async function get(
  { display, service, prompter: pr }: Pick<Ports, 'display' | 'service' | 'prompter'>,
  id: string | undefined,
): Promise<void> {
  if (id !== undefined)
    checkRequest(operations.getStablecoinConversion, { params: { id } }, { id: 'ID' }, service.catalogue());
  if (id === undefined && !pr.allowed) throw usageError('missing ID', pr.hint('the conversion id', 'pick one'));
  const conn = await service.connect();
  const chosen = id ?? (await pick(conn, pr, 'Conversion'));
  const { data } = await conn.client.call('getStablecoinConversion', { params: { id: chosen } });
  display.output().one(data, CONVERSION_COLUMNS);
}

/**
 * Cancels a CREATED conversion (the service gives its source back): confirmed, and in the audit trail (attempt, then
 * its outcome); one that has ended already is refused by the service, and said so.
 */
export async function cancel(
  ctx: Pick<Ports, 'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'interrupt'>,
  options: ConversionCancelOptions,
): Promise<void> {
  if (options.id === undefined && !ctx.prompter.allowed)
    throw usageError('missing ID', ctx.prompter.hint('the conversion id', 'pick one'));
  const conn = await ctx.service.connect();
  const id = options.id ?? (await pick(conn, ctx.prompter, 'Cancel conversion', (c) => c.status === 'CREATED'));
  const { data: held } = await conn.client.call('getStablecoinConversion', { params: { id } });
  if (held.status !== 'CREATED')
    throw usageError(
      `conversion ${id} is ${held.status}: only a CREATED conversion can be cancelled`,
      'coinop conversions list shows each one with its status',
    );
  await ctx.confirmer.confirm({
    title: 'Cancel a stablecoin conversion',
    rows: [
      ['context', conn.context.name],
      ['conversion', `${id} (${held.status})`],
      ['gives back', `${held.amount} ${held.source_asset} to service profile ${held.profile_id}`],
      ['ref_id', held.ref_id],
    ],
    environment: conn.context.environment,
    yes: options.yes,
    question: 'Cancel it?',
  });
  const what = {
    conversion_id: id,
    asset: held.source_asset,
    target_asset: held.target_asset,
    amount: held.amount,
    profile_id: held.profile_id,
    command: 'conversions cancel',
  };
  const attempt = await ctx.audit.attempt(
    { kind: 'conversion_cancel', ref_id: held.ref_id ?? null, what: clean(what) },
    conn,
  );
  ctx.interrupt.say(`interrupted: conversion ${id} may have been cancelled; see coinop conversions get ${id}`);
  let data: StablecoinConversion;
  try {
    ({ data } = await conn.client.call('cancelStablecoinConversion', { params: { id } }));
  } catch (e) {
    await attempt.failed(e);
    throw e;
  }
  await attempt.done(transferOutcome(data));
  const out = ctx.display.output();
  if (out.format === 'table')
    ctx.display.io.err(
      `${out.p.green('✓')} conversion ${id} ${data.status}: ${held.amount} ${held.source_asset} given back\n`,
    );
  out.one(data, CONVERSION_COLUMNS);
}

function clean(what: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(what)) if (v !== undefined) out[k] = v;
  return out;
}
