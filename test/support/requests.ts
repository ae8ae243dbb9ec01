// Requests the tests send to a service straight, with no coinop between.
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS } from './addresses.js';

/** POSTs a withdrawal of `amount` BTC from the demo profile to `baseUrl` with the bearer token; the raw response. */
export function postBtcWithdrawal(baseUrl: string, token: string, amount: string, ref: string): Promise<Response> {
  return fetch(`${baseUrl}/v2/transfer/crypto-withdrawals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      profile_id: DEMO.profileId,
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: BTC_ADDRESS,
      amount,
      ref_id: ref,
    }),
  });
}
