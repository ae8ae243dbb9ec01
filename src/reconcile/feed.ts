// What the service's event feed says of each transfer and conversion of a reconciliation: the status its last event
// gives, and the status it had at the period's end. Read before the transfers (events created at or after the
// period's start, to now), kept in the book (one row an object), then set beside each line: a transfer whose status
// the feed does not give is a line of its own class (feed_disagrees); one whose status changed after the period's
// end says so (status_at_end).
import type { Event } from '../contract/index.js';
import type { Book } from './book.js';
import type { Line } from './classes.js';

/** What the feed says of one object. */
export interface FeedState {
  /** The status of its last event, its type, time and id. */
  status: string;
  type: string;
  at: string;
  event_id: string;
  /** The status of its last event before the period's end (none when every event read is after it). */
  at_end?: string;
}

/** The object an event changed, when it has an id and a status (a transfer, a conversion; not a deposit address). */
function objectOf(event: Event): { id: string; status: string } | undefined {
  const o = event.object as { id?: unknown; status?: unknown };
  return typeof o?.id === 'string' && typeof o.status === 'string' ? { id: o.id, status: o.status } : undefined;
}

/** Keeps a page of events (oldest first) in the book; answers how many named a transfer or a conversion. */
export function keepEvents(book: Book, events: Event[], periodEnd: string): number {
  const end = Date.parse(periodEnd);
  let n = 0;
  for (const e of events) {
    const o = objectOf(e);
    if (!o) continue;
    n++;
    const before = Date.parse(e.created_at) < end;
    const prev = before ? undefined : book.event<FeedState>(o.id);
    const state: FeedState = { status: o.status, type: e.type, at: e.created_at, event_id: e.id };
    const atEnd = before ? o.status : prev?.at_end;
    book.putEvent(o.id, atEnd ? { ...state, at_end: atEnd } : state);
  }
  return n;
}

/**
 * The line with what the feed says of its transfer: unchanged when the feed agrees (or names it not at all), with
 * `status_at_end` when its status changed after the period, or classed feed_disagrees when the feed's last status
 * is not the transfer's.
 */
export function withFeed(line: Line, state: FeedState | undefined): Line {
  if (!state || !line.status) return line;
  const said = (why: string) => [line.reason, why].filter(Boolean).join('; ');
  if (state.status !== line.status)
    return {
      ...line,
      class: 'feed_disagrees',
      event_status: state.status,
      reason: said(
        `the event feed's last event of it (${state.type} at ${state.at}, event ${state.event_id}) says ${state.status}, the service's record says ${line.status} (the match alone: ${line.class})`,
      ),
    };
  if (state.at_end && state.at_end !== line.status)
    return {
      ...line,
      status_at_end: state.at_end,
      reason: said(`${state.at_end} at the period's end, ${line.status} since ${state.at}`),
    };
  return line;
}
