// The tools that move money or create a resource: withdraw, internal_transfer, fiat_withdrawal and
// deposit_address_create. Each previews by default (the request it would send, the fee, the balance after, the
// policy's verdict, the gates) and sends only through the gates (gates.ts). Every write carries a ref_id, the one given or one made up and returned,
// so a retry with it never sends twice: the service answers a repeat with the earlier transfer (already_submitted).
import type { TSchema } from '@sinclair/typebox';
import {
  type CreateCryptoWithdrawalRequest,
  type CreateDepositAddressRequest,
  type CreateFiatWithdrawalRequest,
  type CreateStablecoinConversionRequest,
  type CreateInternalTransferRequest,
  type CryptoWithdrawalFee,
  type Decimal,
  dec,
  fmt,
  isAmountString,
  operations,
} from '../contract/index.js';
import * as S from '../contract/schemas.js';
import type { AuditOutcome, AuditWhat } from '../audit/entry.js';
import { outcomeOfError, quoteOutcome } from '../audit/outcomes.js';
import { type Funds, insufficientFunds, readFunds, shortfall } from '../send/funds.js';
import { fiatWithdrawalType, readFiatAccount } from '../send/fiat.js';
import { refuseOverLimit, withdrawalLimits } from '../send/limits-preflight.js';
import { feeRequestOf, leavingWords, refIdFor, withdrawalFigures } from '../send/withdrawal.js';
import {
  GATES_SCHEMA,
  gateState,
  nextStep,
  POLICY_SCHEMA,
  refuseClosedServer,
  refusePolicy,
  verdictView,
} from './gates.js';
import type { PolicyVerdict } from './ports.js';
import type { MoneyOperationId } from '../gate/money.js';
import { type MoneyGate, type Prepared as GatePrepared, type Sent, wasRecorded } from '../gate/gate.js';
import type { PolicyVerdict as GateVerdict } from '../policy/evaluate.js';
import { refusal, violations } from '../policy/refusal.js';
import { CoinopError } from '../errors.js';
import { PROFILE_ID_TEXT, profileIdOf } from './read-tools.js';
import { type Field, fieldsOf, objectOf, plain } from './schema.js';
import type { Answer, Call, McpConnection, Tool } from './tool.js';

const CONFIRM: Field = {
  schema: plain.boolean(
    'true to send (only through the gates: the server started with --allow-writes, and --allow-production in production, and the policy allowing it); otherwise a preview that sends nothing.',
  ),
};
const REF_ID_TEXT =
  "Client id for replay protection: a retry with the same ref_id never sends twice. Made up and returned when not given: pass the preview's ref_id when confirming.";

const BALANCE_SCHEMA = plain.object(
  {
    asset: { schema: plain.string('The asset debited.'), required: true },
    available: { schema: plain.string('Available before, as the balances endpoint says.') },
    after: { schema: plain.string('Available after this call, as far as the fee is known.') },
    short: { schema: plain.string('How much more than available this would take.') },
    unknown: { schema: plain.string('Why the balance could not be read.') },
  },
  'The balance this call debits.',
);

/** The output of a gated tool: the preview's fields, and what was sent under `result`. */
function gatedOutput(request: TSchema, result: { key: string; schema: TSchema }, extra: Record<string, Field> = {}) {
  return objectOf(
    {
      status: { schema: plain.enum(['preview', 'sent', 'already_submitted'], 'What this call did.'), required: true },
      sent: { schema: plain.boolean('This call sent the request and the service carried it out.'), required: true },
      ref_id: { schema: plain.string('The ref_id of the request.'), required: true },
      ref_id_generated: { schema: plain.boolean('The ref_id was made up by this call.'), required: true },
      environment: { schema: plain.string("The coinop context's environment."), required: true },
      profile: { schema: plain.string('The coinop context.'), required: true },
      request: {
        schema: plain.object({
          method: { schema: plain.string('HTTP method.'), required: true },
          path: { schema: plain.string('Path of the API.'), required: true },
          body: { schema: request, required: true },
        }),
        required: true,
      },
      gates: { schema: GATES_SCHEMA, required: true },
      policy: { schema: POLICY_SCHEMA },
      next_step: { schema: plain.string('What to do next, in words.'), required: true },
      [result.key]: { schema: result.schema },
      ...extra,
    },
    false,
  );
}

/** The balance row of an answer: before, after, and how much is missing. */
function balanceOf(funds: Funds, asset: string, leaving: Decimal | undefined): Record<string, string> {
  const before = funds.available.get(asset);
  if (!before) return { asset, unknown: funds.unknown ?? 'the service did not say' };
  const short = leaving ? shortfall(funds, asset, leaving) : undefined;
  return {
    asset,
    available: fmt(before),
    ...(leaving ? { after: fmt(before.minus(leaving)) } : {}),
    ...(short ? { short: fmt(short) } : {}),
  };
}

/** How a sent result is followed, said after it. */
const FOLLOW_WITH = {
  transfer: ' Follow it with transfer_get.',
  conversion: ' Follow it with conversion_get.',
  deposit_address: '',
} as const;

interface Prepared {
  op: MoneyOperationId;
  body: Record<string, unknown>;
  refId: string;
  generated: boolean;
  /** Tool-specific fields of the answer (fee, balance). */
  extra: Record<string, unknown>;
  /** Checks for a confirmed call, after the policy's and before the request leaves. */
  beforeSend?: () => Promise<void>;
  /** The tool-specific fields again, from what the service answered (the fee it charged). */
  sentExtra?: (data: Record<string, unknown>) => Record<string, unknown>;
  resultKey: 'transfer' | 'deposit_address' | 'conversion';
}

/** A tool's request at the gate: canonical and checked (a refusal recorded), with the connection it goes over. */
interface Through<Op extends MoneyOperationId = MoneyOperationId> {
  conn: McpConnection;
  gate: MoneyGate;
  admitted: GatePrepared<Op>;
}

/**
 * Steps 1 and 2 of the gate for a tool's request (canonical, checked), then the server's own gates for a confirmed
 * call (--allow-writes, --allow-production): every refusal from here on is in the audit trail with the request.
 */
async function throughGate<Op extends MoneyOperationId>(
  call: Call,
  operation: Op,
  body: Record<string, unknown>,
  sending: boolean,
): Promise<Through<Op>> {
  const conn = await call.conn();
  const gate = await call.deps.gate?.(call.tool, call.agent);
  if (!gate) throw new CoinopError('internal', `${call.tool}: this server has no gate to send through`);
  const admitted = await gate.prepare({ operation, body, command: `mcp ${call.tool}` });
  if (sending)
    try {
      refuseClosedServer(call.deps, call.tool);
    } catch (e) {
      return gate.refuse(admitted, e);
    }
  return { conn, gate, admitted };
}

/**
 * A tool's call for a request of one service profile: the confirm switch, the ref_id (made when not given), the
 * profile (the context's by default), and the request through steps 1 and 2 of the gate (throughGate).
 */
async function profileRequest<Op extends MoneyOperationId>(args: Record<string, unknown>, call: Call, operation: Op) {
  const { confirm, ...given } = args;
  const sending = confirm === true;
  const { refId, generated } = refIdFor(given.ref_id as string | undefined);
  const profileId = profileIdOf(given.profile_id, call);
  const through = await throughGate(call, operation, { ...given, profile_id: profileId, ref_id: refId }, sending);
  return { sending, refId, generated, profileId, through };
}

/** The policy's verdict as the tools report it; undefined without a policy file (no rules). */
function verdictOf(verdict: GateVerdict): PolicyVerdict | undefined {
  if (!verdict.file) return undefined;
  return {
    allowed: verdict.allowed,
    reasons: violations(verdict),
    detail: verdict,
    refusal: verdict.allowed ? undefined : refusal(verdict),
  };
}

/**
 * The preview or the send of a prepared request, through the money gate (src/gate: the request canonicalised and
 * checked, the policy, the approvals, the caps, the audit trail) and the server's own gates.
 */
async function previewOrSend(call: Call, through: Through, sending: boolean, prepared: Prepared): Promise<Answer> {
  const { deps } = call;
  const { gate, admitted } = through;
  const body = admitted.body;
  const verdict = verdictOf(await gate.judge(admitted, { dryRun: !sending }));
  const gates = gateState(deps, sending, verdict);
  const op = operations[prepared.op];
  const base = {
    ref_id: prepared.refId,
    ref_id_generated: prepared.generated,
    environment: deps.context.environment,
    profile: deps.context.name,
    request: { method: op.method, path: op.path, body },
    gates,
    ...(verdict ? { policy: verdictView(verdict) } : {}),
    ...prepared.extra,
  };
  if (!sending)
    return {
      structured: { status: 'preview', sent: false, ...base, next_step: nextStep(call.tool, prepared.refId, gates) },
      outcome: 'preview',
      ref_id: prepared.refId,
    };
  let res: Sent;
  try {
    refusePolicy(verdict);
    await prepared.beforeSend?.();
    res = await gate.send(admitted, undefined, { preflighted: prepared.beforeSend !== undefined });
  } catch (e) {
    if (wasRecorded(e)) throw e;
    return gate.refuse(admitted, e);
  }
  // The id the answer carries (a transfer's, a deposit address's), whichever operation it answers.
  const answered: Record<string, unknown> = { ...res.data };
  const id = String(answered.id);
  const again = res.alreadySubmitted && !res.submittedByThisCall;
  const next = again
    ? `Already submitted: ref_id ${prepared.refId} was sent before, and nothing was sent this time; ${prepared.resultKey} ${id} is the earlier one.`
    : res.alreadySubmitted
      ? `Sent once: the first attempt reached the service and its answer was lost; the retry with ref_id ${prepared.refId} found ${prepared.resultKey} ${id}.`
      : `Sent: ${prepared.resultKey} ${id}.${FOLLOW_WITH[prepared.resultKey]}`;
  // Nothing left the balance this time: the balance read before is what the earlier transfer left.
  const balance = prepared.extra.balance as Record<string, string> | undefined;
  return {
    structured: {
      status: again ? 'already_submitted' : 'sent',
      sent: !again,
      ...base,
      ...(again && balance
        ? {
            balance: {
              asset: balance.asset,
              ...(balance.available ? { available: balance.available } : { unknown: balance.unknown }),
            },
          }
        : {}),
      ...(!again && prepared.sentExtra ? prepared.sentExtra(res.data) : {}),
      next_step: next,
      [prepared.resultKey]: res.data,
    },
    outcome: again ? 'already_submitted' : 'sent',
    ref_id: prepared.refId,
    transfer_id: id,
  };
}

/** What a withdrawal (or its fee quote) asks for, as the audit trail names it. */
const quoteWhat = (body: CreateCryptoWithdrawalRequest): AuditWhat => ({
  asset: body.asset,
  network: body.crypto_network,
  amount: body.amount,
  total: body.total,
  destination: body.destination_address,
  profile_id: body.profile_id,
});

/**
 * A fee quote, as withdraw gets one: binding with `quote` (its id goes into the body, and a failure is the call's),
 * else for the preview only (a failure is shown in it).
 */
async function quoteFor(
  call: Call,
  conn: McpConnection,
  body: CreateCryptoWithdrawalRequest,
  options: { binding: boolean; wanted: boolean },
): Promise<{ quote?: CryptoWithdrawalFee; error?: string }> {
  if (!options.wanted && !options.binding) return {};
  const req = feeRequestOf(body);
  // In the audit trail as the commands' quotes are.
  const quote = (outcome: AuditOutcome) =>
    call.record({ kind: 'quote', ref_id: body.ref_id, what: quoteWhat(body), outcome });
  try {
    const { data } = await conn.client.call('createCryptoWithdrawalFee', { body: req });
    await quote(quoteOutcome(data));
    if (options.binding) body.fee_id = data.id;
    return { quote: data };
  } catch (e) {
    await quote(outcomeOfError(e));
    if (options.binding) throw e;
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const withdraw: Tool = {
  name: 'withdraw',
  title: 'Withdraw crypto (moves money)',
  description:
    "Sends crypto from a service profile to a blockchain address. MOVES MONEY. By default a preview: the request it would send, a fee quote, the balance before and after, the policy's verdict and the gates; nothing is sent. With confirm: true it sends, only if the server was started with --allow-writes (and --allow-production in production) and the policy allows it. Give exactly one of amount and total; `quote: true` sends with a guaranteed fee (its fee_id). Every call carries a ref_id (returned): retrying with it never sends twice.",
  gated: true,
  input: objectOf(
    {
      ...fieldsOf(S.CreateCryptoWithdrawalRequest, {
        optional: ['profile_id'],
        describe: {
          profile_id: PROFILE_ID_TEXT,
          ref_id: REF_ID_TEXT,
          destination_address: "The destination address, checked against its network's format and checksum.",
          amount: 'The amount to send, the fee on top (a decimal string such as "0.01").',
          total: 'The total to debit, the fee included (instead of amount).',
          fee_id: 'A guaranteed fee quote (fee_quote) to use.',
          beneficiary:
            'Travel Rule: who receives the funds, a person (person_details: first_name, last_name) or an institution (institution_details: name). A destination the address book says a VASP custodies, without a beneficiary there or here, is held by the service (TRAVEL_RULE_INFO_REQUESTED) until one is saved on the address. Part of what an approval covers.',
        },
      }),
      quote: { schema: plain.boolean('Get a guaranteed fee quote first and send with its fee_id.') },
      confirm: CONFIRM,
    },
    true,
  ),
  output: gatedOutput(
    S.CreateCryptoWithdrawalRequest,
    { key: 'transfer', schema: S.Transfer },
    {
      fee_quote: { schema: S.CryptoWithdrawalFee },
      fee_error: { schema: plain.string('Why no fee quote could be had for the preview.') },
      figures: {
        schema: plain.object({
          amount: { schema: plain.string('The amount sent.') },
          fee: { schema: plain.string('The fee, when known.') },
          total: { schema: plain.string('Amount plus fee, when known.') },
        }),
        required: true,
      },
      balance: { schema: BALANCE_SCHEMA, required: true },
      limits: {
        schema: plain.object({
          over: {
            schema: plain.array(plain.string('A limit.'), 'The transfer limits it would go over.'),
            required: true,
          },
          within: { schema: plain.array(plain.string('A limit.'), 'The transfer limits read.') },
          notes: { schema: plain.array(plain.string('A note.'), 'What could not be checked.'), required: true },
        }),
        required: true,
      },
    },
  ),
  async run(args, call) {
    const { confirm, quote, ...given } = args;
    const sending = confirm === true;
    const { refId, generated } = refIdFor(given.ref_id as string | undefined);
    const given_ = {
      ...given,
      profile_id: profileIdOf(given.profile_id, call),
      ref_id: refId,
    } as Record<string, unknown>;
    const through = await throughGate(call, 'createCryptoWithdrawal', given_, sending);
    const { conn } = through;
    const body: CreateCryptoWithdrawalRequest = through.admitted.body;
    const quoted = await quoteFor(call, conn, body, { binding: quote === true, wanted: !sending });
    const asset = (body.balance_asset ?? body.asset).toUpperCase();
    const own = asset === body.asset.toUpperCase();
    const funds = await readFunds(conn, body.profile_id, [asset]);
    const figures = withdrawalFigures(body, quoted.quote?.fee);
    const words = leavingWords(body, !!quoted.quote);
    const limits = await withdrawalLimits(
      conn,
      { asset: body.asset, leaving: figures.leaving, words },
      call.deps.now(),
    );
    for (const n of limits.notes) call.note(n);
    return previewOrSend(call, through, sending, {
      op: 'createCryptoWithdrawal',
      body,
      refId,
      generated,
      resultKey: 'transfer',
      extra: {
        ...(quoted.quote ? { fee_quote: quoted.quote } : {}),
        ...(quoted.error ? { fee_error: quoted.error } : {}),
        figures: { amount: figures.amount, fee: figures.fee, total: figures.total },
        balance: balanceOf(funds, asset, own ? figures.leaving : undefined),
        limits: { over: limits.short, ...(limits.limits ? { within: limits.limits } : {}), notes: limits.notes },
      },
      // What the transfer took: its fee and total as the service charged them.
      sentExtra: (transfer) => {
        const total = isAmountString(transfer.total) ? transfer.total : undefined;
        return {
          figures: { amount: transfer.amount, fee: transfer.fee, total },
          balance: balanceOf(funds, asset, own && total ? withdrawalFigures({ total }, undefined).leaving : undefined),
        };
      },
      // As withdraw refuses it: an amount plus fee over a known balance or over a transfer limit, unless this ref_id
      // went out already (its retry is then answered with the earlier transfer, not refused for what that took).
      beforeSend: async () => {
        const short = own && !!shortfall(funds, asset, figures.leaving);
        if ((!short && !limits.short.length) || (await through.gate.held(refId))) return;
        if (short) throw insufficientFunds(asset, figures.leaving, funds, words);
        refuseOverLimit(limits);
      },
    });
  },
};

const internalTransfer: Tool = {
  name: 'internal_transfer',
  title: 'Move an asset between service profiles (moves money)',
  description:
    "Moves an asset from one service profile of the customer to another (from the coinop context's own by default). MOVES MONEY. By default a preview (the request, the sender's balance before and after, the policy's verdict, the gates); with confirm: true it sends, through the same gates as withdraw. Every call carries a ref_id (returned): retrying with it never sends twice.",
  gated: true,
  input: objectOf(
    {
      ...fieldsOf(S.CreateInternalTransferRequest, {
        optional: ['from_profile_id'],
        describe: {
          from_profile_id: PROFILE_ID_TEXT,
          ref_id: REF_ID_TEXT,
          to_profile_id: 'The service profile credited.',
        },
      }),
      confirm: CONFIRM,
    },
    true,
  ),
  output: gatedOutput(
    S.CreateInternalTransferRequest,
    { key: 'transfer', schema: S.Transfer },
    {
      balance: { schema: BALANCE_SCHEMA, required: true },
    },
  ),
  async run(args, call) {
    const { confirm, ...given } = args;
    const sending = confirm === true;
    const { refId, generated } = refIdFor(given.ref_id as string | undefined);
    const from = profileIdOf(given.from_profile_id, call, 'from_profile_id');
    const through = await throughGate(
      call,
      'createInternalTransfer',
      { ...given, from_profile_id: from, ref_id: refId },
      sending,
    );
    const { conn } = through;
    const body: CreateInternalTransferRequest = through.admitted.body;
    const asset = body.asset.toUpperCase();
    const funds = await readFunds(conn, from, [asset]);
    return previewOrSend(call, through, sending, {
      op: 'createInternalTransfer',
      body,
      refId,
      generated,
      resultKey: 'transfer',
      extra: { balance: balanceOf(funds, asset, withdrawalFigures({ amount: body.amount }, '0').leaving) },
    });
  },
};

const depositAddressCreate: Tool = {
  name: 'deposit_address_create',
  title: 'Create a deposit address',
  description:
    "Creates a crypto deposit address on a service profile (the coinop context's own by default). A write: by default a preview of the request; with confirm: true it creates the address, through the same gates as withdraw. Every call carries a ref_id (returned): retrying with it finds the same address.",
  gated: true,
  input: objectOf(
    {
      ...fieldsOf(S.CreateDepositAddressRequest, {
        optional: ['profile_id'],
        describe: { profile_id: PROFILE_ID_TEXT, ref_id: REF_ID_TEXT },
      }),
      confirm: CONFIRM,
    },
    true,
  ),
  output: gatedOutput(S.CreateDepositAddressRequest, { key: 'deposit_address', schema: S.DepositAddress }),
  async run(args, call) {
    const { sending, refId, generated, through } = await profileRequest(args, call, 'createDepositAddress');
    const body: CreateDepositAddressRequest = through.admitted.body;
    return previewOrSend(call, through, sending, {
      op: 'createDepositAddress',
      body,
      refId,
      generated,
      resultKey: 'deposit_address',
      extra: {},
    });
  },
};

const fiatWithdrawal: Tool = {
  name: 'fiat_withdrawal',
  title: 'Withdraw USD to a saved fiat account (moves money)',
  description:
    "Sends USD from a service profile (the coinop context's own by default) to a saved fiat account (fiat_accounts_list gives their ids). MOVES MONEY. By default a preview: the request, the balance before and after, the transfer limits, the policy's verdict (its destinations name fiat accounts by id) and the gates; nothing is sent. With confirm: true it sends, through the same gates as withdraw. Give exactly one of amount and total. Every call carries a ref_id (returned): retrying with it never sends twice.",
  gated: true,
  input: objectOf(
    {
      ...fieldsOf(S.CreateFiatWithdrawalRequest, {
        optional: ['profile_id'],
        describe: {
          profile_id: PROFILE_ID_TEXT,
          ref_id: REF_ID_TEXT,
          fiat_account_id: 'The saved fiat account to send to (fiat_accounts_list).',
          amount: 'The amount to send, at most 2 decimals (a decimal string such as "2500.00").',
          total: 'The total to debit, fees included (instead of amount).',
          asset: 'USD, the only asset fiat withdrawals take.',
        },
      }),
      confirm: CONFIRM,
    },
    true,
  ),
  output: gatedOutput(
    S.CreateFiatWithdrawalRequest,
    { key: 'transfer', schema: S.Transfer },
    {
      balance: { schema: BALANCE_SCHEMA, required: true },
      limits: {
        schema: plain.object({
          over: { schema: plain.array(plain.string('A limit.'), 'The limits it would go over.'), required: true },
          notes: { schema: plain.array(plain.string('A note.'), 'What could not be checked.'), required: true },
        }),
        required: true,
      },
    },
  ),
  async run(args, call) {
    const { sending, refId, generated, profileId, through } = await profileRequest(args, call, 'createFiatWithdrawal');
    const body: CreateFiatWithdrawalRequest = through.admitted.body;
    const leaving = withdrawalFigures(body, undefined).leaving;
    const words = leavingWords(body, false);
    const funds = await readFunds(through.conn, profileId, [body.asset]);
    const { account } = await readFiatAccount(through.conn, body.fiat_account_id);
    const limits = await withdrawalLimits(
      through.conn,
      { asset: body.asset, leaving, words, transferType: fiatWithdrawalType(account) },
      call.deps.now(),
    );
    for (const n of limits.notes) call.note(n);
    return previewOrSend(call, through, sending, {
      op: 'createFiatWithdrawal',
      body,
      refId,
      generated,
      resultKey: 'transfer',
      extra: { balance: balanceOf(funds, body.asset, leaving), limits: { over: limits.short, notes: limits.notes } },
      // Refused as withdraw fiat refuses it, unless this ref_id went out already (then the earlier one answers).
      beforeSend: async () => {
        if (await through.gate.held(refId)) return;
        if (shortfall(funds, body.asset, leaving)) throw insufficientFunds(body.asset, leaving, funds, words);
        refuseOverLimit(limits);
      },
    });
  },
};

const conversion: Tool = {
  name: 'conversion',
  title: 'Convert USD to a stablecoin or back (moves money)',
  description:
    "Converts USD to a stablecoin (USDP, PYUSD) or a stablecoin back to USD, one to one, in a service profile (the coinop context's own by default). MOVES MONEY: the source is debited at once, the target credited once the conversion is SETTLED. By default a preview: the request, the source balance before and after, the policy's verdict (its assets must allow both sides; its maxima count the source) and the gates; nothing is sent. With confirm: true it sends, through the same gates as withdraw. Every call carries a ref_id (returned): retrying with it never sends twice.",
  gated: true,
  input: objectOf(
    {
      ...fieldsOf(S.CreateStablecoinConversionRequest, {
        optional: ['profile_id'],
        describe: {
          profile_id: PROFILE_ID_TEXT,
          ref_id: REF_ID_TEXT,
          amount: 'The amount to convert, at most 2 decimals (a decimal string such as "2500.00").',
          source_asset: 'The asset converted from: USD, or USDP or PYUSD to convert back to USD.',
          target_asset: 'The asset converted to: USDP or PYUSD from USD, or USD.',
        },
      }),
      confirm: CONFIRM,
    },
    true,
  ),
  output: gatedOutput(
    S.CreateStablecoinConversionRequest,
    { key: 'conversion', schema: S.StablecoinConversion },
    { balance: { schema: BALANCE_SCHEMA, required: true } },
  ),
  async run(args, call) {
    const { sending, refId, generated, profileId, through } = await profileRequest(
      args,
      call,
      'createStablecoinConversion',
    );
    const body: CreateStablecoinConversionRequest = through.admitted.body;
    const amount = dec(body.amount);
    const funds = await readFunds(through.conn, profileId, [body.source_asset]);
    return previewOrSend(call, through, sending, {
      op: 'createStablecoinConversion',
      body,
      refId,
      generated,
      resultKey: 'conversion',
      extra: { balance: balanceOf(funds, body.source_asset, amount) },
      // Refused as convert refuses it, unless this ref_id went out already (then the earlier one answers).
      beforeSend: async () => {
        if (await through.gate.held(refId, 'listStablecoinConversions')) return;
        if (shortfall(funds, body.source_asset, amount))
          throw insufficientFunds(body.source_asset, amount, funds, 'the amount');
      },
    });
  },
};

export const WRITE_TOOLS: Tool[] = [withdraw, internalTransfer, fiatWithdrawal, conversion, depositAddressCreate];
