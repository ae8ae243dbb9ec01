// What this machine has let through the gate and the service may not show yet: a reservation per request admitted
// (a withdrawal's ref_id, asset and amount), kept per coinop context and service in a small private file. The rolling
// caps count them with the service's own transfers, so a request admitted a moment ago by another process, or the
// rows a running batch has yet to send, count before the service shows them. The file is read and written only under
// the gate's lock (one per context and service), so check-and-reserve is one step between processes on this machine.
// A reservation goes when the service shows its ref_id (it then counts there), when its request was refused or never
// left (released), or after a day.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEvent } from '../audit/entry.js';
import { withLock, writeFileAtomic } from '../config/lock.js';

export interface Reservation {
  ref_id: string;
  asset: string;
  /** The most it sends (its amount, or its total when given by total), a decimal string. */
  amount: string;
  /** When it was made, by this machine's clock (ms). */
  at: number;
  /** The batch that holds it, for a batch's rows. */
  batch_id?: string;
}

/** Kept this long at most: a day and an hour, past any 24-hour window it could count in. */
const KEEP_MS = 25 * 3600 * 1000;

/** How long a process waits for another's turn at the gate before it gives up (nothing sent). */
const LOCK_WAIT_MS = 60_000;

/** Where the gate keeps its reservations: this machine's file (Reservations), or a gateway's store. */
export interface ReservationBook {
  /** Where its lock is, for messages. */
  readonly lockPath: string;
  /** Runs `fn` as the only one checking and reserving against these caps (others wait their turn). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * The reservations held, those of a day ago and older left out. Under exclusive(). `asset`: only that asset's are
   * needed (a book may return more; one that returns fewer must keep the others in write()).
   */
  read(now: number, asset?: string): Reservation[] | Promise<Reservation[]>;
  /** Saves the reservations, less those the service now shows (`seen`). Under exclusive(). */
  write(list: Reservation[], seen: ReadonlySet<string>, now: number): void | Promise<void>;
  /** Takes back the reservations of these ref_ids (their requests were refused, or never left). */
  release(refIds: Iterable<string>, now: number): Promise<void>;
  /**
   * Writes the admitted request's attempt to the audit trail within the same exclusive section, committed with its
   * reservation (a gateway's store: one transaction); a book without it leaves the attempt to the gate's audit.
   */
  record?(event: AuditEvent): Promise<void>;
}

export class Reservations implements ReservationBook {
  readonly path: string;
  readonly lockPath: string;
  constructor(dataDir: string, context: string, serviceId: string) {
    const key = createHash('sha256').update(`${context}\n${serviceId}`).digest('hex').slice(0, 16);
    const dir = join(dataDir, 'gate');
    this.path = join(dir, `reservations-${key}.json`);
    this.lockPath = `${this.path}.lock`;
  }

  /** Runs `fn` as this context and service's only gate on this machine (another process waits its turn). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
    return withLock(this.lockPath, fn, LOCK_WAIT_MS);
  }

  /** The reservations held, those of a day ago and older left out. Under exclusive(). */
  read(now: number): Reservation[] {
    let list: Reservation[];
    try {
      list = (JSON.parse(readFileSync(this.path, 'utf8')) as { reservations?: Reservation[] }).reservations ?? [];
    } catch {
      return [];
    }
    return list.filter((r) => now - r.at < KEEP_MS);
  }

  /** Saves the reservations, less those the service now shows (`seen`: ref_ids it holds). Under exclusive(). */
  write(list: Reservation[], seen: ReadonlySet<string>, now: number): void {
    const kept = list.filter((r) => !seen.has(r.ref_id) && now - r.at < KEEP_MS);
    writeFileAtomic(this.path, `${JSON.stringify({ reservations: kept })}\n`);
  }

  /** Takes back the reservations of these ref_ids (their requests were refused, or never left). */
  async release(refIds: Iterable<string>, now: number): Promise<void> {
    const gone = new Set(refIds);
    if (!gone.size) return;
    await this.exclusive(async () => {
      const list = this.read(now);
      const kept = list.filter((r) => !gone.has(r.ref_id));
      if (kept.length !== list.length) this.write(kept, new Set(), now);
    });
  }
}
