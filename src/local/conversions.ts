// Stablecoin conversions of the local service (POST, GET /v2/conversion/stablecoins, GET and DELETE .../{id}): USD to a
// stablecoin of the catalogue or back, one to one. A conversion debits its source at once (403 insufficient-funds, as
// the OpenAPI's example words it), is CREATED until its settle time, then SETTLED (conversion-states.ts); it can be
// cancelled while CREATED. A ref_id used before is a 409 with the existing conversion; above the most one conversion
// may convert is a 400 worded as the OpenAPI's example.
import { randomUUID } from './lazy-crypto.js';
import {
  dec,
  fmt,
  problems,
  type CreateStablecoinConversionRequest,
  type StablecoinConversion,
} from '../contract/index.js';
import type { Core } from './core.js';
import { conversionResource, endConversion, recordConversionEvent } from './conversion-states.js';
import { debit, profileNotFound, requestIds, settleDue } from './ledger.js';
import { isoMillis } from './service-clock.js';
import type { ConversionRow } from './store.js';

/** The 404 of a conversion nobody has, as the OpenAPI's example words it (the local service has one customer). */
const notFound = (id: string) => problems.notFound(`conversion with id ${id} not found`);

/** POST /v2/conversion/stablecoins: the source debited now, CREATED, with its event. */
export function createConversion(core: Core, body: CreateStablecoinConversionRequest): Promise<StablecoinConversion> {
  const { store } = core;
  return store.grouped(() => {
    settleDue(core);
    const prior = body.ref_id === undefined ? undefined : store.conversionByRef(body.ref_id);
    if (prior)
      throw problems.alreadyExists(`conversion already exists with ref_id '${body.ref_id}'`, {
        existing: conversionResource(prior),
      });
    const profile = store.profile(body.profile_id);
    if (!profile) throw profileNotFound(body.profile_id);
    if (body.recipient_profile_id !== undefined && !store.profile(body.recipient_profile_id))
      throw profileNotFound(body.recipient_profile_id);
    const amount = dec(body.amount);
    const most = core.config.conversionMaximum;
    if (amount.gt(most)) throw problems.badRequest(`${fmt(amount)} amount is above the maximum ${most} USD`);
    debit(core, profile.id, body.source_asset, amount);
    const now = core.clock.now();
    const at = isoMillis(now);
    const conversion: StablecoinConversion = {
      id: randomUUID(),
      profile_id: profile.id,
      amount: fmt(amount),
      source_asset: body.source_asset,
      target_asset: body.target_asset,
      status: 'CREATED',
      created_at: at,
      updated_at: at,
      ...requestIds(body),
      ...(body.recipient_profile_id !== undefined ? { recipient_profile_id: body.recipient_profile_id } : {}),
    };
    const row: Omit<ConversionRow, 'seq'> = {
      id: conversion.id,
      ref_id: body.ref_id ?? null,
      profile_id: profile.id,
      status: 'CREATED',
      created_ms: now,
      updated_ms: now,
      settle_ms: now + core.config.conversionSettleSeconds * 1000,
      fails: core.config.faults.failConversions ? 1 : 0,
      body: JSON.stringify(conversion),
    };
    store.insertConversion(row);
    recordConversionEvent(core, { ...row, seq: 0 }, now);
    return conversion;
  });
}

/** GET /v2/conversion/stablecoins/{id}. */
export function getConversion(core: Core, id: string): StablecoinConversion {
  settleDue(core);
  const row = core.store.conversion(id);
  if (!row) throw notFound(id);
  return conversionResource(row);
}

/**
 * DELETE /v2/conversion/stablecoins/{id}: a CREATED conversion is CANCELLED and its source given back; one that has
 * ended already cannot be (400, naming its status).
 */
export function cancelConversion(core: Core, id: string): StablecoinConversion {
  const { store } = core;
  settleDue(core);
  return store.immediate(() => {
    const row = store.conversion(id);
    if (!row) throw notFound(id);
    if (!endConversion(core, row, 'CANCELLED', core.clock.now()))
      throw problems.badRequest(`conversion ${id} cannot be cancelled: it is ${row.status}`);
    return conversionResource(store.conversion(id)!);
  });
}
