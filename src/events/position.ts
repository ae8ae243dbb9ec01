// Where a reader of the event feed stands, and where it resumes: the created_at of the last event it took and the
// ids of every event it took at that very time (several events may share a timestamp). The feed is ordered by
// created_at (the OpenAPI), so reading again from created_at.gte that time and leaving out those ids misses nothing
// and repeats nothing. Kept in a checkpoint file per context, service and reader in the data directory.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Event } from '../contract/index.js';
import { writeFileAtomic } from '../config/lock.js';
import { privateDir } from '../config/private-files.js';
import { CoinopError } from '../errors.js';

export interface FeedPosition {
  /** The created_at of the last event taken, exactly as the service wrote it. */
  created_at: string;
  /** The ids of the events taken whose created_at is that one. */
  ids: string[];
}

/**
 * The position after taking `event`, from the position before it (undefined: nothing taken yet). At the same time it
 * is `position` itself with the id added (thousands of events may share a timestamp: no copy each time), so each reader
 * keeps a position of its own (copyPosition).
 */
export function advance(position: FeedPosition | undefined, event: Pick<Event, 'id' | 'created_at'>): FeedPosition {
  if (position && position.created_at === event.created_at) {
    position.ids.push(event.id);
    return position;
  }
  return { created_at: event.created_at, ids: [event.id] };
}

export function copyPosition(position: FeedPosition): FeedPosition;
export function copyPosition(position: FeedPosition | undefined): FeedPosition | undefined;
export function copyPosition(position: FeedPosition | undefined): FeedPosition | undefined {
  return position && { created_at: position.created_at, ids: [...position.ids] };
}

/** What a checkpoint is for: one reader (watch, or listen to one URL) of one context on one service, one filter. */
export interface CheckpointKey {
  reader: 'watch' | 'listen';
  context: string;
  serviceId: string;
  /** The event types it follows (none: every type). */
  types: string[];
  /** listen: the URL events are forwarded to. */
  target?: string;
}

interface CheckpointFile {
  key: CheckpointKey;
  position: FeedPosition;
  saved_at: string;
}

/** The checkpoint file of a key: named by a hash of it (a URL or a service id is no file name). */
export function checkpointFile(dataDir: string, key: CheckpointKey): string {
  const canon = JSON.stringify([key.reader, key.context, key.serviceId, [...key.types].sort(), key.target ?? '']);
  const name = createHash('sha256').update(canon).digest('hex').slice(0, 32);
  return join(dataDir, 'events', `${key.reader}-${name}.json`);
}

/** The saved position, if any; a damaged file is an error that names it and the way out (nothing is guessed). */
export function readCheckpoint(file: string): FeedPosition | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const c = JSON.parse(text) as Partial<CheckpointFile>;
    const p = c.position;
    if (p && typeof p.created_at === 'string' && Array.isArray(p.ids) && p.ids.every((x) => typeof x === 'string'))
      return { created_at: p.created_at, ids: p.ids };
  } catch {
    /* said below */
  }
  throw new CoinopError('file', `the event checkpoint ${file} is damaged`, {
    hint: 'give --since TIME to say where to start (the file is then written anew), or remove the file',
  });
}

/** Saves a position whole or not at all, 0600 in a 0700 folder. */
export function writeCheckpoint(file: string, key: CheckpointKey, position: FeedPosition, now: number): void {
  privateDir(dirname(file));
  const body: CheckpointFile = { key, position, saved_at: new Date(now).toISOString() };
  writeFileAtomic(file, `${JSON.stringify(body)}\n`);
}

/**
 * Writes a reader's position as it moves: at once when the last write is older than `everyMs`, else once that time
 * has passed (a reader taking hundreds of events a second writes a few times a second). flush() writes what is
 * pending, on the way out. A kill loses at most the last `everyMs` of progress, which is read and taken again.
 */
export class CheckpointWriter {
  private pending: FeedPosition | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = 0;
  /** The position last handed in (written or pending). */
  position: FeedPosition | undefined;

  constructor(
    readonly file: string,
    private readonly key: CheckpointKey,
    private readonly now: () => number = Date.now,
    private readonly everyMs = 200,
  ) {}

  save(position: FeedPosition): void {
    this.position = position;
    this.pending = position;
    const wait = this.lastWrite + this.everyMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    const p = this.pending;
    this.pending = undefined;
    this.lastWrite = Date.now();
    writeCheckpoint(this.file, this.key, p, this.now());
  }
}
