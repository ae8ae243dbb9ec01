// Fiat accounts of the local service (where fiat withdrawals go) and the fiat withdrawals to them. An account is
// PENDING while the service "reviews" it (fiatAccountReviewSeconds by the service clock, 0 by default), then APPROVED;
// only an APPROVED account that is not deleted takes withdrawals. A fiat withdrawal debits USD at once (no fee on the
// local service), stays PENDING for withdrawalSettleSeconds and then ends COMPLETED, or FAILED (refunded) when the
// failFiatWithdrawals fault was on as it was made; each change is in the transfers and the event feed (ledger.ts
// settles them with the crypto withdrawals).
import { randomUUID } from './lazy-crypto.js';
import {
  type CreateFiatAccountRequest,
  type CreateFiatWithdrawalRequest,
  dec,
  FIAT_ACCOUNT_NETWORKS,
  FIAT_WITHDRAWAL_TYPES,
  type FiatAccount,
  type FiatAccountNetwork,
  fixed,
  fmt,
  problems,
  type Transfer,
  type UpdateFiatAccountRequest,
} from '../contract/index.js';
import type { Core } from './core.js';
import { alreadyExists, debit, profileNotFound, requestIds, settleDue, transferResource } from './ledger.js';
import { recordTransferEvent } from './events.js';
import { isoMillis } from './service-clock.js';
import type { FiatAccountRow, TransferRow } from './store.js';
import { checkTransferLimits, recordUsage } from './transfer-limits.js';

/** What a fiat account's body holds: what its owner gave. */
interface AccountBody {
  identity_id?: string;
  account_id?: string;
  fiat_account_owner: Record<string, unknown>;
  fiat_network_instructions: Record<string, Record<string, unknown>>;
  metadata?: Record<string, string>;
}

/** The account's status now: PENDING turns APPROVED once its review time has passed by the service clock. */
function statusNow(row: FiatAccountRow, now: number): FiatAccount['status'] {
  if (row.status === 'PENDING' && row.review_ms !== null && row.review_ms <= now) return 'APPROVED';
  return row.status as FiatAccount['status'];
}

/** The network a fiat account's instructions name. */
export function accountNetwork(body: { fiat_network_instructions: object }): FiatAccountNetwork {
  const key = Object.keys(body.fiat_network_instructions)[0];
  return (FIAT_ACCOUNT_NETWORKS as readonly string[]).includes(key) ? (key as FiatAccountNetwork) : 'wire';
}

/**
 * The FiatAccount resource: whole (GET, create, update), or abbreviated as a list shows it (the OpenAPI: no owner
 * name or address details, only the last four digits of the account number).
 */
export function fiatAccountResource(row: FiatAccountRow, now: number, whole = true): FiatAccount {
  const body = JSON.parse(row.body) as AccountBody;
  const instructions = whole ? body.fiat_network_instructions : abbreviated(body.fiat_network_instructions);
  return {
    id: row.id,
    ...(row.ref_id !== null ? { ref_id: row.ref_id } : {}),
    ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
    ...(body.account_id !== undefined ? { account_id: body.account_id } : {}),
    fiat_account_owner: whole ? body.fiat_account_owner : {},
    fiat_network_instructions: instructions,
    status: statusNow(row, now),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    created_at: isoMillis(row.created_ms),
    updated_at: isoMillis(row.updated_ms),
  };
}

/**
 * The instructions as a list shows them: account numbers to their last four, addresses to their country (the one part
 * the OpenAPI's MailingAddress requires, so the abbreviated account stays a valid FiatAccount).
 */
function abbreviated(instructions: AccountBody['fiat_network_instructions']): AccountBody['fiat_network_instructions'] {
  const out: AccountBody['fiat_network_instructions'] = {};
  for (const [network, v] of Object.entries(instructions)) {
    const copy: Record<string, unknown> = {};
    for (const [k, field] of Object.entries(v)) {
      if (k === 'account_number' && typeof field === 'string') copy[k] = `XXXX${field.slice(-4)}`;
      else if (k === 'fiat_account_owner_address') copy[k] = countryOnly(field);
      else if (
        (k === 'routing_details' || k === 'intermediary_routing_details') &&
        field &&
        typeof field === 'object'
      ) {
        const details = field as Record<string, unknown>;
        copy[k] = { ...details, ...(details.bank_address ? { bank_address: countryOnly(details.bank_address) } : {}) };
      } else copy[k] = field;
    }
    out[network] = copy;
  }
  return out;
}

const countryOnly = (address: unknown) => ({ country: (address as { country?: string } | undefined)?.country ?? '' });

const notFound = (id: string) => problems.notFound(`no fiat account found for id: ${id}`);

/** POST /v2/transfer/fiat-accounts: a new account, PENDING for its review (a ref_id used before is a 409). */
export function createFiatAccount(core: Core, body: CreateFiatAccountRequest): FiatAccount {
  const { store } = core;
  return store.immediate(() => {
    const now = core.clock.now();
    if (body.ref_id !== undefined) {
      const prior = store.fiatAccountByRef(body.ref_id);
      if (prior) {
        throw problems.alreadyExists(`fiat account already exists with ref_id '${body.ref_id}'`, {
          existing: fiatAccountResource(prior, now),
        });
      }
    }
    const id = randomUUID();
    const kept: AccountBody = {
      ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
      ...(body.account_id !== undefined ? { account_id: body.account_id } : {}),
      fiat_account_owner: body.fiat_account_owner,
      fiat_network_instructions: body.fiat_network_instructions as AccountBody['fiat_network_instructions'],
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    };
    store.insertFiatAccount({
      id,
      ref_id: body.ref_id ?? null,
      identity_id: body.identity_id ?? null,
      status: 'PENDING',
      review_ms: now + core.config.fiatAccountReviewSeconds * 1000,
      deleted: 0,
      created_ms: now,
      updated_ms: now,
      body: JSON.stringify(kept),
    });
    return fiatAccountResource(store.fiatAccount(id)!, now);
  });
}

/** A live (not deleted) account, or the 404. */
function liveAccount(core: Core, id: string): FiatAccountRow {
  const row = core.store.fiatAccount(id);
  if (!row || row.deleted) throw notFound(id);
  return row;
}

/** GET /v2/transfer/fiat-accounts/{id}: a deleted one only with include_deleted. */
export function getFiatAccount(core: Core, id: string, includeDeleted: boolean): FiatAccount {
  const row = core.store.fiatAccount(id);
  if (!row || (row.deleted && !includeDeleted)) throw notFound(id);
  return fiatAccountResource(row, core.clock.now());
}

/** Copies the non-empty values of `patch` over `base` (the OpenAPI: "Empty strings or null values are ignored"). */
function overlay(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === '' || v === null || v === undefined) continue;
    const held = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && held && typeof held === 'object'
        ? overlay(held as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/**
 * PUT /v2/transfer/fiat-accounts/{id}: the owner's details (a person stays a person, an institution an institution),
 * a wire account's addresses and banks, the metadata; the account goes back to PENDING for its review.
 */
export function updateFiatAccount(core: Core, id: string, patch: UpdateFiatAccountRequest): FiatAccount {
  const { store } = core;
  return store.immediate(() => {
    const row = liveAccount(core, id);
    const body = JSON.parse(row.body) as AccountBody;
    const owner = patch.fiat_account_owner;
    if (owner) {
      const was = body.fiat_account_owner.person_details ? 'person' : 'institution';
      const asked = owner.person_details ? 'person' : owner.institution_details ? 'institution' : was;
      if (asked !== was)
        throw problems.badRequest(`fiat_account_owner cannot be changed from ${was} to ${asked}`, {
          issues: [{ field: 'fiat_account_owner', rule: `cannot be changed from ${was} to ${asked}` }],
        });
    }
    const wire = patch.fiat_network_instructions?.wire;
    if (wire && !body.fiat_network_instructions.wire)
      throw problems.badRequest('fiat_network_instructions.wire: the account is not a wire account', {
        issues: [
          { field: 'fiat_network_instructions.wire', rule: 'only a wire account has wire instructions to update' },
        ],
      });
    const next: AccountBody = {
      ...body,
      fiat_account_owner: owner ? overlay(body.fiat_account_owner, owner) : body.fiat_account_owner,
      fiat_network_instructions: wire
        ? { wire: overlay(body.fiat_network_instructions.wire!, wire) }
        : body.fiat_network_instructions,
      ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
    };
    const now = core.clock.now();
    store.updateFiatAccount({
      id,
      status: 'PENDING',
      review_ms: now + core.config.fiatAccountReviewSeconds * 1000,
      updated_ms: now,
      body: JSON.stringify(next),
    });
    return fiatAccountResource(store.fiatAccount(id)!, now);
  });
}

/** DELETE /v2/transfer/fiat-accounts/{id}: no withdrawal can go to it after. */
export function deleteFiatAccount(core: Core, id: string): Record<string, never> {
  core.store.immediate(() => {
    liveAccount(core, id);
    core.store.deleteFiatAccount(id, core.clock.now());
  });
  return {};
}

/**
 * POST /v2/transfer/fiat-withdrawals: USD from a profile to an APPROVED fiat account, debited at once (amount, or
 * total: the local service charges no fee), within the transfer limits on its type; a ref_id used before is a 409.
 */
export function createFiatWithdrawal(core: Core, body: CreateFiatWithdrawalRequest): Promise<Transfer> {
  const { store } = core;
  return store.grouped(() => {
    settleDue(core);
    const prior = body.ref_id === undefined ? undefined : store.transferByRef(body.ref_id);
    if (prior) alreadyExists(transferResource(prior));
    const now = core.clock.now();
    const account = store.fiatAccount(body.fiat_account_id);
    if (!account || account.deleted) throw problems.notFound('fiat account not found with requested ID');
    const status = statusNow(account, now);
    if (status !== 'APPROVED')
      throw problems.badRequest(`fiat account has invalid status ${status}, must be approved`, {
        issues: [{ field: 'fiat_account_id', rule: `names an account in status ${status}; it must be APPROVED` }],
      });
    const profile = store.profile(body.profile_id);
    if (!profile) throw profileNotFound(body.profile_id);
    const amount = dec((body.amount ?? body.total) as string);
    const type = FIAT_WITHDRAWAL_TYPES[accountNetwork(JSON.parse(account.body) as AccountBody)];
    checkTransferLimits(core, { type, asset: body.asset, total: amount, usd: amount });
    debit(core, profile.id, body.asset, amount);
    const id = randomUUID();
    const at = isoMillis(now);
    // No fee on the local service: amount and total are the same.
    const transfer: Transfer = {
      id,
      type,
      status: 'PENDING',
      direction: 'DEBIT',
      asset: body.asset,
      balance_asset: body.asset,
      amount: fmt(amount),
      fee: '0',
      total: fmt(amount),
      customer_id: profile.customer_id,
      profile_id: profile.id,
      fiat_account_id: account.id,
      created_at: at,
      updated_at: at,
      ...requestIds(body),
      ...(body.memo !== undefined ? { memo: body.memo } : {}),
      notional_value: fixed(amount, 2),
    };
    const row: Omit<TransferRow, 'seq'> = {
      id,
      type,
      status: 'PENDING',
      ref_id: body.ref_id ?? null,
      profile_id: profile.id,
      identity_id: body.identity_id ?? null,
      balance_asset: body.asset,
      total: fmt(amount),
      crypto_tx_hash: null,
      group_id: null,
      created_ms: now,
      updated_ms: now,
      settle_ms: now + core.config.withdrawalSettleSeconds * 1000,
      fails: core.config.faults.failFiatWithdrawals ? 1 : 0,
      body: JSON.stringify(transfer),
    };
    store.insertTransfer(row);
    recordUsage(core, transfer, now);
    recordTransferEvent(core, transferResource({ ...row, seq: 0 }), now);
    return transfer;
  });
}
