// The flags of a crypto withdrawal's fields, shared by the commands that take them (withdraw, fee quote,
// destinations): which flag gives each field of the request, for messages about the request, and the destination
// checked against its network's address format.
import type { AddressCheck } from '../contract/index.js';
import type { FlagNames } from '../client/service-client.js';
import { checkAddress as checkAddressFor } from '../send/withdrawal.js';
import { defineFlags } from './flags.js';
import { WITHDRAWAL_FIELD_SPECS } from './withdrawal-specs.js';

/** The flag that gives each field of the request, for messages about the request (from WITHDRAWAL_FIELD_SPECS). */
export const WITHDRAW_FLAGS: FlagNames = { ...defineFlags(WITHDRAWAL_FIELD_SPECS).fields, '': 'body' };

/**
 * The destination against its network's address format (the contract alone does not know it), and a testnet address
 * only where the environment takes one (`check`: addressCheckFor the context's environment).
 */
export function checkAddress(network: string, address: string, check: AddressCheck): void {
  checkAddressFor(network, address, check, WITHDRAW_FLAGS);
}
