// Requests the tests send to a service straight, with no coinop between.
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS } from './addresses.js';

const ON_CHAIN = {
  BTC: { crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS },
  ETH: { crypto_network: 'ETHEREUM', destination_address: ETH_ADDRESS },
} as const;

/** POSTs a withdrawal of `amount` BTC from the demo profile to `baseUrl` with the bearer token; the raw response. */
export function postBtcWithdrawal(baseUrl: string, token: string, amount: string, ref: string): Promise<Response> {
  return postWithdrawal(baseUrl, token, 'BTC', amount, ref);
}

/** POSTs a withdrawal of `amount` BTC or ETH (on its own network, to the tests' address) from the demo profile. */
export function postWithdrawal(
  baseUrl: string,
  token: string,
  asset: keyof typeof ON_CHAIN,
  amount: string,
  ref: string,
): Promise<Response> {
  return fetch(`${baseUrl}/v2/transfer/crypto-withdrawals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ profile_id: DEMO.profileId, asset, ...ON_CHAIN[asset], amount, ref_id: ref }),
  });
}

/** A wire fiat account as the service takes it (POST /v2/transfer/fiat-accounts). */
export const FIAT_ACCOUNT = {
  fiat_account_owner: { institution_details: { name: 'Acme Treasury Inc' } },
  fiat_network_instructions: {
    wire: {
      account_number: '12345678',
      fiat_account_owner_address: { country: 'USA', address1: '1 Main Street', city: 'New York', zip_code: '10001' },
      routing_details: {
        routing_number_type: 'ABA',
        routing_number: '021000021',
        bank_name: 'Customers Bank',
        bank_address: { country: 'USA', city: 'New York' },
      },
    },
  },
};

/** POSTs FIAT_ACCOUNT to `baseUrl` with the bearer token: the new account's id. */
/** A PENDING address verification made on the service straight: its id and the message to sign. */
export async function postVerification(
  baseUrl: string,
  token: string,
  network: string,
  address: string,
): Promise<{ id: string; message: string }> {
  const r = await fetch(`${baseUrl}/v2/addresses/verifications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ network, address, verification_method: 'SIGNATURE' }),
  });
  const body = (await r.json()) as { id: string; signature_verification: { message: string } };
  if (r.status !== 200) throw new Error(`verification: ${r.status} ${JSON.stringify(body)}`);
  return { id: body.id, message: body.signature_verification.message };
}

export async function postFiatAccount(baseUrl: string, token: string): Promise<string> {
  const r = await fetch(`${baseUrl}/v2/transfer/fiat-accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(FIAT_ACCOUNT),
  });
  return ((await r.json()) as { id: string }).id;
}

/** The profile of another customer of the service that the tests pay with transfers to another customer. */
export const RECIPIENT_PROFILE = '37867177-f88c-45cc-b9b5-d786e7079609';

/** Makes RECIPIENT_PROFILE on a local service (its control API: a profile of a customer of its own). */
export async function postRecipientProfile(baseUrl: string): Promise<string> {
  const r = await fetch(`${baseUrl}/_local/profiles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: RECIPIENT_PROFILE, customer_id: 'another-customer', nickname: 'payee' }),
  });
  if (r.status !== 200) throw new Error(`the recipient profile was not made: ${r.status} ${await r.text()}`);
  return RECIPIENT_PROFILE;
}
