// Forwarding events to a URL (coinop events listen --forward-to): each event POSTed as JSON, signed (signature.ts),
// at least once and never skipped.
//
// - Order per object: an event is sent only once every earlier event of the same object (a transfer, a deposit
//   address) was delivered; events of other objects go ahead, up to `concurrency` at a time.
// - Retries: a delivery that fails (no connection, no answer within the timeout, any status but 2xx) is sent again
//   after an exponential backoff with jitter, for as long as it takes: a target that is down holds its events back,
//   it never loses them.
// - The checkpoint: the position after the longest run of events from the last checkpoint that were all delivered
//   (or are of a type not followed). Events delivered beyond it (other objects that went ahead) are sent again after
//   a restart: at least once, and the receiver tells repeats by the event id.
// - Memory: at most `window` events are held; the reader of the feed waits for room (nothing is dropped).
import type { Event } from '../contract/index.js';
import { NetworkError, type Transport } from '../client/transport.js';
import { advance, copyPosition, type FeedPosition } from './position.js';
import type { FeedEntry } from './feed.js';
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';

/** What one delivery attempt came to. */
export interface DeliveryReport {
  event: Event;
  attempt: number;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why no answer counts: the connection failed or timed out. */
  error?: string;
  /** How long the attempt took. */
  ms: number;
  delivered: boolean;
  /** Not delivered: the wait before the next attempt. */
  retryInMs?: number;
}

export interface ForwarderOptions {
  url: string;
  secret: string;
  /** Sends each attempt once (attempts: 1); its timeout is the delivery timeout. */
  transport: Transport;
  concurrency: number;
  /** The first retry's backoff cap, doubled for each attempt after, up to maxRetryMs. */
  retryBaseMs: number;
  maxRetryMs: number;
  /** The most events held at once (delivered or not, from the checkpoint on). */
  window: number;
  /** Where the feed was when forwarding started (the checkpoint read, or where a new reader starts). */
  start: FeedPosition | undefined;
  report(r: DeliveryReport): void;
  /** The checkpoint moved: every event up to `p` was delivered. `wanted`: how many of them were forwarded. */
  checkpoint(p: FeedPosition, wanted: number): void;
  /** Extra headers of every delivery (the user agent). */
  headers?: Record<string, string>;
  now?: () => number;
  random?: () => number;
}

interface Held {
  entry: FeedEntry;
  /** The object whose order it keeps. */
  key: string;
  attempts: number;
  done: boolean;
  /** Sent and not yet answered, or waiting for its retry. */
  busy: boolean;
}

/** The object an event is about: events of one object are delivered in the feed's order. */
export function objectKey(event: Event): string {
  const id = (event.object as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? `${event.object_type}:${id}` : `event:${event.id}`;
}

export class Forwarder {
  /** Held events in feed order, from index `first` (the ones before it are behind the checkpoint). */
  private held: Held[] = [];
  private first = 0;
  /** Per object, its held events not delivered yet, oldest first: only the head may be sent. */
  private readonly byObject = new Map<string, Held[]>();
  /** Heads of their object that may be sent now, in the order they became ready. */
  private readonly ready: Held[] = [];
  private inFlight = 0;
  private position: FeedPosition | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private waiters: (() => void)[] = [];
  private stopped = false;
  /** Deliveries answered 2xx, repeats after a restart included. */
  delivered = 0;
  /** Attempts that failed (and were retried). */
  failures = 0;

  constructor(private readonly options: ForwarderOptions) {
    this.position = copyPosition(options.start);
  }

  /** Room for more events (the feed's reader takes at most this many). */
  get room(): number {
    return this.options.window - (this.held.length - this.first);
  }

  /** Events held and not delivered yet. */
  get pending(): number {
    let n = 0;
    for (let i = this.first; i < this.held.length; i++) if (!this.held[i].done) n++;
    return n;
  }

  /** The checkpoint now (every event up to it delivered). */
  get checkpointPosition(): FeedPosition | undefined {
    return this.position;
  }

  /** Takes events in feed order; those of types not followed count as delivered at once. */
  add(entries: FeedEntry[]): void {
    for (const entry of entries) {
      const h: Held = { entry, key: objectKey(entry.event), attempts: 0, done: !entry.wanted, busy: false };
      this.held.push(h);
      if (h.done) continue;
      const queue = this.byObject.get(h.key);
      if (queue) queue.push(h);
      else {
        this.byObject.set(h.key, [h]);
        this.ready.push(h);
      }
    }
    this.settle();
    this.pump();
  }

  /** Resolves when there is room for more events (at once when there is). */
  async waitForRoom(): Promise<void> {
    while (this.room <= 0 && !this.stopped) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** Resolves once every event taken is behind the checkpoint (delivered), or forwarding stopped. */
  async drained(): Promise<void> {
    while (this.first < this.held.length && !this.stopped) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** Stops sending: no new attempt starts and no retry waits (attempts under way end by their timeout). */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }

  private pump(): void {
    while (!this.stopped && this.inFlight < this.options.concurrency && this.ready.length) {
      const h = this.ready.shift()!;
      h.busy = true;
      this.inFlight++;
      void this.attempt(h);
    }
  }

  private async attempt(held: Held): Promise<void> {
    held.attempts++;
    const report = await this.send(held.entry.event, held.attempts);
    this.inFlight--;
    if (report.delivered) {
      this.delivered++;
      held.done = true;
      held.busy = false;
      const queue = this.byObject.get(held.key)!;
      queue.shift();
      if (queue.length) this.ready.push(queue[0]);
      else this.byObject.delete(held.key);
      this.options.report(report);
      this.settle();
    } else {
      this.failures++;
      report.retryInMs = this.backoff(held.attempts);
      this.options.report(report);
      if (!this.stopped) {
        const t = setTimeout(() => {
          this.timers.delete(t);
          held.busy = false;
          this.ready.push(held);
          this.pump();
        }, report.retryInMs);
        this.timers.add(t);
      }
    }
    this.pump();
  }

  /** One attempt: POST the event, signed now. */
  private async send(event: Event, attempt: number): Promise<DeliveryReport> {
    const now = this.options.now ?? Date.now;
    const body = JSON.stringify(event);
    const started = Date.now();
    try {
      const res = await this.options.transport.send({
        method: 'POST',
        url: this.options.url,
        retry: false,
        body,
        headers: {
          ...this.options.headers,
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signatureHeader(this.options.secret, body, now() / 1000),
          'Coinop-Event-Id': event.id,
          'Coinop-Event-Type': event.type,
          'Coinop-Delivery-Attempt': String(attempt),
        },
      });
      const ok = res.status >= 200 && res.status < 300;
      return { event, attempt, status: res.status, ms: Date.now() - started, delivered: ok };
    } catch (e) {
      const error = e instanceof NetworkError ? e.message : `${(e as Error).message ?? e}`;
      return { event, attempt, error, ms: Date.now() - started, delivered: false };
    }
  }

  /** Full jitter over the upper half: between half the cap and the cap, the cap doubling per attempt. */
  private backoff(attempts: number): number {
    const cap = Math.min(this.options.maxRetryMs, this.options.retryBaseMs * 2 ** Math.min(attempts - 1, 30));
    return Math.round(cap / 2 + (this.options.random ?? Math.random)() * (cap / 2));
  }

  /** Moves the checkpoint over the delivered run at the front, and lets go of what it passed. */
  private settle(): void {
    let wanted = 0;
    const from = this.first;
    while (this.first < this.held.length && this.held[this.first].done) {
      const { event, wanted: w } = this.held[this.first].entry;
      this.position = advance(this.position, event);
      if (w) wanted++;
      this.first++;
    }
    if (this.first === from) return;
    // The array is cut now and then, not at every step (each cut copies what is left).
    if (this.first > 1024 && this.first * 2 > this.held.length) {
      this.held = this.held.slice(this.first);
      this.first = 0;
    }
    this.options.checkpoint(this.position!, wanted);
    this.wake();
  }
}

/** The target went down (the first failed attempt after a delivery, or at the start) or came back. */
export type TargetChange =
  | { kind: 'down'; reason: string; attempt: number; retryInMs: number }
  | { kind: 'up'; failed: number; downMs: number };

/**
 * Whether the target takes deliveries, from the attempts' reports: a change is said once (down with its reason, up
 * with how long and how many attempts failed), not each attempt; the counts make the summary at the end.
 */
export class TargetHealth {
  /** Since when the target is down, and the attempts that failed since. */
  private down?: { since: number; reason: string; failed: number };
  /** Every failed attempt, and how many times the target went down. */
  failed = 0;
  downs = 0;

  /** The reason and the attempts failed while the target is down (undefined when it is up). */
  get outage(): { reason: string; failed: number; since: number } | undefined {
    return this.down && { ...this.down };
  }

  /** Takes one attempt's report; returns the change it makes, if any. */
  note(report: DeliveryReport, now: number): TargetChange | undefined {
    if (report.delivered) {
      const was = this.down;
      this.down = undefined;
      return was && { kind: 'up', failed: was.failed, downMs: now - was.since };
    }
    this.failed++;
    const reason = report.error ?? `HTTP ${report.status}`;
    if (this.down) {
      this.down.failed++;
      this.down.reason = reason;
      return undefined;
    }
    this.downs++;
    this.down = { since: now, reason, failed: 1 };
    return { kind: 'down', reason, attempt: report.attempt, retryInMs: report.retryInMs ?? 0 };
  }
}
