// Transfers held by the Travel Rule (travel-rule.ts decides which): released when the information comes, a withdrawal
// by its destination's beneficiary saved, a deposit by its originator given (UpdateCryptoDeposit), or a deposit
// rejected by the customer (RejectCryptoDeposit). Each change is an event, in the same transaction.
import { problems, type Transfer } from '../contract/index.js';
import type { Core } from './core.js';
import { recordTransferEvent } from './events.js';
import { settleDue, transferResource } from './ledger.js';
import type { DestinationRow, TransferRow } from './store.js';
import { isHeldForTravelRule, secondaryStatus, type BookTravelRule } from './travel-rule.js';

/** Takes the hold off a transfer: no secondary status, settled `settleSeconds` from now; its event. */
function release(core: Core, row: TransferRow, settleSeconds: number, now: number): void {
  const t = JSON.parse(row.body) as Transfer;
  delete t.secondary_status;
  core.store.reviseTransfer(row.id, JSON.stringify(t), now + settleSeconds * 1000, now);
  recordTransferEvent(core, transferResource(core.store.transfer(row.id)!), now);
}

/**
 * A destination's travel rule details were saved (inside putDestination's transaction): when they now give a
 * beneficiary, or no longer say VASP, the withdrawals held for that address are released.
 */
export function releaseHeldWithdrawals(core: Core, destination: DestinationRow): void {
  const meta = destination.travelrule_json ? (JSON.parse(destination.travelrule_json) as BookTravelRule) : {};
  if (meta.custodian_type === 'VASP' && meta.beneficiary === undefined) return;
  const now = core.clock.now();
  for (const row of core.store.heldWithdrawalsTo(destination.crypto_network, destination.address)) {
    if (destination.identity_id !== null && row.identity_id !== destination.identity_id) continue;
    release(core, row, core.config.withdrawalSettleSeconds, now);
  }
}

/** A held deposit, or the 404 (an unknown id, or an identity other than the deposit's) and 409 of the OpenAPI. */
function heldDeposit(core: Core, id: string, identityId: string): TransferRow {
  const row = core.store.transfer(id);
  if (row?.type !== 'CRYPTO_DEPOSIT' || (row.identity_id !== null && row.identity_id !== identityId))
    throw problems.notFound(`no crypto deposit found for id: ${id}`);
  if (row.status !== 'PENDING' || !isHeldForTravelRule(row))
    throw problems.conflict(`crypto deposit ${id} does not need info`);
  return row;
}

/** POST /v2/transfer/crypto-deposits/{id}/update: the originator given, the deposit goes on to be credited. */
export function updateCryptoDeposit(core: Core, id: string, body: { identity_id: string }): Record<string, never> {
  return core.store.immediate(() => {
    settleDue(core);
    const row = heldDeposit(core, id, body.identity_id);
    release(core, row, core.config.cryptoDepositSettleSeconds, core.clock.now());
    return {};
  });
}

/** POST /v2/transfer/crypto-deposits/{id}/reject: the deposit ends FAILED, CUSTOMER_REJECTED, never credited. */
export function rejectCryptoDeposit(core: Core, id: string, body: { identity_id: string }): Record<string, never> {
  return core.store.immediate(() => {
    settleDue(core);
    const row = heldDeposit(core, id, body.identity_id);
    const t = JSON.parse(row.body) as Transfer;
    t.secondary_status = secondaryStatus('CUSTOMER_REJECTED', `rejected by identity ${body.identity_id}`);
    const now = core.clock.now();
    core.store.reviseTransfer(row.id, JSON.stringify(t), null, row.updated_ms);
    core.store.settleTransfer(row.id, 'FAILED', now, row.crypto_tx_hash);
    recordTransferEvent(core, transferResource(core.store.transfer(row.id)!), now);
    return {};
  });
}
