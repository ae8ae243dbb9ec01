// Rows another batch already paid: before a new batch sends anything, the service is asked which of its derived
// ref_ids it holds (100 per request, as many requests at once as the batch sends, at least 4), and this machine's
// record of sent ref_ids is read. The rows found are marked in the staged copy, to be listed (refused) or, with
// --allow-repeat, given ref_ids of this batch alone.
import type { Transfer } from '../contract/index.js';
import { classify, type BatchService } from './service-port.js';
import { backoffMs, realClock, type Clock, type TokenBucket } from './pacing.js';
import type { SentRecord } from './sent-record.js';
import type { Stage, StagedRepeat } from './stage.js';

/** The service's most ref_ids in one list filter. */
const LOOKUP = 100;

export interface GuardOptions {
  service: BatchService;
  limiter: TokenBucket;
  record: SentRecord;
  serviceId: string;
  batchId: string;
  clock?: Clock;
  /** List requests under way at once (the batch's --concurrency); at least LOOKUPS_AT_ONCE. */
  atOnce?: number;
}

/** List requests under way at least at once: the pages are independent, and the rate limiter still paces them. */
const LOOKUPS_AT_ONCE = 4;

/** Marks the staged rows some other batch already paid; returns how many. */
export async function markRepeats(stage: Stage, options: GuardOptions): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  const atOnce = Math.max(LOOKUPS_AT_ONCE, options.atOnce ?? 0);
  for (const page of stage.derivedPages(LOOKUP)) {
    if (failed) break;
    const p: Promise<void> = lookup(
      page.map((r) => r.ref_id),
      options,
    )
      .then((found) => {
        for (const t of found)
          if (t.ref_id) stage.markSeen(t.ref_id, { id: t.id, status: t.status, created_at: t.created_at });
        const earlier = options.record.findEach(options.serviceId, options.batchId, page);
        for (const [at, row] of page.entries()) {
          const send = earlier[at];
          if (send) stage.markRecorded(row.row, send.sent_at, send.journal);
        }
      })
      .catch((error: unknown) => {
        failed ??= { error };
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= atOnce) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failed) throw failed.error;
  return stage.repeatCount();
}

/** One list request, retried after a 429, a 5xx or a lost connection; anything else stops the batch. */
async function lookup(refIds: string[], options: GuardOptions): Promise<Transfer[]> {
  const clock = options.clock ?? realClock;
  for (let attempt = 1; ; attempt++) {
    await options.limiter.take();
    try {
      return await options.service.transfersByRef(refIds);
    } catch (e) {
      if (classify(e).kind !== 'retry' || attempt >= 8) throw e;
      await clock.sleep(backoffMs(attempt, 500, 10_000));
    }
  }
}

/** A repeated row for people: what it pays, and where it was paid before. */
export function repeatLine(repeat: StagedRepeat): string {
  const what = `${repeat.amount ?? repeat.total} ${repeat.asset}${repeat.total && !repeat.amount ? ' (fees included)' : ''} to ${repeat.destination_address}`;
  const where = [
    repeat.seen_transfer
      ? `the service holds transfer ${repeat.seen_transfer} (${[repeat.seen_status, repeat.seen_created && `created ${repeat.seen_created}`].filter(Boolean).join(', ')})`
      : '',
    repeat.seen_journal
      ? `this machine sent it${repeat.seen_at ? ` at ${repeat.seen_at}` : ''} (journal ${repeat.seen_journal})`
      : '',
  ].filter(Boolean);
  return `row ${repeat.row}: ${what} (ref_id ${repeat.ref_id}) was already paid: ${where.join('; ')}`;
}

/** The same for scripts (-o json): one object per row. */
export function repeatObject(repeat: StagedRepeat): Record<string, unknown> {
  return {
    row: repeat.row,
    ref_id: repeat.ref_id,
    asset: repeat.asset,
    crypto_network: repeat.crypto_network,
    amount: repeat.amount,
    total: repeat.total,
    destination_address: repeat.destination_address,
    transfer_id: repeat.seen_transfer,
    status: repeat.seen_status,
    created_at: repeat.seen_created,
    sent_at: repeat.seen_at,
    journal: repeat.seen_journal,
    rule: 'already paid by another batch',
  };
}
