// Deposit addresses of the local service: creation with ref_id replay protection and address generation
// in each network's format, checksum included (deterministic from the address id).
import { createHash, randomUUID } from './lazy-crypto.js';
import {
  addressFromBytes,
  EVM_NETWORKS,
  problems,
  type CreateDepositAddressRequest,
  type CryptoNetwork,
  type DepositAddress,
} from '../contract/index.js';
import { recordDepositAddressEvent } from './events.js';
import { profileNotFound, settleDue } from './ledger.js';
import { isoMillis } from './service-clock.js';
import type { Core } from './core.js';
import type { DepositAddressRow } from './store.js';

/** A valid address on the network (checksum and all), derived from a seed string. */
export function generateAddress(network: CryptoNetwork, seed: string): string {
  return addressFromBytes(network, createHash('sha256').update(seed).digest());
}

export function compatibleNetworks(network: CryptoNetwork): CryptoNetwork[] {
  return EVM_NETWORKS.includes(network) ? [network, ...EVM_NETWORKS.filter((n) => n !== network)] : [network];
}

export function depositAddressResource(row: DepositAddressRow): DepositAddress {
  return JSON.parse(row.body) as DepositAddress;
}

export function createDepositAddress(core: Core, body: CreateDepositAddressRequest): DepositAddress {
  const { store } = core;
  return store.immediate(() => {
    settleDue(core);
    if (body.ref_id !== undefined) {
      const prior = store.depositAddressByRef(body.ref_id);
      if (prior) {
        throw problems.alreadyExists(`deposit address already exists with ref_id '${body.ref_id}'`, {
          existing: depositAddressResource(prior),
        });
      }
    }
    const profile = store.profile(body.profile_id);
    if (!profile) throw profileNotFound(body.profile_id);
    const now = core.clock.now();
    const id = randomUUID();
    const address: DepositAddress = {
      id,
      profile_id: profile.id,
      customer_id: profile.customer_id,
      crypto_network: body.crypto_network,
      address: generateAddress(body.crypto_network, id),
      conversion_target_asset: body.conversion_target_asset ?? 'NO_CONVERSION',
      compatible_crypto_networks: compatibleNetworks(body.crypto_network),
      created_at: isoMillis(now),
      ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
      ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
      ...(body.account_id !== undefined ? { account_id: body.account_id } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    };
    store.insertDepositAddress({
      id,
      ref_id: body.ref_id ?? null,
      profile_id: profile.id,
      identity_id: body.identity_id ?? null,
      account_id: body.account_id ?? null,
      crypto_network: body.crypto_network,
      created_ms: now,
      body: JSON.stringify(address),
    });
    recordDepositAddressEvent(core, address, now);
    return address;
  });
}
