// The event feed of the local service: an event for every state change of a transfer (created, completed, failed)
// or a stablecoin conversion (conversion-states.ts), and for every deposit address created, written in the same transaction as the change, with the resource as GET
// answers it at that moment. Types are named as the hosted service names its own (transfer.crypto_withdrawal.pending:
// the transfer's type and status in lower case).
//
// Order: the feed is read by created_at (GET /v2/events, and clients that follow it with created_at.gte), so events
// are stored in the order of their times: every transaction that records one settles what is due first (ledger.ts),
// and no event is dated before the newest one stored. A reader that has seen an event at time T therefore never
// later finds one dated before T, however the writes of several processes interleave.
import { randomUUID } from './lazy-crypto.js';
import { EVENT_OBJECT_TYPES, type DepositAddress, type Event, type Transfer } from '../contract/index.js';
import type { Core } from './core.js';
import { isoMillis } from './service-clock.js';
import type { EventRow } from './store.js';

/** The hosted service's name for a transfer reaching a status: transfer.crypto_withdrawal.completed. */
export function transferEventType(transfer: Pick<Transfer, 'type' | 'status'>): string {
  return `transfer.${String(transfer.type).toLowerCase()}.${String(transfer.status).toLowerCase()}`;
}

/** An event of `type` about `object` (as GET answers it now), dated `atMs` or, if later, the newest event's time. */
export function recordEvent(core: Core, type: string, objectType: string, object: { id: string }, atMs: number): void {
  const last = core.store.lastEventMs();
  core.store.insertEvent({
    id: randomUUID(),
    type,
    object_type: objectType,
    object_id: object.id,
    // Never before the newest event: the feed's order is its times' order (see the top of this file).
    created_ms: last !== undefined && last > atMs ? last : atMs,
    object: JSON.stringify(object),
  });
}

/** A transfer was made or changed status: `transfer` is the resource as GET answers it now, `atMs` when it happened. */
export function recordTransferEvent(core: Core, transfer: Transfer, atMs: number): void {
  recordEvent(core, transferEventType(transfer), EVENT_OBJECT_TYPES.transfer, transfer, atMs);
}

export function recordDepositAddressEvent(core: Core, address: DepositAddress, atMs: number): void {
  recordEvent(core, 'deposit_address.created', EVENT_OBJECT_TYPES.depositAddress, address, atMs);
}

/** The Event resource of a stored row. No webhooks are configured on the local service: none are undelivered. */
export function eventResource(row: EventRow): Event {
  return {
    id: row.id,
    type: row.type,
    object_type: row.object_type,
    object: JSON.parse(row.object) as Record<string, unknown>,
    created_at: isoMillis(row.created_ms),
    undelivered_webhooks: 0,
  };
}
