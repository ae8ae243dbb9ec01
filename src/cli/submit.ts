// The pieces every command that moves money shares (withdraw, transfer internal): a ref_id made up and announced
// when none was given, the dry run's report, the one send (a repeat with the same ref_id never moves money twice)
// and the report of the transfer it made, followed to its end with --wait.
import { operations, type OperationId } from '../contract/index.js';
import type { AuditKind, AuditWhat } from '../audit/entry.js';
import { charged, transferOutcome } from '../audit/outcomes.js';
import type { MoneyGate, Prepared } from '../gate/gate.js';
import type { Connection } from './invocation.js';
import type { Ports } from './ports.js';
import type { IO } from './io.js';
import { CoinopError } from './errors.js';
import { CONVERSION_COLUMNS, TRANSFER_COLUMNS } from '../render/columns.js';
import { palette } from '../render/style.js';
import type { Column } from '../render/table.js';
import { follow } from './follow.js';
import { gatewayCall, type HeldRequest, isHeld } from '../client/gateway-calls.js';

/** A held request's columns in a table. */
const HELD_COLUMNS: Column[] = [
  { key: 'pending_id', kind: 'id', identity: true, short: true },
  { key: 'status', kind: 'status' },
  { key: 'initiator' },
  { key: 'ref_id' },
  { key: 'approvals_required', header: 'APPROVALS' },
  { key: 'expires_at', kind: 'time' },
];

/** How often --wait-approval asks the gateway how a held request stands. */
const APPROVAL_POLL_MS = 1000;

/**
 * A request a gateway holds for its approvers (202): said on stderr with the id approvers approve; with
 * --wait-approval, followed until it is sent (its transfer returned), or rejected, expired or failed (an error).
 */
async function heldAtGateway(
  ctx: Pick<Ports, 'display' | 'interrupt' | 'clock'>,
  gate: MoneyGate,
  held: HeldRequest,
  options: { noun: string; waitApproval?: { timeoutSeconds: number } },
): Promise<Record<string, unknown>> {
  const pal = palette(ctx.display.io.colourErr);
  ctx.display.io.err(
    `${pal.yellow('held')}: the gateway holds this ${options.noun} for approvals (${held.approvals.length} of ${held.approvals_required}): ` +
      `pending ${held.pending_id}; an approver runs coinop approvals approve ${held.pending_id}\n`,
  );
  if (!options.waitApproval) return held;
  ctx.interrupt.say(
    `interrupted: the ${options.noun} is held at the gateway as ${held.pending_id}; it is sent when approved (coinop approvals show ${held.pending_id})`,
  );
  const deadline = ctx.clock.now() + options.waitApproval.timeoutSeconds * 1000;
  let now: HeldRequest = held;
  while (now.status === 'pending' || now.status === 'sending') {
    if (ctx.clock.now() >= deadline)
      throw new CoinopError(
        'timeout',
        `still held for approvals after ${options.waitApproval.timeoutSeconds} s: pending ${held.pending_id}`,
        {
          hint: `it is sent when approved; follow it with coinop approvals show ${held.pending_id}`,
        },
      );
    await new Promise((resolve) => setTimeout(resolve, APPROVAL_POLL_MS));
    now = await gatewayCall(gate.client, 'showApproval', { params: { id: held.pending_id } });
  }
  if (now.status === 'sent' && now.result) {
    ctx.display.io.err(
      `${pal.green('✓')} approved and sent by the gateway (${now.approvals.map((a) => a.operator).join(', ')})\n`,
    );
    return now.result;
  }
  const why = now.result && typeof now.result.reason === 'string' ? `: ${now.result.reason}` : '';
  throw new CoinopError(
    now.status === 'failed' ? 'failed' : 'policy',
    `the gateway's held ${options.noun} ${held.pending_id} was ${now.status}${why}; nothing was sent`,
  );
}

/** A generated ref_id, said once the request that carries it is sent (never for a request refused or not sent). */
export function announceRefId(ctx: { io: Pick<IO, 'err' | 'colourErr'> }, refId: string): void {
  ctx.io.err(
    `ref_id ${refId} ${palette(ctx.io.colourErr).dim('(generated: retry with this --ref-id and it is never sent twice)')}\n`,
  );
}

/** --dry-run: what would be sent (with `extra`, such as a fee quote, in the machine formats), nothing sent. */
export async function reportDryRun(
  ctx: Pick<Ports, 'display'>,
  options: {
    operation: OperationId;
    environment: string;
    rows: [string, string | undefined][];
    body: unknown;
    extra?: Record<string, unknown>;
  },
): Promise<void> {
  const { path } = operations[options.operation];
  const out = ctx.display.output();
  if (out.format === 'table') {
    const { summaryText } = await import('./confirm.js');
    ctx.display.io.err(
      summaryText(ctx.display.io, {
        title: 'Dry run: nothing sent',
        rows: options.rows,
        environment: options.environment,
      }),
    );
    ctx.display.io.out(`${JSON.stringify({ method: 'POST', path, body: options.body }, null, 2)}\n`);
  } else out.one({ dry_run: true, method: 'POST', path, body: options.body, ...options.extra });
}

/** How a write that moves money is named in the audit log: its kind and what it asks for. */
export interface Audited {
  kind: AuditKind;
  what: AuditWhat;
}

/**
 * Sends a write that carries a ref_id through the gate, once, and says what happened (`noun`: "withdrawal"); a ref_id
 * coinop made up (`generated`) is printed as it goes, and Ctrl-C meanwhile names it. A 409 for the same request is its
 * earlier submission: reported as such, no money moved again. The gate writes the attempt to the audit log before the
 * request leaves, and its outcome after.
 */
export async function submitOnce(
  ctx: Pick<Ports, 'display' | 'interrupt' | 'clock'>,
  gate: MoneyGate,
  prepared: Prepared,
  options: {
    noun: string;
    generated: boolean;
    preflighted?: boolean;
    waitApproval?: { timeoutSeconds: number };
    /** What the service makes: a transfer unless said (a stablecoin conversion is a conversion). */
    object?: 'transfer' | 'conversion';
  },
): Promise<Record<string, unknown>> {
  const refId = prepared.refId;
  const { noun } = options;
  const object = options.object ?? 'transfer';
  const check =
    object === 'transfer' ? `coinop transfers get --ref-id ${refId}` : `coinop conversions list --ref-id ${refId}`;
  const follow = object === 'transfer' ? 'coinop transfers watch' : 'coinop conversions get';
  const interrupted =
    `interrupted: ${noun} ref_id ${refId} was being sent and may have gone through: check with ${check} ` +
    `(sending again with --ref-id ${refId} never sends it twice)`;
  const res = await gate.send(
    prepared,
    () => {
      if (options.generated && refId) announceRefId(ctx.display, refId);
      ctx.interrupt.say(interrupted);
    },
    { preflighted: options.preflighted },
  );
  const data: Record<string, unknown> = isHeld(res.data)
    ? await heldAtGateway(ctx, gate, res.data, { noun, waitApproval: options.waitApproval })
    : { ...res.data };
  if (isHeld(data)) return data;
  const id = String(data.id);
  ctx.interrupt.say(
    `interrupted: ${noun} ref_id ${refId} was submitted (${object} ${id}); follow it with ${follow} ${id}`,
  );
  const pal = palette(ctx.display.io.colourErr);
  if (res.alreadySubmitted && res.submittedByThisCall) {
    // The first attempt reached the service and its answer was lost; the retry with the same ref_id found it.
    ctx.display.io.err(
      `${pal.green('✓')} ${noun} submitted by this command: ${object} ${id} ` +
        `(its first attempt reached the service but the answer was lost; the retry with ref_id ${refId} found it, so it was sent once)\n`,
    );
  } else if (res.alreadySubmitted) {
    ctx.display.io.err(
      `${pal.yellow('already submitted')}: ref_id ${refId} was sent before; no money moved this time. The existing ${object}:\n`,
    );
  } else if (ctx.display.format() === 'table')
    ctx.display.io.err(`${pal.green('✓')} ${noun} submitted: ${object} ${id}\n`);
  return data;
}

/**
 * The transfer (or, `object` conversion, the stablecoin conversion) as submitted, or with `wait` as it ended (exit 6
 * when it FAILED; the end is in the audit log too).
 */
export async function reportTransfer(
  ctx: Pick<Ports, 'display' | 'audit' | 'service' | 'clock'>,
  conn: Connection,
  options: { wait: boolean; waitTimeout: number },
  transfer: Record<string, unknown>,
  audit: Audited,
  object: 'transfer' | 'conversion' = 'transfer',
): Promise<void> {
  const out = ctx.display.output();
  const columns = object === 'conversion' ? CONVERSION_COLUMNS : TRANSFER_COLUMNS;
  if (isHeld(transfer)) return out.one(transfer, HELD_COLUMNS);
  if ((transfer.secondary_status as { name?: unknown } | undefined)?.name === 'TRAVEL_RULE_INFO_REQUESTED')
    ctx.display.io.err(
      `${out.p.yellow('held')}: the service holds transfer ${String(transfer.id)} for Travel Rule information (TRAVEL_RULE_INFO_REQUESTED): save the beneficiary on its destination (coinop destinations put --network N --address A --beneficiary-first-name F --beneficiary-last-name L) and it goes on\n`,
    );
  if (!options.wait) return out.one(transfer, columns);
  const [final] = await follow(ctx, conn, [String(transfer.id)], { timeoutSeconds: options.waitTimeout, object });
  const ref_id = typeof final.ref_id === 'string' ? final.ref_id : null;
  await ctx.audit.note(
    { kind: audit.kind, ref_id, what: { ...audit.what, ...charged(final) }, outcome: transferOutcome(final) },
    conn,
  );
  out.one(final, columns);
  if (final.status === 'FAILED')
    throw new CoinopError('failed', `${object} ${String(final.id)} ended FAILED${failureReason(final)}`);
}

/** Why a transfer failed, in a few words: the names the service put in status_details and secondary_status. */
export function failureReason(transfer: Record<string, unknown>): string {
  const names = [
    ...Object.keys((transfer.status_details as Record<string, unknown> | undefined) ?? {}),
    ...(typeof (transfer.secondary_status as { name?: unknown } | undefined)?.name === 'string'
      ? [(transfer.secondary_status as { name: string }).name]
      : []),
  ];
  return names.length ? `: ${names.join(', ')}` : '';
}
