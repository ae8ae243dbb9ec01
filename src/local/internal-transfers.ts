// Transfers between two profiles of the local service, idempotent by ref_id: internal transfers (two profiles of one
// customer) and transfers to another customer of the service (POST /v2/transfer/paxos: the OpenAPI's "Paxos
// transfer", between profiles of two customers). Each is a pair of transfers sharing a group_id, a debit of the sending
// profile (INTERNAL_TRANSFER_DEBIT, PAXOS_TRANSFER_DEBIT) and a credit of the receiving one (..._CREDIT), made with
// both balance changes in one transaction and COMPLETED at once (nothing settles later: the money never leaves the
// service). The transfer limits on either side's type apply.
import { randomUUID } from './lazy-crypto.js';
import {
  dec,
  fixed,
  fmt,
  problems,
  usdNotional,
  type CreateInternalTransferRequest,
  type CreatePaxosTransferRequest,
  type Decimal,
  type Transfer,
} from '../contract/index.js';
import { usdPrice } from '../market-data/price-model.js';
import type { Core } from './core.js';
import { recordTransferEvent } from './events.js';
import { alreadyExists, debit, settleDue, transferResource } from './ledger.js';
import { checkTransferLimits, recordUsage } from './transfer-limits.js';
import { profileOr404 } from './profiles.js';
import { isoMillis } from './service-clock.js';
import type { ProfileRow, TransferRow } from './store.js';

/** The kinds of transfer between profiles: each side's transfer type is `<kind>_DEBIT` or `<kind>_CREDIT`. */
type PairKind = 'INTERNAL_TRANSFER' | 'PAXOS_TRANSFER';

/** What both sides of one transfer between profiles share. */
interface Pair {
  kind: PairKind;
  groupId: string;
  customerId: string;
  asset: string;
  amount: Decimal;
  now: number;
  notional: string;
}

/** One side of the pair: the sender's debit or the receiver's credit, each with that side's ids and metadata. */
function side(
  pair: Pair,
  direction: 'DEBIT' | 'CREDIT',
  profile: ProfileRow,
  extra: { ref_id?: string; identity_id?: string; account_id?: string; metadata?: Record<string, string> },
): Transfer {
  const at = isoMillis(pair.now);
  return {
    id: randomUUID(),
    customer_id: pair.customerId,
    profile_id: profile.id,
    amount: fmt(pair.amount),
    total: fmt(pair.amount),
    fee: '0',
    asset: pair.asset,
    balance_asset: pair.asset,
    direction,
    type: `${pair.kind}_${direction}`,
    status: 'COMPLETED',
    created_at: at,
    updated_at: at,
    group_id: pair.groupId,
    notional_value: pair.notional,
    ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)),
  };
}

/** Stores one side, COMPLETED at once, and records its event. */
function insert(core: Core, transfer: Transfer, now: number): void {
  const row: Omit<TransferRow, 'seq'> = {
    id: transfer.id,
    ref_id: transfer.ref_id ?? null,
    profile_id: transfer.profile_id,
    identity_id: transfer.identity_id ?? null,
    type: transfer.type,
    status: transfer.status,
    crypto_tx_hash: null,
    group_id: transfer.group_id ?? null,
    balance_asset: transfer.asset,
    total: transfer.total,
    created_ms: now,
    updated_ms: now,
    settle_ms: null,
    fails: 0,
    body: JSON.stringify(transfer),
  };
  core.store.insertTransfer(row);
  recordTransferEvent(core, transferResource({ ...row, seq: 0 }), now);
}

/**
 * POST /v2/transfer/internal after validation: a used ref_id answers 409 with the transfer it made, an unknown
 * profile 404, profiles of two customers 403, too little money 403 insufficient-funds. Answers the debit side.
 */
export function createInternalTransfer(core: Core, body: CreateInternalTransferRequest): Promise<Transfer> {
  return createPair(core, body, 'INTERNAL_TRANSFER');
}

/**
 * POST /v2/transfer/paxos after validation, to a profile of another customer (the recipient's `to_profile_id`): a
 * used ref_id answers 409 with the transfer it made, an unknown profile 404 ("Could not find profile", as the OpenAPI
 * says), two profiles of one customer 403 (that is an internal transfer), too little money 403 insufficient-funds.
 * Answers the debit side.
 */
export function createPaxosTransfer(core: Core, body: CreatePaxosTransferRequest): Promise<Transfer> {
  return createPair(core, body, 'PAXOS_TRANSFER');
}

/** Why two profiles cannot be the two sides of a transfer of this kind, if they cannot. */
function sidesProblem(kind: PairKind, from: ProfileRow, to: ProfileRow): string | undefined {
  const same = from.customer_id === to.customer_id;
  if (kind === 'INTERNAL_TRANSFER' && !same)
    return `profiles ${from.id} and ${to.id} belong to different customers; an internal transfer stays within one customer`;
  if (kind === 'PAXOS_TRANSFER' && same)
    return `profiles ${from.id} and ${to.id} belong to one customer; a transfer to another customer goes to a profile of another customer (between one customer's profiles: an internal transfer)`;
  return undefined;
}

function createPair(core: Core, body: CreateInternalTransferRequest, kind: PairKind): Promise<Transfer> {
  const { store } = core;
  return store.grouped(() => {
    settleDue(core);
    if (body.ref_id !== undefined) {
      const prior = store.transferByRef(body.ref_id);
      if (prior) alreadyExists(transferResource(prior));
    }
    const from = profileOr404(core, body.from_profile_id);
    const to = profileOr404(core, body.to_profile_id);
    const problem = sidesProblem(kind, from, to);
    if (problem) throw problems.forbidden(problem);
    const amount = dec(body.amount);
    const now = core.clock.now();
    const pair: Pair = {
      kind,
      groupId: randomUUID(),
      customerId: from.customer_id,
      asset: body.asset,
      amount,
      now,
      notional: fixed(usdNotional(amount, usdPrice(core.seed, body.asset, now)), 2),
    };
    for (const type of [`${kind}_DEBIT`, `${kind}_CREDIT`])
      checkTransferLimits(core, { type, asset: body.asset, total: amount, usd: dec(pair.notional) });
    debit(core, from.id, body.asset, amount);
    store.setBalance(to.id, body.asset, fmt(dec(store.balance(to.id, body.asset) ?? '0').plus(amount)));
    const sent = side(pair, 'DEBIT', from, {
      ref_id: body.ref_id,
      identity_id: body.from_identity_id,
      account_id: body.from_account_id,
      metadata: body.metadata,
    });
    const received = side({ ...pair, customerId: to.customer_id }, 'CREDIT', to, {
      identity_id: body.to_identity_id,
      account_id: body.to_account_id,
      metadata: body.recipient_metadata,
    });
    for (const t of [sent, received]) {
      insert(core, t, now);
      recordUsage(core, t, now);
    }
    return sent;
  });
}
