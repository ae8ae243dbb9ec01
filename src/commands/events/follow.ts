// What events watch and listen share: where a reader starts (--since, its checkpoint, or the newest event: new
// events only), and the loop that follows the feed until told to stop. The loop rides out a service it cannot reach
// (it says so on stderr and polls again, backing off up to 30 s), since a follower that quietly stops is the failure
// to avoid; any other error (401, a missing scope) ends it.
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { NetworkError } from '../../client/transport.js';
import { EventFeed, type FeedEntry } from '../../events/feed.js';
import {
  type CheckpointKey,
  CheckpointWriter,
  checkpointFile,
  type FeedPosition,
  readCheckpoint,
} from '../../events/position.js';
import { palette } from '../../render/style.js';
import { FLAGS, type FollowOptions } from './options.js';

export interface Start {
  feed: EventFeed;
  /** Where the reader starts (undefined: at the feed's first event). */
  position: FeedPosition | undefined;
  writer: CheckpointWriter;
  /** For people: where it starts. */
  from: string;
}

/** The feed of a reader, positioned: at --since, else after its checkpoint, else after the newest event. */
export async function startFeed(
  ctx: Pick<Ports, 'service' | 'clock' | 'interrupt'>,
  conn: Connection,
  reader: CheckpointKey['reader'],
  options: FollowOptions & { url?: string },
): Promise<Start> {
  const key: CheckpointKey = {
    reader,
    context: conn.context.name,
    serviceId: conn.serviceId,
    types: options.types,
    ...(options.url ? { target: options.url } : {}),
  };
  const file = checkpointFile(ctx.service.dataDir(), key);
  const writer = new CheckpointWriter(file, key, () => ctx.clock.now());
  const feedOptions = { client: conn.client, types: options.types, flags: FLAGS };
  let position: FeedPosition | undefined;
  let from: string;
  if (options.since !== undefined) {
    position = { created_at: options.since, ids: [] };
    from = `events from ${options.since} on (--since)`;
  } else {
    const saved = readCheckpoint(file);
    if (saved) {
      position = saved;
      from = `after the checkpoint (${saved.created_at}, ${file})`;
    } else {
      position = await EventFeed.latest(feedOptions);
      from = position
        ? `new events (after ${position.created_at}; no checkpoint yet)`
        : 'the first event (the feed is empty)';
    }
  }
  if (position) writer.save(position);
  ctx.interrupt.onExit(() => writer.flush());
  return { feed: new EventFeed(feedOptions, position), position, writer, from };
}

/** Who takes what the feed gives: it says how many it has room for, and when it is done. */
export interface Sink {
  room(): number;
  waitForRoom(): Promise<void>;
  take(entries: FeedEntry[]): void;
  done(): boolean;
}

/**
 * The entries up to the `wanted`-th one of a type followed (every entry when fewer come): a reader with --count takes
 * no event after its last, so neither its output nor its checkpoint goes past it.
 */
export function upToWanted(entries: FeedEntry[], wanted: number): FeedEntry[] {
  let n = 0;
  for (const [i, e] of entries.entries()) if (e.wanted && ++n >= wanted) return entries.slice(0, i + 1);
  return entries;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the sink is done: at once while the feed is behind, else every COINOP_POLL_MS. */
export async function followFeed(
  ctx: Pick<Ports, 'display' | 'service'>,
  feed: EventFeed,
  sink: Sink,
  onPoll?: () => void,
): Promise<void> {
  const { io } = ctx.display;
  const p = palette(io.colourErr);
  let failures = 0;
  while (!sink.done()) {
    await sink.waitForRoom();
    if (sink.done()) return;
    let entries: FeedEntry[];
    try {
      entries = await feed.poll(sink.room());
      if (failures) io.err(`${p.green('reached the service again')}\n`);
      failures = 0;
    } catch (e) {
      if (!(e instanceof NetworkError)) throw e;
      failures++;
      const wait = Math.min(30_000, ctx.service.retryBaseMs() * 2 ** Math.min(failures, 10));
      io.err(`${p.yellow(`${e.message}; polling again in ${Math.max(1, Math.round(wait / 1000))} s`)}\n`);
      await sleep(wait);
      continue;
    }
    if (entries.length) sink.take(entries);
    onPoll?.();
    if (!feed.behind && !sink.done()) await sleep(ctx.service.pollMs());
  }
}
