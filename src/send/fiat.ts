// What a fiat withdrawal's preflight needs to know of its fiat account: the kind of transfer it makes (a wire
// account's withdrawals are WIRE_WITHDRAWAL...), whose transfer limits it counts against.
import { FIAT_WITHDRAWAL_TYPES, type FiatAccount, type FiatAccountNetwork } from '../contract/index.js';
import type { Reader } from './funds.js';

/** The transfer type of withdrawals to an account, by its network (a wire's when it is not known). */
export function fiatWithdrawalType(account: Pick<FiatAccount, 'fiat_network_instructions'> | undefined) {
  const network = Object.keys(account?.fiat_network_instructions ?? {})[0] as FiatAccountNetwork | undefined;
  return (network && FIAT_WITHDRAWAL_TYPES[network]) || 'WIRE_WITHDRAWAL';
}

/** The account, or why it could not be read (the service still refuses a withdrawal to an account it has not). */
export async function readFiatAccount(conn: Reader, id: string): Promise<{ account?: FiatAccount; error?: string }> {
  try {
    return { account: (await conn.client.call('getFiatAccount', { params: { id } })).data };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
