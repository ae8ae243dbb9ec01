// The tools that answer for a crypto deposit the service holds for its originator (the Travel Rule: secondary status
// TRAVEL_RULE_INFO_REQUESTED): deposit_update gives the originator, so the deposit goes on to be credited;
// deposit_reject turns it away for good. Each releases or returns money, so each is gated as the writes are
// (gates.ts): a preview by default (the deposit as the service has it now, the request, the gates), sent only with
// confirm: true on a server started with --allow-writes (and --allow-production in production), its attempt in the
// audit trail before it leaves and its outcome after. No policy rule judges them (the policy judges where money goes
// out to; a held deposit goes nowhere the caller chooses): the policy gate reads `none`.
import type { TSchema } from '@sinclair/typebox';
import { operations, type Transfer } from '../contract/index.js';
import * as S from '../contract/schemas.js';
import { checkRequest } from '../client/service-client.js';
import { GATES_SCHEMA, gateState, refuseClosedServer } from './gates.js';
import { type Field, fieldsOf, objectOf, plain } from './schema.js';
import type { Answer, Call, Tool } from './tool.js';

const CONFIRM: Field = {
  schema: plain.boolean(
    'true to send (only through the gates: the server started with --allow-writes, and --allow-production in production); otherwise a preview that sends nothing.',
  ),
};

type Operation = 'updateCryptoDeposit' | 'rejectCryptoDeposit';

/** The output of a deposit tool: the deposit before (and after, once sent), the request, the gates. */
function depositOutput(body: TSchema) {
  return objectOf(
    {
      status: { schema: plain.enum(['preview', 'sent'], 'What this call did.'), required: true },
      sent: { schema: plain.boolean('This call sent the request and the service took it.'), required: true },
      environment: { schema: plain.string("The coinop context's environment."), required: true },
      request: {
        schema: plain.object({
          method: { schema: plain.string('HTTP method.'), required: true },
          path: { schema: plain.string('Path of the API.'), required: true },
          body: { schema: body, required: true },
        }),
        required: true,
      },
      gates: { schema: GATES_SCHEMA, required: true },
      deposit: { schema: S.Transfer, required: true },
      next_step: { schema: plain.string('What to do next, in words.'), required: true },
    },
    false,
  );
}

/** The preview, or the send through the server's gates with its attempt and outcome in the audit trail. */
async function answerDeposit(call: Call, operation: Operation, args: Record<string, unknown>): Promise<Answer> {
  const { confirm, id, ...body } = args;
  const sending = confirm === true;
  const op = operations[operation];
  const params = { id: String(id) };
  checkRequest(op, { params, body }, undefined, call.catalogue);
  const conn = await call.conn();
  const before: Transfer = (await conn.client.call('getTransfer', { params })).data;
  const gates = gateState(call.deps, sending, undefined);
  const base = {
    environment: call.deps.context.environment,
    request: { method: op.method, path: op.path.replace('{id}', params.id), body },
    gates,
  };
  const verb = operation === 'updateCryptoDeposit' ? 'released' : 'rejected';
  if (!sending)
    return {
      structured: {
        status: 'preview',
        sent: false,
        ...base,
        deposit: before,
        next_step: gates.open
          ? `Nothing was sent. To have it ${verb}, call ${call.tool} again with the same arguments and confirm: true.`
          : `Nothing was sent. A confirmed call would be refused: ${gates.closed_by.join('; ')}.`,
      },
      outcome: 'preview',
      transfer_id: before.id,
    };
  refuseClosedServer(call.deps, call.tool);
  const attempt = await call.attempt({
    kind: 'deposit_travel_rule',
    what: {
      action: operation === 'updateCryptoDeposit' ? 'update' : 'reject',
      deposit_id: before.id,
      asset: before.asset,
      amount: before.amount,
      network: before.crypto_network,
      profile_id: before.profile_id,
      identity_id: String(body.identity_id),
      tool: call.tool,
    },
  });
  try {
    await conn.client.callAny(operation, { params, body });
  } catch (e) {
    await attempt.failed(e);
    throw e;
  }
  const after: Transfer = (await conn.client.call('getTransfer', { params })).data;
  await attempt.done({ result: 'sent', transfer_id: after.id, status: after.status });
  return {
    structured: {
      status: 'sent',
      sent: true,
      ...base,
      deposit: after,
      next_step: `Sent: deposit ${after.id} ${verb} (${after.status}). Follow it with transfer_get.`,
    },
    outcome: 'sent',
    transfer_id: after.id,
  };
}

const ID: Record<string, Field> = fieldsOf(S.IdParams, {
  describe: {
    id: 'The deposit (a CRYPTO_DEPOSIT transfer) held for its originator: transfers_list with secondary_statuses TRAVEL_RULE_INFO_REQUESTED.',
  },
});

const depositUpdate: Tool = {
  name: 'deposit_update',
  title: "Release a held crypto deposit with its originator's details (moves money)",
  description:
    'Gives a crypto deposit the service holds for Travel Rule information (secondary status TRAVEL_RULE_INFO_REQUESTED) its originator: a person (individual_info: first and last name) or an institution (institution_info). The deposit then goes on to be credited. By default a preview (the deposit, the request, the gates); with confirm: true it sends, only if the server was started with --allow-writes (and --allow-production in production). Audited.',
  gated: true,
  input: objectOf({ ...ID, ...fieldsOf(S.UpdateCryptoDepositRequest), confirm: CONFIRM }, true),
  output: depositOutput(S.UpdateCryptoDepositRequest),
  run: (args, call) => answerDeposit(call, 'updateCryptoDeposit', args),
};

const depositReject: Tool = {
  name: 'deposit_reject',
  title: 'Reject a held crypto deposit (moves money)',
  description:
    'Turns away a crypto deposit the service holds for Travel Rule information: it ends FAILED (CUSTOMER_REJECTED) and is never credited; the funds will no longer be available. By default a preview; with confirm: true it sends, through the same gates as deposit_update. Audited.',
  gated: true,
  input: objectOf({ ...ID, ...fieldsOf(S.RejectCryptoDepositRequest), confirm: CONFIRM }, true),
  output: depositOutput(S.RejectCryptoDepositRequest),
  run: (args, call) => answerDeposit(call, 'rejectCryptoDeposit', args),
};

export const DEPOSIT_TOOLS: Tool[] = [depositUpdate, depositReject];
