// withdraw batch at a coinop gateway: before any row is sent, the batch's rows (as they will be sent, ref_ids
// included) go to the gateway's policy as one (POST /_gateway/batches). When the policy asks for approvals the
// gateway holds the batch as ONE content, which approvers sign once each (coinop approvals approve ID); the last
// approval makes the gateway send every row, once, by its ref_id. This run then sends its rows as usual: the gateway
// answers each from its store (the transfer it made), so nothing leaves twice, and the journal, the report and
// --resume work as anywhere else. Without --wait-approval a held batch ends the run (exit 0): the same command again
// finds it by its content, and goes on once it is sent.
import type { Connection } from '../../../cli/invocation.js';
import type { Ports } from '../../../cli/ports.js';
import { CoinopError } from '../../../cli/errors.js';
import { gatewayCall, type HeldRequest } from '../../../client/gateway-calls.js';
import type { GatewayResponse } from '../../../contract/gateway.js';
import type { Stage } from '../../../batch/stage.js';
import { palette } from '../../../render/style.js';

/** How often --wait-approval asks the gateway how the held batch stands. */
const BATCH_POLL_MS = 1000;

/** A held batch as the gateway answers: a held request with its rows and totals. */
export type HeldBatch = HeldRequest & Required<Pick<HeldRequest, 'rows' | 'totals'>>;

/** The held request the gateway answered is a batch (it has rows and totals), or the gateway is not one that holds batches. */
function heldBatch(held: HeldRequest): HeldBatch {
  if (held.rows && held.totals) return { ...held, rows: held.rows, totals: held.totals };
  throw new CoinopError('policy', `the gateway answered ${held.pending_id} without the batch's rows`);
}

/** Whether this connection is a coinop gateway (its identity is the store's id). */
export const atGateway = (conn: Pick<Connection, 'serviceId'>): boolean => conn.serviceId.startsWith('gateway:');

/** The staged rows as they will be sent: each request with its ref_id, in file order. */
function stagedBodies(stage: Stage): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const s of stage.valid()) out.push({ ...(JSON.parse(s.body) as Record<string, unknown>), ref_id: s.ref_id });
  return out;
}

/**
 * The batch at the gateway's policy: 'send' when its rows go now (no approval needed), 'sent' when the gateway sent
 * them once approved (this run records them: each row is answered from the gateway's store), 'held' when it waits
 * for approvals and this run does not (--wait-approval not given).
 */
export async function batchAtGateway(
  ctx: Pick<Ports, 'display' | 'interrupt' | 'clock'>,
  conn: Pick<Connection, 'client'>,
  batch: { stage: Stage; profileId?: string; waitSeconds: number },
): Promise<'send' | 'sent' | 'held'> {
  let held: GatewayResponse<'submitBatch'>;
  try {
    held = await gatewayCall(conn.client, 'submitBatch', {
      body: { profile_id: batch.profileId, rows: stagedBodies(batch.stage) },
    });
  } catch (e) {
    // A gateway older than batches held as one: each row is judged alone, as before.
    if (e instanceof CoinopError && e.problem?.status === 404) return 'send';
    throw e;
  }
  if (!('pending_id' in held)) return 'send';
  const pal = palette(ctx.display.io.colourErr);
  const say = (s: string) => ctx.display.io.err(`${s}\n`);
  let now = heldBatch(held);
  if (now.status === 'pending' || now.status === 'sending') {
    say(
      `${pal.yellow('held')}: the gateway holds this batch for approvals as one (${now.rows.length} rows, ${totalsText(now)}; ` +
        `${now.approvals.length} of ${now.approvals_required}): pending ${now.pending_id}; ` +
        `an approver runs coinop approvals approve ${now.pending_id}`,
    );
    if (!batch.waitSeconds) {
      ctx.display.output().one(now, [
        { key: 'pending_id', kind: 'id' },
        { key: 'status', kind: 'status' },
        { key: 'approvals_required', header: 'approvals needed' },
        { key: 'expires_at', kind: 'time' },
      ]);
      return 'held';
    }
    now = await untilDecided(ctx, conn, now, batch.waitSeconds);
  }
  if (now.status !== 'sent') {
    const why = typeof now.result?.reason === 'string' ? `: ${now.result.reason}` : '';
    throw new CoinopError(
      'policy',
      `the gateway's held batch ${now.pending_id} was ${now.status}${why}; nothing was sent`,
    );
  }
  say(
    `${pal.green('✓')} approved (${now.approvals.map((a) => a.operator).join(', ')}) and sent by the gateway: ` +
      `${now.rows.filter((r) => r.status === 'sent').length} of ${now.rows.length} rows; this run records each once`,
  );
  return 'sent';
}

function totalsText(held: HeldBatch): string {
  return held.totals.map((t) => `${t.sum} ${t.asset} on ${t.network}`).join(', ');
}

/** --wait-approval: the held batch, asked about every second until sent, rejected or expired (or the time is up). */
async function untilDecided(
  ctx: Pick<Ports, 'interrupt' | 'clock'>,
  conn: Pick<Connection, 'client'>,
  held: HeldBatch,
  waitSeconds: number,
): Promise<HeldBatch> {
  const id = held.pending_id;
  ctx.interrupt.say(
    `interrupted: the batch is held at the gateway as ${id}; it is sent when approved, and this command again records it (coinop approvals show ${id})`,
  );
  const giveUpAt = ctx.clock.now() + waitSeconds * 1000;
  for (let at = held; ; ) {
    if (at.status !== 'pending' && at.status !== 'sending') return at;
    if (ctx.clock.now() >= giveUpAt)
      throw new CoinopError('timeout', `the batch is still held for approvals after ${waitSeconds} s: pending ${id}`, {
        hint: `it is sent when approved; run the same command again to record it (coinop approvals show ${id})`,
      });
    await new Promise((resolve) => setTimeout(resolve, BATCH_POLL_MS));
    at = heldBatch(await gatewayCall(conn.client, 'showApproval', { params: { id } }));
  }
}
