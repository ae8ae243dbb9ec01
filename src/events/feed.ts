// Following the event feed: GET /v2/events from a position, oldest first, every page of each poll, handing over each
// event not taken yet in the feed's order. The hosted service has no event stream; polling by created_at is how a
// client follows it (its cursors end with the last page, so they cannot say where the next poll starts).
import type { Event, ListEventsQuery } from '../contract/index.js';
import type { ServiceClient, FlagNames } from '../client/service-client.js';
import type { CoinopError } from '../errors.js';
import { advance, copyPosition, type FeedPosition } from './position.js';

export interface FeedEntry {
  event: Event;
  /** Of a type the reader follows (the rest still move the position). */
  wanted: boolean;
}

export interface FeedOptions {
  client: ServiceClient;
  /** The types to follow; none: every type. One is asked of the service, several are picked out here. */
  types: string[];
  /** Events a page (the service's most is 100). */
  pageLimit?: number;
  flags?: FlagNames;
}

/** The query of a poll from a position. */
function pollQuery(options: FeedOptions, from: FeedPosition | undefined, order: 'ASC' | 'DESC'): ListEventsQuery {
  return {
    order,
    limit: options.pageLimit ?? 100,
    ...(from ? { 'created_at.gte': from.created_at } : {}),
    ...(options.types.length === 1 ? { type: options.types[0] } : {}),
  };
}

export class EventFeed {
  /**
   * Where the last poll stopped inside the feed when it had taken its fill: the query and the cursor of its next page,
   * so the next poll goes on from there instead of reading the events of one timestamp again.
   */
  private resume: { query: ListEventsQuery; cursor: string } | undefined;

  /** The ids of the position's time, as a set (a timestamp may hold thousands of events). */
  private idsAt = new Set<string>();
  private idsTime: string | undefined;
  /** Where the next poll starts: after the last event handed over (undefined: the feed's first event). */
  position: FeedPosition | undefined;

  constructor(
    private readonly options: FeedOptions,
    start: FeedPosition | undefined,
  ) {
    this.position = copyPosition(start);
  }

  /** The last poll stopped with more events waiting: poll again without a pause. */
  get behind(): boolean {
    return this.resume !== undefined;
  }

  /** Handed over already: at the position's time and among its ids (gte reads no earlier event). */
  private taken(event: Event): boolean {
    const p = this.position;
    if (!p || event.created_at !== p.created_at) return false;
    if (this.idsTime !== p.created_at) {
      this.idsAt = new Set(p.ids);
      this.idsTime = p.created_at;
    }
    return this.idsAt.has(event.id);
  }

  /** The position of the newest event now (undefined when the feed is empty): where a reader of new events starts. */
  static async latest(options: FeedOptions): Promise<FeedPosition | undefined> {
    const query = pollQuery(options, undefined, 'DESC');
    const { data } = await options.client.call('listEvents', { query }, options.flags);
    const events = Array.isArray(data.events) ? data.events : [];
    if (!events.length) return undefined;
    // The newest time, and every event of that time on the page (they share the timestamp, so all are old).
    const at = events[0].created_at;
    return { created_at: at, ids: events.filter((e) => e.created_at === at).map((e) => e.id) };
  }

  /**
   * One poll: the events after the position, oldest first, whole pages until there are at least `max` (the rest
   * come with the next poll). The position moves past each one handed over.
   */
  async poll(max: number): Promise<FeedEntry[]> {
    const out: FeedEntry[] = [];
    const want = new Set(this.options.types);
    let query = this.resume?.query ?? pollQuery(this.options, this.position, 'ASC');
    let cursor = this.resume?.cursor;
    this.resume = undefined;
    for (;;) {
      const page = await this.page(query, cursor);
      if (!page) {
        // The cursor was refused (a service may let cursors expire): read on from the position instead.
        query = pollQuery(this.options, this.position, 'ASC');
        cursor = undefined;
        continue;
      }
      for (const event of page.events) {
        if (this.taken(event)) continue;
        this.position = advance(this.position, event);
        this.idsAt.add(event.id);
        out.push({ event, wanted: !want.size || want.has(event.type) });
      }
      if (!page.next) return out;
      if (out.length >= max) {
        this.resume = { query, cursor: page.next };
        return out;
      }
      cursor = page.next;
    }
  }

  /** One page of a poll; undefined when the service refused the cursor (a 400). */
  private async page(
    query: ListEventsQuery,
    cursor: string | undefined,
  ): Promise<{ events: Event[]; next?: string } | undefined> {
    try {
      const { data } = await this.options.client.call(
        'listEvents',
        { query: cursor ? { ...query, page_cursor: cursor } : query },
        this.options.flags,
        !!cursor,
      );
      return { events: Array.isArray(data.events) ? data.events : [], next: data.next_page_cursor || undefined };
    } catch (e) {
      if (cursor && (e as CoinopError).problem?.status === 400) return undefined;
      throw e;
    }
  }
}
