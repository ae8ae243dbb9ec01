// Simulated incoming crypto deposits (the control API's POST /_local/crypto-deposits): money arriving at a deposit
// address. Each is a CRYPTO_DEPOSIT CREDIT transfer on the address's profile, PENDING while it gathers confirmations
// (cryptoDepositSettleSeconds on the service clock), then COMPLETED with the amount credited, by the same settling
// as withdrawals (settleDue in ledger.ts). Deposits carry no fee: total = amount. Like the hosted service, a deposit
// copies the address's identity, account and metadata; a deposit address converting to USD takes a USD stablecoin
// (USDP, PYUSD) into the USD balance (balance_asset USD). Deposits count against the transfer limits on their type.
// One may arrive needing its originator's details (the Travel Rule): held until updated or rejected (held-transfers.ts).
import { randomUUID } from './lazy-crypto.js';
import {
  ASSETS,
  dec,
  fixed,
  fmt,
  problems,
  usdNotional,
  type CryptoNetwork,
  type DepositAddress,
  type Transfer,
} from '../contract/index.js';
import { usdPrice } from '../market-data/price-model.js';
import { depositAddressResource } from './addresses.js';
import type { Core } from './core.js';
import { recordTransferEvent } from './events.js';
import { settleDue, transferResource, txHash } from './ledger.js';
import { recordUsage } from './transfer-limits.js';
import { holdForTravelRule } from './travel-rule.js';
import { isoMillis } from './service-clock.js';

/** Which deposit address the money arrives at: by its address or by the ref_id it was created with. */
export type DepositTarget = { address: string } | { ref_id: string };

/** The deposit address a target names, or the 404 problem. */
export function depositTarget(core: Core, target: DepositTarget): DepositAddress {
  const row =
    'address' in target
      ? core.store.depositAddressByAddress(target.address)
      : core.store.depositAddressByRef(target.ref_id);
  if (!row) {
    throw 'address' in target
      ? problems.notFound(`no deposit address has address ${target.address}`)
      : problems.notFound(`no deposit address has ref_id ${target.ref_id}`);
  }
  return depositAddressResource(row);
}

/** The crypto assets that can arrive at an address of the network, the network's own coin first. */
export function depositAssets(network: CryptoNetwork): string[] {
  return Object.keys(ASSETS).filter((a) => !ASSETS[a].fiat && ASSETS[a].networks[network]);
}

/**
 * A PENDING deposit of `amount` (checked by the caller against the asset's precision) to a deposit address; with
 * `needsInfo`, held for its originator's details (travel-rule.ts): not credited until updated.
 */
export function createCryptoDeposit(
  core: Core,
  to: DepositAddress,
  asset: string,
  amount: string,
  needsInfo = false,
): Transfer {
  const { store } = core;
  return store.immediate(() => {
    settleDue(core);
    const profile = store.profile(to.profile_id);
    if (!profile) throw problems.notFound(`profile not found with id ${to.profile_id}`);
    const now = core.clock.now();
    const id = randomUUID();
    const converts = to.conversion_target_asset === 'USD' && !!ASSETS[asset].balanceAssets?.includes('USD');
    const balanceAsset = converts ? 'USD' : asset;
    const hash = txHash(id, to.crypto_network);
    const transfer: Transfer = {
      id,
      customer_id: profile.customer_id,
      profile_id: profile.id,
      amount: fmt(dec(amount)),
      total: fmt(dec(amount)),
      fee: '0',
      asset,
      balance_asset: balanceAsset,
      direction: 'CREDIT',
      type: 'CRYPTO_DEPOSIT',
      status: 'PENDING',
      created_at: isoMillis(now),
      updated_at: isoMillis(now),
      ...(to.identity_id !== undefined ? { identity_id: to.identity_id } : {}),
      ...(to.account_id !== undefined ? { account_id: to.account_id } : {}),
      ...(to.metadata !== undefined ? { metadata: to.metadata } : {}),
      destination_address: to.address,
      crypto_network: to.crypto_network,
      notional_value: fixed(usdNotional(dec(amount), usdPrice(core.seed, asset, now)), 2),
    };
    const settleMs = needsInfo
      ? holdForTravelRule(core, transfer, 'deposit')
      : now + core.config.cryptoDepositSettleSeconds * 1000;
    store.insertTransfer({
      id,
      ref_id: null,
      profile_id: profile.id,
      identity_id: to.identity_id ?? null,
      type: 'CRYPTO_DEPOSIT',
      status: 'PENDING',
      crypto_tx_hash: hash,
      group_id: null,
      balance_asset: balanceAsset,
      total: fmt(dec(amount)),
      created_ms: now,
      updated_ms: now,
      settle_ms: settleMs,
      fails: 0,
      body: JSON.stringify(transfer),
    });
    // It counts against limits on CRYPTO_DEPOSIT from now, as a sandbox deposit does; money arriving is never refused.
    recordUsage(core, transfer, now);
    const created = transferResource(store.transfer(id)!);
    recordTransferEvent(core, created, now);
    return created;
  });
}
