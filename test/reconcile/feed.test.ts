// What the event feed adds to a reconciliation's lines: the status at the period's end when it changed after, a
// line of its own class when the feed's last status is not the transfer's, nothing when the feed names it not at all.
import { afterEach, describe, expect, it } from 'vitest';
import type { Event } from '../../src/contract/index.js';
import { Book } from '../../src/reconcile/book.js';
import type { Line } from '../../src/reconcile/classes.js';
import { type FeedState, keepEvents, withFeed } from '../../src/reconcile/feed.js';

const END = '2026-11-01T00:00:00.000Z';
let book: Book | undefined;
afterEach(() => book?.close());

const event = (id: string, object: string, status: string, at: string): Event => ({
  id,
  type: `transfer.crypto_withdrawal.${status.toLowerCase()}`,
  object_type: 'transfer_status_change',
  object: { id: object, status },
  created_at: at,
});
const line = (status: string): Line => ({ class: 'matched', asset: 'BTC', amount: '1', transfer_id: 't1', status });

describe('the event feed beside the lines', () => {
  it("says the status at the period's end when it changed after; classes a disagreement; leaves the rest", () => {
    book = new Book();
    const kept = keepEvents(
      book,
      [
        event('e1', 't1', 'PENDING', '2026-10-31T23:59:00.000Z'),
        { id: 'e0', type: 'deposit_address.created', object_type: 'deposit_address', object: {}, created_at: END },
        event('e2', 't1', 'COMPLETED', '2026-11-01T00:05:00.000Z'),
        event('e3', 't2', 'FAILED', '2026-11-02T00:00:00.000Z'),
      ],
      END,
    );
    expect(kept).toBe(3);
    const t1 = withFeed(line('COMPLETED'), book.event<FeedState>('t1'));
    expect(t1).toMatchObject({ class: 'matched', status_at_end: 'PENDING' });
    expect(t1.reason).toBe("PENDING at the period's end, COMPLETED since 2026-11-01T00:05:00.000Z");
    const t2 = withFeed({ ...line('COMPLETED'), transfer_id: 't2' }, book.event<FeedState>('t2'));
    expect(t2).toMatchObject({ class: 'feed_disagrees', event_status: 'FAILED' });
    expect(t2.reason).toContain("says FAILED, the service's record says COMPLETED (the match alone: matched)");
    expect(withFeed(line('COMPLETED'), book.event<FeedState>('t3'))).toEqual(line('COMPLETED'));
    expect(
      withFeed({ ...line('PENDING') }, { status: 'PENDING', type: 'x', at: END, event_id: 'e', at_end: 'PENDING' }),
    ).toEqual(line('PENDING'));
  });
});
