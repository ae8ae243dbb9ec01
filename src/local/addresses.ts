// Deposit addresses of the local service: creation with ref_id replay protection and address generation
// in each network's format (deterministic from the address id).
import { createHash, randomUUID } from 'node:crypto';
import { problems, type CreateDepositAddressRequest, type CryptoNetwork, type DepositAddress } from '../api/index.js';
import { iso } from './clock.js';
import type { Core } from './core.js';
import type { DepositAddressRow } from './store.js';

const EVM: CryptoNetwork[] = ['ETHEREUM', 'POLYGON_POS', 'BASE', 'ARBITRUM_ONE', 'INK', 'XLAYER'];
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function chars(seed: string, alphabet: string, n: number): string {
  let out = '';
  let i = 0;
  while (out.length < n) {
    const bytes = createHash('sha512').update(`${seed}:${i++}`).digest();
    for (const b of bytes) {
      if (out.length >= n) break;
      out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

/** A well-formed address on the network, derived from a seed string (it passes ADDRESS_FORMATS). */
export function generateAddress(network: CryptoNetwork, seed: string): string {
  switch (network) {
    case 'BITCOIN': return `bc1q${chars(seed, BECH32, 38)}`;
    case 'LITECOIN': return `ltc1q${chars(seed, BECH32, 38)}`;
    case 'BITCOIN_CASH': return `bitcoincash:q${chars(seed, BECH32, 41)}`;
    case 'SOLANA': return chars(seed, BASE58, 44);
    case 'STELLAR': return `G${chars(seed, BASE32, 55)}`;
    default: return `0x${createHash('sha256').update(seed).digest('hex').slice(0, 40)}`;
  }
}

export function compatibleNetworks(network: CryptoNetwork): CryptoNetwork[] {
  return EVM.includes(network) ? [network, ...EVM.filter((n) => n !== network)] : [network];
}

export function depositAddressResource(row: DepositAddressRow): DepositAddress {
  return JSON.parse(row.body) as DepositAddress;
}

export function createDepositAddress(core: Core, body: CreateDepositAddressRequest): DepositAddress {
  const { store } = core;
  return store.immediate(() => {
    if (body.ref_id !== undefined) {
      const prior = store.depositAddressByRef(body.ref_id);
      if (prior) {
        throw problems.alreadyExists(`a deposit address with ref_id ${body.ref_id} already exists`, { existing: depositAddressResource(prior) });
      }
    }
    const profile = store.profile(body.profile_id);
    if (!profile) throw problems.notFound(`profile not found with id ${body.profile_id}`);
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
      created_at: iso(now),
      ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
      ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
      ...(body.account_id !== undefined ? { account_id: body.account_id } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
    };
    store.insertDepositAddress({
      id, ref_id: body.ref_id ?? null, profile_id: profile.id, identity_id: body.identity_id ?? null,
      account_id: body.account_id ?? null, crypto_network: body.crypto_network, created_ms: now, body: JSON.stringify(address),
    });
    return address;
  });
}
