// Money in the local service: fee quotes, crypto withdrawals, sandbox deposits, credits and the withdrawal
// lifecycle (internal transfers, in internal-transfers.ts, and fiat withdrawals, in fiat-accounts.ts, use its debit). Every balance change happens inside one
// BEGIN IMMEDIATE transaction, so no balance goes negative whatever runs concurrently, in this process or another
// one on the same database.
import { createHash, randomUUID } from './lazy-crypto.js';
import {
  ASSETS,
  type Decimal,
  dec,
  decimalPlaces,
  EVM_NETWORKS,
  fixed,
  fmt,
  isFailingDestination,
  isValidAddress,
  problems,
  usdNotional,
  type CreateCryptoWithdrawalFeeRequest,
  type CreateCryptoWithdrawalRequest,
  type CryptoNetwork,
  type CryptoWithdrawalFee,
  type InitiateSandboxFiatDepositRequest,
  type Transfer,
} from '../contract/index.js';
import { usdPrice } from '../market-data/price-model.js';
import { isoMillis } from './service-clock.js';
import type { Core } from './core.js';
import { networkFee } from './fees.js';
import { recordTransferEvent } from './events.js';
import { settleConversions } from './conversion-states.js';
import { checkTransferLimits, recordUsage, releaseUsage } from './transfer-limits.js';
import type { TransferRow } from './store.js';
import { holdForTravelRule, isHeldForTravelRule, markRejected, withdrawalTravelRule } from './travel-rule.js';

/** Why a PENDING transfer will fail at its settle time (the `fails` column): on chain, or the travel rule check. */
const FAILS_ON_CHAIN = 1;
const FAILS_TRAVEL_RULE = 2;

/** The Transfer resource of a stored row, with its current status. */
export function transferResource(row: TransferRow): Transfer {
  const t = JSON.parse(row.body) as Transfer;
  t.status = row.status;
  t.updated_at = isoMillis(row.updated_ms);
  if (row.crypto_tx_hash) {
    t.crypto_tx_hash = row.crypto_tx_hash;
    t.crypto_tx_index = '0';
  }
  if (row.status === 'FAILED' && row.fails === FAILS_ON_CHAIN && t.type === 'CRYPTO_WITHDRAWAL') {
    t.status_details = {
      invalid_destination_address: {
        message:
          'the destination address cannot receive this asset (local service: addresses ending in "dead" always fail)',
        destination_address: t.destination_address ?? '',
      },
    };
  }
  return t;
}

/** A transfer's transaction hash on its network, made from its id (0x-prefixed on EVM networks). */
export function txHash(id: string, network: string | undefined): string {
  const h = createHash('sha256').update(`tx:${id}`).digest('hex');
  return network && EVM_NETWORKS.includes(network as CryptoNetwork) ? `0x${h}` : h;
}

/**
 * Applies every lifecycle transition whose time has passed: PENDING withdrawals become COMPLETED (with a
 * transaction hash) or FAILED (refunded) at their settle time, PENDING crypto deposits COMPLETED, their amount
 * credited then, and CREATED stablecoin conversions SETTLED (conversion-states.ts), each with its event (dated at its settle time). Runs before anything reads transfers, balances or
 * events, and before anything records an event (events.ts says why), and on a timer while a service runs
 * (service.ts), so the state follows the clock even while no server ran.
 */
export function settleDue(core: Core): void {
  const { store } = core;
  const next = store.nextSettle();
  // Read again inside the transaction: the clock a writer dates things by is the one under the write lock.
  if (next === undefined || next > core.clock.now()) return;
  store.immediate(() => {
    const now = core.clock.now();
    for (const row of store.dueTransfers(now)) {
      const settledAt = row.settle_ms ?? now;
      // Held for travel rule information past its deadline, or failing the check: rejected (a withdrawal refunded).
      const rejected = row.fails === FAILS_TRAVEL_RULE || isHeldForTravelRule(row);
      if (rejected) markRejected(core, row);
      if (row.type === 'CRYPTO_DEPOSIT' && rejected) {
        store.settleTransfer(row.id, 'FAILED', settledAt, row.crypto_tx_hash);
      } else if (row.type === 'CRYPTO_DEPOSIT') {
        // The deposit is confirmed: the money is the profile's now (its hash was known while it was pending).
        const bal = store.balance(row.profile_id, row.balance_asset) ?? '0';
        store.setBalance(row.profile_id, row.balance_asset, fmt(dec(bal).plus(row.total)));
        store.settleTransfer(row.id, 'COMPLETED', settledAt, row.crypto_tx_hash);
      } else if (row.fails || rejected) {
        const bal = store.balance(row.profile_id, row.balance_asset) ?? '0';
        store.setBalance(row.profile_id, row.balance_asset, fmt(dec(bal).plus(row.total)));
        store.settleTransfer(row.id, 'FAILED', settledAt, null);
        releaseUsage(core, row);
      } else {
        // A fiat withdrawal has no transaction on a chain: no hash.
        const network = (JSON.parse(row.body) as Transfer).crypto_network;
        store.settleTransfer(row.id, 'COMPLETED', settledAt, network ? txHash(row.id, network) : null);
      }
      recordTransferEvent(core, transferResource(store.transfer(row.id)!), settledAt);
    }
    settleConversions(core, now);
  });
}

/**
 * Why the local service refuses a destination: not the network's address format or checksum (contract/addresses.ts).
 */
export const INVALID_ADDRESS_REASON = 'INVALID_ADDRESS';

function checkAddress(network: CryptoNetwork, address: string): void {
  if (!isValidAddress(network, address)) {
    // As the hosted service's example: "unsupported address X: REASON", meta {address, reason}.
    throw problems.unsupportedAddress(`unsupported address ${address}: ${INVALID_ADDRESS_REASON}`, {
      address,
      reason: INVALID_ADDRESS_REASON,
    });
  }
}

function checkLimits(asset: string, network: CryptoNetwork, amount: Decimal): void {
  const info = ASSETS[asset];
  // The texts read as the hosted service's examples.
  if (amount.lt(info.minWithdrawal)) {
    throw problems.belowMinimum(`amount too small for network ${network} minimum amount is ${info.minWithdrawal}`, {
      limit: info.minWithdrawal,
      amount: fmt(amount),
      asset,
    });
  }
  if (amount.gt(info.maxWithdrawal)) {
    throw problems.aboveMaximum(`withdrawal amount ${fmt(amount)} exceeds withdrawal limit for this asset ${asset}`, {
      limit: info.maxWithdrawal,
      amount: fmt(amount),
      asset,
    });
  }
}

/** amount and total from whichever was given and the fee; total must leave a positive amount. */
function amountAndTotal(body: { amount?: string; total?: string }, fee: Decimal): { amount: Decimal; total: Decimal } {
  if (body.amount !== undefined) {
    const amount = dec(body.amount);
    return { amount, total: amount.plus(fee) };
  }
  const total = dec(body.total as string);
  const amount = total.minus(fee);
  if (amount.lte(0))
    throw problems.badRequest(`total: must be greater than the fee of ${fmt(fee)}`, {
      issues: [{ field: 'total', rule: `must be greater than the fee of ${fmt(fee)}` }],
    });
  return { amount, total };
}

/** The named problem for an amount with more decimals than the asset allows (checked before other rules). */
export function precisionProblem(body: { asset?: unknown; amount?: unknown; total?: unknown }) {
  const info = typeof body.asset === 'string' ? ASSETS[body.asset] : undefined;
  if (!info || info.fiat) return undefined;
  for (const field of ['amount', 'total'] as const) {
    const v = body[field];
    if (typeof v === 'string' && decimalPlaces(v) > info.decimals) {
      return problems.exceedPrecision(`max precision allowed for asset ${String(body.asset)} is ${info.decimals}`, {
        asset: body.asset,
        decimals: info.decimals,
        [field]: v,
      });
    }
  }
  return undefined;
}

export function createFeeQuote(
  core: Core,
  body: CreateCryptoWithdrawalFeeRequest,
  clientId: string,
): CryptoWithdrawalFee {
  checkAddress(body.crypto_network, body.destination_address);
  const fee = networkFee(core, body.asset, body.crypto_network);
  const { amount, total } = amountAndTotal(body, fee);
  checkLimits(body.asset, body.crypto_network, amount);
  const now = core.clock.now();
  const id = randomUUID();
  const expiresMs = now + core.config.feeQuoteLifetimeSeconds * 1000;
  core.store.immediate(() =>
    core.store.insertFeeQuote({
      id,
      asset: body.asset,
      crypto_network: body.crypto_network,
      destination_address: body.destination_address,
      amount: fmt(amount),
      total: fmt(total),
      fee: fmt(fee),
      quoted_by: clientId,
      created_ms: now,
      expires_ms: expiresMs,
      used_by: null,
    }),
  );
  return {
    id,
    fee: fmt(fee),
    asset: body.asset,
    amount: fmt(amount),
    total: fmt(total),
    expires_at: isoMillis(expiresMs),
    destination_address: body.destination_address,
    crypto_network: body.crypto_network,
  };
}

export function alreadyExists(existing: Transfer): never {
  throw problems.alreadyExists(`transfer already exists with ref_id '${existing.ref_id}'`, { existing });
}

/** The 404 for a profile id nobody has, as the hosted service words it. */
export function profileNotFound(id: string) {
  return problems.notFound(`profile not found: ${id}`);
}

export function createWithdrawal(core: Core, body: CreateCryptoWithdrawalRequest): Promise<Transfer> {
  const { store } = core;
  checkAddress(body.crypto_network, body.destination_address);
  return store.grouped(() => {
    settleDue(core);
    if (body.ref_id !== undefined) {
      const prior = store.transferByRef(body.ref_id);
      if (prior) alreadyExists(transferResource(prior));
    }
    const profile = store.profile(body.profile_id);
    if (!profile) throw profileNotFound(body.profile_id);
    const now = core.clock.now();
    const id = randomUUID();
    const quote = usableQuote(core, body, now);
    const fee = quote ? dec(quote.fee) : networkFee(core, body.asset, body.crypto_network);
    const { amount, total } = amountAndTotal(body, fee);
    if (quote && amount.gt(quote.amount)) {
      throw problems.badRequest(`amount: ${fmt(amount)} exceeds the quoted amount ${quote.amount} of fee ${quote.id}`, {
        issues: [{ field: 'amount', rule: `must not exceed the quoted amount ${quote.amount}` }],
      });
    }
    checkLimits(body.asset, body.crypto_network, amount);
    // What the limits count is what the transfer will say it was worth: its notional_value, to the cent.
    const notional = usdNotional(total, usdPrice(core.seed, body.asset, now));
    checkTransferLimits(core, { type: 'CRYPTO_WITHDRAWAL', asset: body.asset, total, usd: notional });
    const debitAsset = body.balance_asset ?? body.asset;
    debit(core, profile.id, debitAsset, total);
    if (quote && !store.useFeeQuote(quote.id, id)) {
      throw problems.badRequest(`fee_id: fee ${quote.id} was already used`, {
        issues: [{ field: 'fee_id', rule: 'was already used' }],
      });
    }
    const transfer = withdrawalResource(body, { id, profile, now, amount, fee, total, debitAsset, notional });
    const travelRule = withdrawalTravelRule(core, body);
    const settleMs =
      travelRule === 'held'
        ? holdForTravelRule(core, transfer, 'withdrawal')
        : now + core.config.withdrawalSettleSeconds * 1000;
    const row: Omit<TransferRow, 'seq'> = {
      id,
      ref_id: body.ref_id ?? null,
      profile_id: profile.id,
      identity_id: body.identity_id ?? null,
      type: transfer.type,
      status: 'PENDING',
      crypto_tx_hash: null,
      group_id: null,
      balance_asset: debitAsset,
      total: fmt(total),
      created_ms: now,
      updated_ms: now,
      settle_ms: settleMs,
      fails:
        travelRule === 'rejected'
          ? FAILS_TRAVEL_RULE
          : isFailingDestination(body.destination_address)
            ? FAILS_ON_CHAIN
            : 0,
      body: JSON.stringify(transfer),
    };
    store.insertTransfer(row);
    recordUsage(core, transfer, now);
    recordTransferEvent(core, transferResource({ ...row, seq: 0 }), now);
    return transfer;
  });
}

/** The guaranteed fee a withdrawal names, checked: it exists, has not expired, fits the request, is unused. */
function usableQuote(core: Core, body: CreateCryptoWithdrawalRequest, now: number) {
  if (body.fee_id === undefined) return undefined;
  const quote = core.store.feeQuote(body.fee_id);
  if (!quote) throw problems.notFound(`fee not found with id ${body.fee_id}`);
  if (quote.expires_ms <= now) {
    throw problems.expired(`fee ${quote.id} expired at ${isoMillis(quote.expires_ms)}`, {
      expired_at: isoMillis(quote.expires_ms),
      fee_id: quote.id,
    });
  }
  const mismatch = (['asset', 'crypto_network', 'destination_address'] as const).find((k) => quote[k] !== body[k]);
  if (mismatch) {
    throw problems.badRequest(
      `fee_id: fee ${quote.id} was quoted for ${mismatch} ${quote[mismatch]}, not ${body[mismatch]}`,
      {
        issues: [{ field: 'fee_id', rule: `was quoted for ${mismatch} ${quote[mismatch]}` }],
      },
    );
  }
  if (quote.used_by) {
    throw problems.badRequest(`fee_id: fee ${quote.id} was already used by transfer ${quote.used_by}`, {
      issues: [{ field: 'fee_id', rule: 'was already used (a fee quote is single use)' }],
    });
  }
  return quote;
}

/** Takes `total` off a profile's balance of an asset, or refuses with insufficient funds. */
export function debit(core: Core, profileId: string, asset: string, total: Decimal): void {
  const available = dec(core.store.balance(profileId, asset) ?? '0');
  if (available.lt(total)) {
    throw problems.insufficientFunds(
      `insufficient ${asset} funds in profile ${profileId}: ${fmt(total)} needed, ${fmt(available)} available`,
      { profile_id: profileId, asset, available: fmt(available), needed: fmt(total) },
    );
  }
  core.store.setBalance(profileId, asset, fmt(available.minus(total)));
}

/** The ids and metadata a request gave that its resource repeats: ref_id, identity_id, account_id, metadata. */
export function requestIds(body: {
  ref_id?: string;
  identity_id?: string;
  account_id?: string;
  metadata?: Record<string, string>;
}) {
  return {
    ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
    ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
    ...(body.account_id !== undefined ? { account_id: body.account_id } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  };
}

/** The Transfer resource of a new withdrawal. */
function withdrawalResource(
  body: CreateCryptoWithdrawalRequest,
  withdrawal: {
    id: string;
    profile: { id: string; customer_id: string };
    now: number;
    amount: Decimal;
    fee: Decimal;
    total: Decimal;
    debitAsset: string;
    /** (amount + fee) x the USD price of the asset now. */
    notional: Decimal;
  },
): Transfer {
  return {
    id: withdrawal.id,
    customer_id: withdrawal.profile.customer_id,
    profile_id: withdrawal.profile.id,
    amount: fmt(withdrawal.amount),
    total: fmt(withdrawal.total),
    fee: fmt(withdrawal.fee),
    asset: body.asset,
    balance_asset: withdrawal.debitAsset,
    direction: 'DEBIT',
    type: 'CRYPTO_WITHDRAWAL',
    status: 'PENDING',
    created_at: isoMillis(withdrawal.now),
    updated_at: isoMillis(withdrawal.now),
    ...requestIds(body),
    destination_address: body.destination_address,
    crypto_network: body.crypto_network,
    ...(body.memo !== undefined ? { memo: body.memo } : {}),
    notional_value: fixed(withdrawal.notional, 2),
  };
}

/**
 * Sandbox wire deposit: credits the profile whose fiat deposit instructions hold memo_id and records a COMPLETED
 * WIRE_DEPOSIT.
 */
export function sandboxDeposit(core: Core, body: InitiateSandboxFiatDepositRequest): Transfer {
  const { store } = core;
  return store.immediate(() => {
    settleDue(core);
    const instructions = store.depositInstructionsByMemo(body.memo_id);
    const profile = instructions && store.profile(instructions.profile_id);
    if (!profile) throw problems.notFound(`no fiat deposit instructions have memo_id ${body.memo_id}`);
    const now = core.clock.now();
    const amount = dec(body.amount);
    const bal = dec(store.balance(profile.id, body.asset) ?? '0');
    store.setBalance(profile.id, body.asset, fmt(bal.plus(amount)));
    const id = randomUUID();
    const transfer: Transfer = {
      id,
      customer_id: profile.customer_id,
      profile_id: profile.id,
      amount: fmt(amount),
      total: fmt(amount),
      fee: '0',
      asset: body.asset,
      balance_asset: body.asset,
      direction: 'CREDIT',
      type: 'WIRE_DEPOSIT',
      status: 'COMPLETED',
      created_at: isoMillis(now),
      updated_at: isoMillis(now),
      memo: body.memo_id,
      notional_value: fixed(amount, 2),
    };
    const row: Omit<TransferRow, 'seq'> = {
      id,
      ref_id: null,
      profile_id: profile.id,
      identity_id: null,
      type: 'WIRE_DEPOSIT',
      status: 'COMPLETED',
      crypto_tx_hash: null,
      group_id: null,
      balance_asset: body.asset,
      total: fmt(amount),
      created_ms: now,
      updated_ms: now,
      settle_ms: null,
      fails: 0,
      body: JSON.stringify(transfer),
    };
    store.insertTransfer(row);
    recordUsage(core, transfer, now);
    recordTransferEvent(core, transferResource({ ...row, seq: 0 }), now);
    return transfer;
  });
}

/** Control API credit: adds to a balance (no transfer is recorded). Returns the new balance. */
export function credit(core: Core, profileId: string, asset: string, amount: string): string {
  const { store } = core;
  return store.immediate(() => {
    if (!store.profile(profileId)) throw profileNotFound(profileId);
    const next = fmt(dec(store.balance(profileId, asset) ?? '0').plus(amount));
    store.setBalance(profileId, asset, next);
    return next;
  });
}
