// The working store of one reconciliation: the intents indexed by ref_id (and by content), the lines as they are
// classed, and what waits for the end of the transfers (credit legs, matches by content). SQLite in a temporary file,
// so memory stays flat whatever the month holds; removed when closed.
import type { Database as DatabaseType, Statement } from 'better-sqlite3';
import { type ScratchDb, scratchDb } from '../statement/scratch-db.js';
import { contentKey, type Intent, type IntentScope } from './intents.js';

/** Which recorded states win a merge: a later step of a payment says more than an attempt or a plan. */
const WEAK = "('attempt', 'planned')";

export interface StoredIntent extends Intent {
  matched: number;
}

export class Book {
  private readonly db: DatabaseType;
  private readonly scratch: ScratchDb;
  private readonly stmts = new Map<string, Statement>();

  constructor() {
    this.scratch = scratchDb(
      'coinop-reconcile-',
      `
      CREATE TABLE intents (ref_id TEXT PRIMARY KEY, body TEXT NOT NULL, at TEXT NOT NULL, recorded TEXT NOT NULL,
        content TEXT, in_scope INTEGER NOT NULL DEFAULT 0, matched INTEGER NOT NULL DEFAULT 0);
      CREATE INDEX intents_content ON intents(content) WHERE content IS NOT NULL;
      CREATE TABLE lines (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);
      CREATE TABLE later (seq INTEGER PRIMARY KEY, what TEXT NOT NULL, ref_id TEXT, body TEXT NOT NULL);
      CREATE TABLE groups (group_id TEXT PRIMARY KEY);
      CREATE TABLE events (object_id TEXT PRIMARY KEY, body TEXT NOT NULL);
    `,
    );
    this.db = this.scratch.db;
  }

  private stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  /**
   * Adds intents (one step of a payment at a time): steps of one ref_id merge, the earliest time kept, each field the
   * latest given, the recorded state the latest but an attempt or a plan.
   */
  async addIntents(intents: Iterable<Intent> | AsyncIterable<Intent>): Promise<number> {
    let n = 0;
    const get = this.stmt('SELECT body, at, recorded FROM intents WHERE ref_id = ?');
    const put = this.stmt(
      'INSERT INTO intents (ref_id, body, at, recorded, content) VALUES (?, ?, ?, ?, ?) ' +
        `ON CONFLICT(ref_id) DO UPDATE SET body = excluded.body, at = min(at, excluded.at), content = excluded.content,
         recorded = CASE WHEN excluded.recorded IN ${WEAK} THEN recorded ELSE excluded.recorded END`,
    );
    const batch = this.db.transaction((chunk: Intent[]) => {
      for (const i of chunk) {
        const old = get.get(i.ref_id) as { body: string } | undefined;
        const merged: Intent = old ? { ...(JSON.parse(old.body) as Intent), ...i } : i;
        if (old) {
          const first = JSON.parse(old.body) as Intent;
          // The first source and time name the intent; a weak step never hides a stronger one.
          merged.source = first.source;
          if (['attempt', 'planned'].includes(i.recorded)) merged.recorded = first.recorded;
        }
        put.run(i.ref_id, JSON.stringify(merged), normalTime(i.at), i.recorded, contentKey(merged) ?? null);
        n++;
      }
    });
    let chunk: Intent[] = [];
    for await (const i of intents) {
      chunk.push(i);
      if (chunk.length >= 5000) {
        batch(chunk);
        chunk = [];
      }
    }
    if (chunk.length) batch(chunk);
    return n;
  }

  /**
   * Marks the intents of the scope (recorded in the period, of its service and profiles, not void): those reported.
   * Intents outside it are still known, so a transfer paying one is not taken for a payment never intended.
   */
  scope(scope: IntentScope): number {
    const where = ["recorded != 'void'"];
    const args: string[] = [];
    if (scope.from) {
      where.push('at >= ?');
      args.push(normalTime(scope.from));
    }
    if (scope.to) {
      where.push('at < ?');
      args.push(normalTime(scope.to));
    }
    this.db.prepare(`UPDATE intents SET in_scope = 1 WHERE ${where.join(' AND ')}`).run(...args);
    // Profiles and service are in the body: judged in code, a page of rows at a time (no write while a read is open).
    const drop = this.db.prepare('UPDATE intents SET in_scope = 0 WHERE ref_id = ?');
    const page = this.db.prepare(
      'SELECT ref_id, body FROM intents WHERE in_scope = 1 AND ref_id > ? ORDER BY ref_id LIMIT 1000',
    );
    for (let after = ''; ; ) {
      const rows = page.all(after) as { ref_id: string; body: string }[];
      if (!rows.length) break;
      after = rows[rows.length - 1].ref_id;
      for (const r of rows) {
        const i = JSON.parse(r.body) as Intent;
        const services = [scope.serviceId, ...(scope.serviceAliases ?? [])];
        const otherService = scope.serviceId && i.service && !services.includes(i.service);
        const otherProfile = scope.profileIds && !(i.profile_id && scope.profileIds.includes(i.profile_id));
        if (otherService || otherProfile) drop.run(r.ref_id);
      }
    }
    return (this.db.prepare('SELECT count(*) AS n FROM intents WHERE in_scope = 1').get() as { n: number }).n;
  }

  intent(refId: string): StoredIntent | undefined {
    const r = this.stmt('SELECT body, matched, in_scope FROM intents WHERE ref_id = ?').get(refId) as
      | { body: string; matched: number }
      | undefined;
    return r ? { ...(JSON.parse(r.body) as Intent), matched: r.matched } : undefined;
  }

  /** The intents paying this content (any ref_id), those not matched first. */
  byContent(key: string): StoredIntent[] {
    const rows = this.stmt('SELECT body, matched FROM intents WHERE content = ? ORDER BY matched, at LIMIT 20').all(
      key,
    ) as { body: string; matched: number }[];
    return rows.map((r) => ({ ...(JSON.parse(r.body) as Intent), matched: r.matched }));
  }

  match(refId: string): void {
    this.stmt('UPDATE intents SET matched = matched + 1 WHERE ref_id = ?').run(refId);
  }

  /** Intents of the scope no transfer matched, a page at a time (in ref_id order, after `after`). */
  unmatched(after: string, limit: number): Intent[] {
    return (
      this.stmt(
        'SELECT body FROM intents WHERE in_scope = 1 AND matched = 0 AND ref_id > ? ORDER BY ref_id LIMIT ?',
      ).all(after, limit) as { body: string }[]
    ).map((r) => JSON.parse(r.body) as Intent);
  }

  addLine(line: object): void {
    this.stmt('INSERT INTO lines (body) VALUES (?)').run(JSON.stringify(line));
  }

  *lines(): IterableIterator<Record<string, unknown>> {
    for (const r of this.db.prepare('SELECT body FROM lines ORDER BY seq').iterate() as Iterable<{ body: string }>)
      yield JSON.parse(r.body) as Record<string, unknown>;
  }

  /** Something to decide once every transfer is in: a credit leg, a match by content. */
  later(what: 'credit' | 'content', body: object, refId?: string): void {
    this.stmt('INSERT INTO later (what, ref_id, body) VALUES (?, ?, ?)').run(what, refId ?? null, JSON.stringify(body));
  }

  /** What was kept for the end, in order, read a page at a time (so the book can be written meanwhile). */
  *laterOf(what: 'credit' | 'content'): IterableIterator<{ ref_id: string | null; body: Record<string, unknown> }> {
    const q = this.stmt('SELECT seq, ref_id, body FROM later WHERE what = ? AND seq > ? ORDER BY seq LIMIT 500');
    for (let after = 0; ; ) {
      const rows = q.all(what, after) as { seq: number; ref_id: string | null; body: string }[];
      if (!rows.length) return;
      after = rows[rows.length - 1].seq;
      for (const r of rows) yield { ref_id: r.ref_id, body: JSON.parse(r.body) as Record<string, unknown> };
    }
  }

  addGroup(groupId: string): void {
    this.stmt('INSERT OR IGNORE INTO groups (group_id) VALUES (?)').run(groupId);
  }

  hasGroup(groupId: string): boolean {
    return !!this.stmt('SELECT 1 FROM groups WHERE group_id = ?').get(groupId);
  }

  /** Keeps what the event feed says of an object (a transfer, a conversion): the caller merges. */
  putEvent(objectId: string, body: object): void {
    this.stmt('INSERT OR REPLACE INTO events (object_id, body) VALUES (?, ?)').run(objectId, JSON.stringify(body));
  }

  event<T>(objectId: string): T | undefined {
    const r = this.stmt('SELECT body FROM events WHERE object_id = ?').get(objectId) as { body: string } | undefined;
    return r ? (JSON.parse(r.body) as T) : undefined;
  }

  /** Runs `fn` as one transaction: a page of transfers is written at once, not a commit per line. */
  batch<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.scratch.close();
  }
}

/** A time as the book compares it (ISO with milliseconds, so text order is time order). */
export const normalTime = (t: string): string => new Date(Date.parse(t)).toISOString();
