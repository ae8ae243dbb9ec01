// Amendments of stored transfers through the control API (PATCH /_local/transfers/{id}), for tests that need the
// service to differ from what a client recorded (coinop reconcile's): the fee charged changes (the total and the
// balance with it), or the transfer fails after the fact (refunded, with the reason as its status_details). Each is
// one transaction; a failure is an event, as any status change is. And a month of history seeded at once, for benchmarks.
import { dec, fmt, type Transfer } from '../contract/index.js';
import type { Core } from './core.js';
import { recordTransferEvent } from './events.js';
import { isoMillis } from './service-clock.js';
import { settleDue, transferResource } from './ledger.js';
import { releaseUsage } from './transfer-limits.js';

export interface TransferAmendment {
  /** The fee the transfer now says it charged: its total moves with it, and the balance by the difference. */
  fee?: string;
  /** FAILED: it ended so (refunded), with `reason` in its status_details. */
  status?: 'FAILED';
  reason?: string;
  /** false: the change writes no event (a feed that missed it, for the tests of what reads the feed). */
  event?: boolean;
}

/** Applies an amendment; undefined when no transfer has the id. A transfer FAILED already cannot change. */
export function amendTransfer(core: Core, id: string, change: TransferAmendment): Transfer | undefined | 'failed' {
  settleDue(core);
  return core.store.immediate(() => {
    const row = core.store.transfer(id);
    if (!row) return undefined;
    if (row.status === 'FAILED') return 'failed' as const;
    const body = JSON.parse(row.body) as Transfer;
    const now = core.clock.now();
    let total = row.total;
    const balance = () => dec(core.store.balance(row.profile_id, row.balance_asset) ?? '0');
    const debit = body.direction !== 'CREDIT';
    if (change.fee !== undefined) {
      total = fmt(dec(body.amount).plus(change.fee));
      // A debit takes the difference from the balance (or gives it back); a credit's fee is taken from what arrived.
      const diff = dec(total).minus(row.total);
      if (row.status === 'COMPLETED' || debit)
        core.store.setBalance(
          row.profile_id,
          row.balance_asset,
          fmt(debit ? balance().minus(diff) : balance().plus(diff)),
        );
      body.fee = change.fee;
      body.total = total;
    }
    let status = row.status;
    let hash = row.crypto_tx_hash;
    if (change.status === 'FAILED') {
      status = 'FAILED';
      hash = null;
      if (debit) core.store.setBalance(row.profile_id, row.balance_asset, fmt(balance().plus(total)));
      else if (row.status === 'COMPLETED')
        core.store.setBalance(row.profile_id, row.balance_asset, fmt(balance().minus(total)));
      body.status_details = {
        failed_after: { message: change.reason ?? 'failed after it was accepted (local service control API)' },
      };
      releaseUsage(core, row);
    }
    core.store.amendTransfer({
      id,
      status,
      total,
      crypto_tx_hash: hash,
      fails: 0,
      updated_ms: now,
      body: JSON.stringify(body),
    });
    const t = transferResource(core.store.transfer(id)!);
    if (status !== row.status && change.event !== false) recordTransferEvent(core, t, now);
    return t;
  });
}

/** A month of history at once (POST /_local/transfers/seed): completed crypto withdrawals, for benchmarks. */
export interface TransferSeed {
  count: number;
  /** The first ref_id is `<ref_prefix>-<start>`, then one more each. */
  ref_prefix: string;
  start: number;
  profile_id: string;
  asset: string;
  crypto_network: string;
  destination_address: string;
  amount: string;
  fee: string;
  /** Creation times spread evenly over [from, to) (RFC 3339). */
  from: string;
  to: string;
}

/**
 * Inserts `count` COMPLETED withdrawals in one transaction, as history: no balance moves and no event is written (a
 * seeded month is what the transfer list shows, not what happened to the ledger). Answers how many were made.
 */
export function seedTransfers(core: Core, seed: TransferSeed, newId: () => string): { count: number } {
  const from = Date.parse(seed.from);
  const step = (Date.parse(seed.to) - from) / seed.count;
  const profile = core.store.profile(seed.profile_id);
  if (!profile) return { count: 0 };
  const total = fmt(dec(seed.amount).plus(seed.fee));
  core.store.immediate(() => {
    for (let n = 0; n < seed.count; n++) {
      const id = newId();
      const at = Math.floor(from + n * step);
      const body: Transfer = {
        id,
        customer_id: profile.customer_id,
        profile_id: profile.id,
        amount: seed.amount,
        total,
        fee: seed.fee,
        asset: seed.asset,
        balance_asset: seed.asset,
        direction: 'DEBIT',
        type: 'CRYPTO_WITHDRAWAL',
        status: 'COMPLETED',
        created_at: isoMillis(at),
        updated_at: isoMillis(at),
        ref_id: `${seed.ref_prefix}-${seed.start + n}`,
        destination_address: seed.destination_address,
        crypto_network: seed.crypto_network,
      };
      core.store.insertTransfer({
        id,
        ref_id: body.ref_id!,
        profile_id: profile.id,
        identity_id: null,
        type: body.type,
        status: 'COMPLETED',
        crypto_tx_hash: null,
        group_id: null,
        balance_asset: seed.asset,
        total,
        created_ms: at,
        updated_ms: at,
        settle_ms: null,
        fails: 0,
        body: JSON.stringify(body),
      });
    }
  });
  return { count: seed.count };
}
