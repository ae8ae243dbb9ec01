// Money in the local service: fee quotes, crypto withdrawals, sandbox deposits, credits and the withdrawal
// lifecycle. Every balance change happens inside one BEGIN IMMEDIATE transaction, so no balance goes negative
// whatever runs concurrently, in this process or another one on the same database.
import { createHash, randomUUID } from 'node:crypto';
import {
  ASSETS, Decimal, dec, decimalPlaces, fixed, fmt, isFailingDestination, isValidAddress, problems,
  type CreateCryptoWithdrawalFeeRequest, type CreateCryptoWithdrawalRequest, type CryptoNetwork, type CryptoWithdrawalFee,
  type InitiateSandboxFiatDepositRequest, type Transfer,
} from '../api/index.js';
import { usdPrice } from '../market/price-model.js';
import { iso } from './clock.js';
import type { Core } from './core.js';
import type { TransferRow } from './store.js';

const EVM_NETWORKS = new Set(['ETHEREUM', 'POLYGON_POS', 'BASE', 'ARBITRUM_ONE', 'INK', 'XLAYER']);

/** The Transfer resource of a stored row, with its current status. */
export function transferResource(row: TransferRow): Transfer {
  const t = JSON.parse(row.body) as Transfer;
  t.status = row.status;
  t.updated_at = iso(row.updated_ms);
  if (row.crypto_tx_hash) {
    t.crypto_tx_hash = row.crypto_tx_hash;
    t.crypto_tx_index = '0';
  }
  if (row.status === 'FAILED' && row.fails) {
    t.status_details = {
      invalid_destination_address: {
        message: 'the destination address cannot receive this asset (local service: addresses ending in "dead" always fail)',
        destination_address: t.destination_address ?? '',
      },
    };
  }
  return t;
}

function txHash(id: string, network: string | undefined): string {
  const h = createHash('sha256').update(`tx:${id}`).digest('hex');
  return network && EVM_NETWORKS.has(network) ? `0x${h}` : h;
}

/**
 * Applies every lifecycle transition whose time has passed: PENDING withdrawals become COMPLETED (with a
 * transaction hash) or FAILED (refunded) at their settle time. Runs before anything reads transfers or balances,
 * so the state follows the clock even while no server ran.
 */
export function settleDue(core: Core): void {
  const { store } = core;
  const now = core.clock.now();
  const next = store.nextSettle();
  if (next === undefined || next > now) return;
  store.immediate(() => {
    for (const row of store.dueTransfers(now)) {
      const settledAt = row.settle_ms ?? now;
      if (row.fails) {
        const bal = store.balance(row.profile_id, row.balance_asset) ?? '0';
        store.setBalance(row.profile_id, row.balance_asset, fmt(dec(bal).plus(row.total)));
        store.settleTransfer(row.id, 'FAILED', settledAt, null);
      } else {
        const network = (JSON.parse(row.body) as Transfer).crypto_network;
        store.settleTransfer(row.id, 'COMPLETED', settledAt, txHash(row.id, network));
      }
    }
  });
}

function checkAddress(network: CryptoNetwork, address: string): void {
  if (!isValidAddress(network, address)) {
    throw problems.unsupportedAddress(`destination address ${address} is not a supported ${network} address`, {
      destination_address: address, crypto_network: network,
    });
  }
}

function checkLimits(asset: string, amount: Decimal): void {
  const info = ASSETS[asset];
  if (amount.lt(info.minWithdrawal)) {
    throw problems.belowMinimum(`amount ${fmt(amount)} ${asset} is below the minimum withdrawal of ${info.minWithdrawal}`, {
      limit: info.minWithdrawal, amount: fmt(amount), asset,
    });
  }
  if (amount.gt(info.maxWithdrawal)) {
    throw problems.aboveMaximum(`amount ${fmt(amount)} ${asset} is above the maximum withdrawal of ${info.maxWithdrawal}`, {
      limit: info.maxWithdrawal, amount: fmt(amount), asset,
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
  if (amount.lte(0)) throw problems.badRequest(`total: must be greater than the fee of ${fmt(fee)}`, { issues: [{ field: 'total', rule: `must be greater than the fee of ${fmt(fee)}` }] });
  return { amount, total };
}

/** The named problem for an amount with more decimals than the asset allows (checked before other rules). */
export function precisionProblem(body: { asset?: unknown; amount?: unknown; total?: unknown }) {
  const info = typeof body.asset === 'string' ? ASSETS[body.asset] : undefined;
  if (!info || info.fiat) return undefined;
  for (const field of ['amount', 'total'] as const) {
    const v = body[field];
    if (typeof v === 'string' && decimalPlaces(v) > info.decimals) {
      return problems.exceedPrecision(`${field} ${v} has more than the ${info.decimals} decimals ${String(body.asset)} allows`, {
        asset: body.asset, decimals: info.decimals, [field]: v,
      });
    }
  }
  return undefined;
}

export function createFeeQuote(core: Core, body: CreateCryptoWithdrawalFeeRequest, clientId: string): CryptoWithdrawalFee {
  checkAddress(body.crypto_network, body.destination_address);
  const fee = dec(ASSETS[body.asset].networks[body.crypto_network]!.fee);
  const { amount, total } = amountAndTotal(body, fee);
  checkLimits(body.asset, amount);
  const now = core.clock.now();
  const id = randomUUID();
  const expiresMs = now + core.config.feeQuoteLifetimeSeconds * 1000;
  core.store.immediate(() => core.store.insertFeeQuote({
    id, asset: body.asset, crypto_network: body.crypto_network, destination_address: body.destination_address,
    amount: fmt(amount), total: fmt(total), fee: fmt(fee), quoted_by: clientId, created_ms: now, expires_ms: expiresMs, used_by: null,
  }));
  return {
    id, fee: fmt(fee), asset: body.asset, amount: fmt(amount), total: fmt(total), expires_at: iso(expiresMs),
    destination_address: body.destination_address, crypto_network: body.crypto_network,
  };
}

function alreadyExists(existing: Transfer): never {
  throw problems.alreadyExists(`a transfer with ref_id ${existing.ref_id} already exists`, { existing });
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
    if (!profile) throw problems.notFound(`profile not found with id ${body.profile_id}`);
    const now = core.clock.now();
    const id = randomUUID();

    let fee = dec(ASSETS[body.asset].networks[body.crypto_network]!.fee);
    const quote = body.fee_id !== undefined ? store.feeQuote(body.fee_id) : undefined;
    if (body.fee_id !== undefined) {
      if (!quote) throw problems.notFound(`fee not found with id ${body.fee_id}`);
      if (quote.expires_ms <= now) {
        throw problems.expired(`fee ${quote.id} expired at ${iso(quote.expires_ms)}`, { expired_at: iso(quote.expires_ms), fee_id: quote.id });
      }
      const mismatch = (['asset', 'crypto_network', 'destination_address'] as const).find((k) => quote[k] !== body[k]);
      if (mismatch) {
        throw problems.badRequest(`fee_id: fee ${quote.id} was quoted for ${mismatch} ${quote[mismatch]}, not ${body[mismatch]}`, {
          issues: [{ field: 'fee_id', rule: `was quoted for ${mismatch} ${quote[mismatch]}` }],
        });
      }
      if (quote.used_by) {
        throw problems.badRequest(`fee_id: fee ${quote.id} was already used by transfer ${quote.used_by}`, {
          issues: [{ field: 'fee_id', rule: 'was already used (a fee quote is single use)' }],
        });
      }
      fee = dec(quote.fee);
    }
    const { amount, total } = amountAndTotal(body, fee);
    if (quote && amount.gt(quote.amount)) {
      throw problems.badRequest(`amount: ${fmt(amount)} exceeds the quoted amount ${quote.amount} of fee ${quote.id}`, {
        issues: [{ field: 'amount', rule: `must not exceed the quoted amount ${quote.amount}` }],
      });
    }
    checkLimits(body.asset, amount);

    const debitAsset = body.balance_asset ?? body.asset;
    const available = dec(store.balance(profile.id, debitAsset) ?? '0');
    if (available.lt(total)) {
      throw problems.insufficientFunds(`insufficient funds: profile ${profile.id} has ${fmt(available)} ${debitAsset}, needs ${fmt(total)}`, {
        profile_id: profile.id, asset: debitAsset, available: fmt(available), needed: fmt(total),
      });
    }
    store.setBalance(profile.id, debitAsset, fmt(available.minus(total)));
    if (quote && !store.useFeeQuote(quote.id, id)) {
      throw problems.badRequest(`fee_id: fee ${quote.id} was already used`, { issues: [{ field: 'fee_id', rule: 'was already used' }] });
    }

    const transfer: Transfer = {
      id,
      customer_id: profile.customer_id,
      profile_id: profile.id,
      amount: fmt(amount),
      total: fmt(total),
      fee: fmt(fee),
      asset: body.asset,
      balance_asset: debitAsset,
      direction: 'DEBIT',
      type: 'CRYPTO_WITHDRAWAL',
      status: 'PENDING',
      created_at: iso(now),
      updated_at: iso(now),
      ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
      ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
      ...(body.account_id !== undefined ? { account_id: body.account_id } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
      destination_address: body.destination_address,
      crypto_network: body.crypto_network,
      ...(body.memo !== undefined ? { memo: body.memo } : {}),
      notional_value: fixed(total.times(usdPrice(core.seed, body.asset, now)), 2),
    };
    store.insertTransfer({
      id, ref_id: body.ref_id ?? null, profile_id: profile.id, identity_id: body.identity_id ?? null, type: transfer.type,
      status: 'PENDING', crypto_tx_hash: null, group_id: null, balance_asset: debitAsset, total: fmt(total),
      created_ms: now, updated_ms: now, settle_ms: now + core.config.withdrawalSettleSeconds * 1000,
      fails: isFailingDestination(body.destination_address) ? 1 : 0, body: JSON.stringify(transfer),
    });
    return transfer;
  });
}

/** Sandbox wire deposit: credits the profile that owns memo_id and records a COMPLETED WIRE_DEPOSIT. */
export function sandboxDeposit(core: Core, body: InitiateSandboxFiatDepositRequest): Transfer {
  const { store } = core;
  return store.immediate(() => {
    const profile = store.profileByMemo(body.memo_id);
    if (!profile) throw problems.notFound(`no profile has memo_id ${body.memo_id}`);
    const now = core.clock.now();
    const amount = dec(body.amount);
    const bal = dec(store.balance(profile.id, body.asset) ?? '0');
    store.setBalance(profile.id, body.asset, fmt(bal.plus(amount)));
    const id = randomUUID();
    const transfer: Transfer = {
      id, customer_id: profile.customer_id, profile_id: profile.id, amount: fmt(amount), total: fmt(amount), fee: '0',
      asset: body.asset, balance_asset: body.asset, direction: 'CREDIT', type: 'WIRE_DEPOSIT', status: 'COMPLETED',
      created_at: iso(now), updated_at: iso(now), memo: body.memo_id, notional_value: fixed(amount, 2),
    };
    store.insertTransfer({
      id, ref_id: null, profile_id: profile.id, identity_id: null, type: 'WIRE_DEPOSIT', status: 'COMPLETED', crypto_tx_hash: null,
      group_id: null, balance_asset: body.asset, total: fmt(amount), created_ms: now, updated_ms: now, settle_ms: null, fails: 0,
      body: JSON.stringify(transfer),
    });
    return transfer;
  });
}

/** Control API credit: adds to a balance (no transfer is recorded). Returns the new balance. */
export function credit(core: Core, profileId: string, asset: string, amount: string): string {
  const { store } = core;
  return store.immediate(() => {
    if (!store.profile(profileId)) throw problems.notFound(`profile not found with id ${profileId}`);
    const next = fmt(dec(store.balance(profileId, asset) ?? '0').plus(amount));
    store.setBalance(profileId, asset, next);
    return next;
  });
}
