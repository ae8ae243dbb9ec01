// coinop transfer internal and coinop transfer paxos: gather the values the flags left out, check the request,
// confirm (showing what the sending profile has), send once (ref_id), report (optionally following the transfer to
// its end). The two differ in what they call the profile credited: another of the customer's, or the recipient's, a
// profile of another customer of the service (the OpenAPI's to_profile_id of POST /v2/transfer/paxos).
import { ASSETS, assetIssues, operations, type CreateInternalTransferRequest } from '../../contract/index.js';
import type { AuditKind } from '../../audit/entry.js';
import { amountRule, refusedToAsk } from '../../cli/ask.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { need } from '../../cli/prompt.js';
import { usageError } from '../../cli/errors.js';
import { isUuid, labelOf, type ProfileRef, profileLabel, profileNamed } from '../../cli/service-profiles.js';
import { checkRequest } from '../../client/service-client.js';
import { refIdFor } from '../../send/withdrawal.js';
import { contextPolicy, refusal, refuseUnlessAllowed, verdictText } from '../../cli/policy-enforce.js';
import { gateFor, refusedBeforeSending } from '../../cli/gate.js';
import { type MoneyRequest, wasRecorded } from '../../gate/gate.js';
import { reportDryRun, reportTransfer, submitOnce } from '../../cli/submit.js';
import { INTERNAL_TRANSFER_FLAGS, type InternalTransferOptions } from './options.js';

const pairs = (m: Record<string, string> | undefined) =>
  m
    ? Object.entries(m)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')
    : undefined;

/** What transfer internal and transfer paxos take: every port but none of the rest of the invocation. */
export type InternalTransferDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

/** What tells one kind of transfer between profiles from the other, in the request and in what is said. */
export interface TransferKind {
  operation: 'createInternalTransfer' | 'createPaxosTransfer';
  command: 'transfer internal' | 'transfer paxos';
  noun: string;
  auditKind: AuditKind;
  /** The question asking for the profile credited, and how the confirmation names it. */
  toQuestion: string;
  toRow(label: string): string;
  /** The profile credited, from --to-profile-id or asked for (`from`: the sender, which it must not be). */
  resolveTo(ctx: InternalTransferDeps, given: string | undefined, from: ProfileRef): Promise<ProfileRef>;
  title(amount: string, asset: string): string;
  question: string;
}

export const INTERNAL: TransferKind = {
  operation: 'createInternalTransfer',
  command: 'transfer internal',
  noun: 'internal transfer',
  auditKind: 'internal_transfer',
  toQuestion: "The service's profile to credit",
  toRow: (label) => `service profile ${label}`,
  resolveTo: async (ctx, given, from) => {
    const to = await profileNamed(ctx, {
      flag: '--to-profile-id',
      given,
      question: INTERNAL.toQuestion,
      verify: true,
      exclude: from.id,
    });
    if (to.id === from.id)
      throw usageError('--to-profile-id: must not be the profile it is sent from (--from-profile-id)');
    return to;
  },
  title: (amount, asset) => `Move ${amount} ${asset} between service profiles`,
  question: 'Send this internal transfer?',
};

export const PAXOS: TransferKind = {
  operation: 'createPaxosTransfer',
  command: 'transfer paxos',
  noun: 'transfer to another customer',
  auditKind: 'paxos_transfer',
  toQuestion: "The recipient's profile id (a profile of another customer of the service)",
  toRow: (id) => `recipient profile ${id} (another customer of the service)`,
  // Another customer's profiles are not listed to this one: a UUID, its form checked before anything is asked.
  resolveTo: async (ctx, given, from) => {
    const pr = ctx.prompter;
    if (given !== undefined && !isUuid(given.trim()))
      throw usageError(
        `--to-profile-id: "${given}" is not a profile id (a UUID): another customer's profile is named by its id only`,
      );
    const id = await need(pr, '--to-profile-id', given?.trim(), () =>
      pr.text(PAXOS.toQuestion, {
        validate: (v) =>
          !isUuid(v) ? 'a profile id (a UUID)' : v === from.id ? 'another profile than the sender' : true,
      }),
    );
    return { id };
  },
  title: (amount, asset) => `Send ${amount} ${asset} to another customer of the service`,
  question: 'Send this transfer to another customer?',
};

/** The request from the flags, and from the operator on a terminal for what they left out (checked whole after). */
async function gather(
  ctx: InternalTransferDeps,
  options: InternalTransferOptions,
  defaultFrom: string | undefined,
  kind: TransferKind,
): Promise<{ body: CreateInternalTransferRequest; generatedRef: boolean; from: ProfileRef; to: ProfileRef }> {
  const pr = ctx.prompter;
  // The asset given, against the catalogue before anything is asked (the whole request is checked again); on a
  // terminal one it refuses is picked from the list instead.
  const refused = refusedToAsk(ctx, assetIssues('asset', options.asset), INTERNAL_TRANSFER_FLAGS);
  // The profiles before anything else is asked: an unknown one is refused first, dry runs included.
  const from = await profileNamed(ctx, {
    flag: '--from-profile-id',
    given: options.fromProfileId ?? defaultFrom,
    question: "The service's profile to debit",
    verify: options.fromProfileId !== undefined,
  });
  const to = await kind.resolveTo(ctx, options.toProfileId, from);
  const given = refused.has('asset') ? undefined : options.asset;
  const asset = await need(pr, '--asset', given, () => pr.select('Asset', Object.keys(ASSETS)));
  const amount = await need(pr, '--amount', options.amount, () =>
    pr.text(`Amount of ${asset}`, { validate: amountRule(asset) }),
  );
  const { refId, generated } = refIdFor(options.refId);
  const body: CreateInternalTransferRequest = {
    from_profile_id: from.id,
    to_profile_id: to.id,
    asset,
    amount,
    ref_id: refId,
    ...(options.metadata ? { metadata: options.metadata } : {}),
    ...(options.recipientMetadata ? { recipient_metadata: options.recipientMetadata } : {}),
  };
  return { body, generatedRef: generated, from, to };
}

/** What the sending profile has of the asset, for the confirmation and the dry run (or why it is not known). */
async function available(conn: Connection, body: CreateInternalTransferRequest): Promise<string> {
  try {
    const params = { profile_id: body.from_profile_id, asset: body.asset };
    const { data } = await conn.client.call('getProfileBalance', { params });
    return `${data.available} ${body.asset}`;
  } catch (e) {
    return `unknown (${e instanceof Error ? e.message : String(e)})`;
  }
}

export function internal(ctx: InternalTransferDeps, options: InternalTransferOptions): Promise<void> {
  return transferBetweenProfiles(ctx, options, INTERNAL);
}

/** coinop transfer paxos: to the recipient's profile, a profile of another customer of the service. */
export function paxos(ctx: InternalTransferDeps, options: InternalTransferOptions): Promise<void> {
  return transferBetweenProfiles(ctx, options, PAXOS);
}

async function transferBetweenProfiles(
  ctx: InternalTransferDeps,
  options: InternalTransferOptions,
  kind: TransferKind,
): Promise<void> {
  const context = ctx.service.context();
  // A policy file that does not load stops everything, before anything is asked.
  await contextPolicy(ctx, kind.command, {
    request: {
      ref_id: options.refId,
      asset: options.asset,
      amount: options.amount,
      profile_id: options.fromProfileId ?? context.profileId,
      to_profile_id: options.toProfileId,
    },
  });
  const { body, generatedRef, from, to } = await gather(ctx, options, context.profileId, kind);
  const request: MoneyRequest = {
    operation: kind.operation,
    body,
    command: kind.command,
    flags: INTERNAL_TRANSFER_FLAGS,
  };
  await refusedBeforeSending(ctx, request, () =>
    checkRequest(operations[kind.operation], { body }, INTERNAL_TRANSFER_FLAGS, ctx.service.catalogue()),
  );
  ctx.interrupt.say(`stopped: no ${kind.noun} was sent`);
  const conn = await ctx.service.connect();
  const gate = gateFor(ctx, conn, kind.command);
  const p = await gate.prepare(request);
  try {
    const verdict = await gate.judge(p, { dryRun: options.dryRun });
    if (!options.dryRun) refuseUnlessAllowed(ctx, verdict);
    const rows = await confirmationRows(ctx, conn, options, { body, from, to }, kind);
    if (options.dryRun) {
      await reportDryRun(ctx, {
        operation: kind.operation,
        environment: context.environment,
        rows,
        body,
        extra: { policy: verdict },
      });
      if (ctx.display.format() === 'table') ctx.display.io.err(verdictText(ctx, verdict));
      if (!verdict.allowed) throw refusal(verdict);
      return;
    }
    // What leaves against what the sender has, before anyone is asked (the gate records a refusal).
    await gate.preflight(p);
    await ctx.confirmer.confirm({
      title: kind.title(body.amount, body.asset),
      rows,
      environment: context.environment,
      yes: options.yes,
      question: kind.question,
      // In production the amount is typed out, as for a withdrawal.
      typed: [{ label: `the amount (${body.asset})`, value: body.amount }],
    });
    const transfer = await submitOnce(ctx, gate, p, { noun: kind.noun, generated: generatedRef, preflighted: true });
    await reportTransfer(ctx, conn, options, transfer, { kind: kind.auditKind, what: p.what });
  } catch (e) {
    if (options.dryRun || wasRecorded(e)) throw e;
    return gate.refuse(p, e);
  }
}

/** The rows of the confirmation and the dry run (what the sender has, read only when someone will see it). */
async function confirmationRows(
  ctx: Pick<Ports, 'prompter' | 'service'>,
  conn: Connection,
  options: InternalTransferOptions,
  what: { body: CreateInternalTransferRequest; from: ProfileRef; to: ProfileRef },
  kind: TransferKind,
): Promise<[string, string | undefined][]> {
  const { body, from, to } = what;
  const context = conn.context;
  const confirming = !options.yes && ctx.prompter.allowed;
  const shown = options.dryRun || confirming;
  const label = async (p: ProfileRef) => (p.nickname || !shown ? profileLabel(p) : await labelOf(ctx, p.id));
  return [
    ['environment', context.environment],
    ['context', context.name],
    ['from', `service profile ${await label(from)}`],
    ['available', shown ? await available(conn, body) : undefined],
    // Another customer's profile is named by its id only (its nickname is not this customer's to know).
    ['to', kind.toRow(kind === PAXOS ? to.id : await label(to))],
    ['amount', `${body.amount} ${body.asset}`],
    ['ref_id', body.ref_id],
    ['metadata', pairs(body.metadata)],
    ['recipient metadata', pairs(body.recipient_metadata)],
  ];
}
