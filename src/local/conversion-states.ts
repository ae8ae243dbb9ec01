// A stablecoin conversion's states on the local service: CREATED (its source debited) until its settle time by the
// service clock, then SETTLED (its target credited, to the recipient profile when one was named) or, under the
// failConversions fault, FAILED (its source given back); CANCELLED when cancelled while CREATED (the source given
// back). Each change is an event of the feed, in the same transaction. ledger.ts's settleDue runs settleConversions
// with the transfers' transitions, so the feed stays in the order of its times.
import { dec, EVENT_OBJECT_TYPES, fmt, type StablecoinConversion } from '../contract/index.js';
import type { Core } from './core.js';
import { recordEvent } from './events.js';
import { isoMillis } from './service-clock.js';
import type { ConversionRow } from './store.js';

/** The StablecoinConversion resource of a stored row, with its status now and the time it reached it. */
export function conversionResource(row: ConversionRow): StablecoinConversion {
  const c = JSON.parse(row.body) as StablecoinConversion;
  c.status = row.status;
  c.updated_at = isoMillis(row.updated_ms);
  if (row.status === 'SETTLED') c.settled_at = c.updated_at;
  if (row.status === 'CANCELLED') c.cancelled_at = c.updated_at;
  return c;
}

/** The event of a conversion reaching its status: conversion.stablecoin.created, .settled, .cancelled, .failed. */
export function recordConversionEvent(core: Core, row: ConversionRow, atMs: number): void {
  const resource = conversionResource(row);
  recordEvent(
    core,
    `conversion.stablecoin.${row.status.toLowerCase()}`,
    EVENT_OBJECT_TYPES.stablecoinConversion,
    resource,
    atMs,
  );
}

/** Adds `amount` to a profile's balance of an asset. */
function give(core: Core, profileId: string, asset: string, amount: string): void {
  const bal = core.store.balance(profileId, asset) ?? '0';
  core.store.setBalance(profileId, asset, fmt(dec(bal).plus(amount)));
}

/**
 * Ends a CREATED conversion: SETTLED credits its target, CANCELLED and FAILED give its source back; its event dated
 * `atMs`. False when it was not CREATED any more (nothing changes).
 */
export function endConversion(
  core: Core,
  row: ConversionRow,
  status: 'SETTLED' | 'CANCELLED' | 'FAILED',
  atMs: number,
) {
  const { store } = core;
  if (!store.endConversion(row.id, status, atMs)) return false;
  const c = JSON.parse(row.body) as StablecoinConversion;
  if (status === 'SETTLED') give(core, c.recipient_profile_id ?? row.profile_id, c.target_asset!, c.amount!);
  else give(core, row.profile_id, c.source_asset!, c.amount!);
  recordConversionEvent(core, store.conversion(row.id)!, atMs);
  return true;
}

/** The conversions whose settle time has passed end SETTLED (FAILED by fault), each at its settle time. */
export function settleConversions(core: Core, nowMs: number): void {
  for (const row of core.store.dueConversions(nowMs))
    endConversion(core, row, row.fails ? 'FAILED' : 'SETTLED', row.settle_ms ?? nowMs);
}
