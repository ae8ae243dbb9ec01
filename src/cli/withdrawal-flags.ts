// The flags of a crypto withdrawal's fields, shared by the commands that take them (withdraw, fee quote,
// destinations): which flag gives each field of the request, for messages about the request, and the destination
// checked against its network's address format.
import type { AddressCheck } from '../contract/index.js';
import type { FlagNames } from '../client/service-client.js';
import { checkAddress as checkAddressFor } from '../send/withdrawal.js';

/** The flag that gives each field of the request, for messages about the request. */
export const WITHDRAW_FLAGS: FlagNames = {
  profile_id: '--profile-id',
  destination_address: '--address',
  asset: '--asset',
  crypto_network: '--network',
  ref_id: '--ref-id',
  identity_id: '--identity-id',
  account_id: '--account-id',
  balance_asset: '--balance-asset',
  metadata: '--meta',
  fee_id: '--fee-id',
  amount: '--amount',
  total: '--total',
  beneficiary: '--beneficiary',
  memo: '--memo',
  '': 'body',
};

/**
 * The destination against its network's address format (the contract alone does not know it), and a testnet address
 * only where the environment takes one (`check`: addressCheckFor the profile's environment).
 */
export function checkAddress(network: string, address: string, check: AddressCheck): void {
  checkAddressFor(network, address, check, WITHDRAW_FLAGS);
}
