// Rows another batch already paid: before a new batch sends anything, the service is asked which of its derived
// ref_ids it holds (100 per request, a few requests at once), and this machine's record of sent ref_ids is read. The rows found are
// marked in the staged copy, to be listed (refused) or, with --allow-repeat, given ref_ids of this batch alone.
import type { Transfer } from '../contract/index.js';
import { classify, type BatchApi } from './service-port.js';
import { backoffMs, realClock, type Clock, type TokenBucket } from './rate-limit.js';
import type { SentRecord } from './sent-record.js';
import type { Stage, StagedRepeat } from './stage.js';

/** The service's most ref_ids in one list filter. */
const LOOKUP = 100;

export interface GuardOptions {
  api: BatchApi;
  limiter: TokenBucket;
  record: SentRecord;
  serviceId: string;
  batchId: string;
  clock?: Clock;
}

/** List requests under way at once: the pages are independent, and the rate limiter still paces them. */
const LOOKUPS_AT_ONCE = 4;

/** Marks the staged rows some other batch already paid; returns how many. */
export async function markRepeats(stage: Stage, o: GuardOptions): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  for (const page of stage.derivedPages(LOOKUP)) {
    if (failed) break;
    const p: Promise<void> = lookup(
      page.map((r) => r.ref_id),
      o,
    )
      .then((found) => {
        for (const t of found)
          if (t.ref_id) stage.markSeen(t.ref_id, { id: t.id, status: t.status, created_at: t.created_at });
        for (const r of page) {
          const earlier = o.record.find(o.serviceId, r.profile_id, r.ref_id, o.batchId);
          if (earlier) stage.markRecorded(r.row, earlier.sent_at, earlier.journal);
        }
      })
      .catch((error: unknown) => {
        failed ??= { error };
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= LOOKUPS_AT_ONCE) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failed) throw failed.error;
  return stage.repeatCount();
}

/** One list request, retried after a 429, a 5xx or a lost connection; anything else stops the batch. */
async function lookup(refIds: string[], o: GuardOptions): Promise<Transfer[]> {
  const clock = o.clock ?? realClock;
  for (let attempt = 1; ; attempt++) {
    await o.limiter.take();
    try {
      return await o.api.transfersByRef(refIds);
    } catch (e) {
      if (classify(e).kind !== 'retry' || attempt >= 8) throw e;
      await clock.sleep(backoffMs(attempt, 500, 10_000));
    }
  }
}

/** A repeated row for people: what it pays, and where it was paid before. */
export function repeatLine(r: StagedRepeat): string {
  const what = `${r.amount ?? r.total} ${r.asset}${r.total && !r.amount ? ' (fees included)' : ''} to ${r.destination_address}`;
  const where = [
    r.seen_transfer
      ? `the service holds transfer ${r.seen_transfer} (${[r.seen_status, r.seen_created && `created ${r.seen_created}`].filter(Boolean).join(', ')})`
      : '',
    r.seen_journal ? `this machine sent it${r.seen_at ? ` at ${r.seen_at}` : ''} (journal ${r.seen_journal})` : '',
  ].filter(Boolean);
  return `row ${r.row}: ${what} (ref_id ${r.ref_id}) was already paid: ${where.join('; ')}`;
}

/** The same for scripts (-o json): one object per row. */
export function repeatObject(r: StagedRepeat): Record<string, unknown> {
  return {
    row: r.row,
    ref_id: r.ref_id,
    asset: r.asset,
    crypto_network: r.crypto_network,
    amount: r.amount,
    total: r.total,
    destination_address: r.destination_address,
    transfer_id: r.seen_transfer,
    status: r.seen_status,
    created_at: r.seen_created,
    sent_at: r.seen_at,
    journal: r.seen_journal,
    rule: 'already paid by another batch',
  };
}
