// Command lines the tests type again and again.
import { ALL_SCOPES } from '../../src/contract/enums.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS, SOL_ADDRESS } from './addresses.js';

const NETWORK = { BTC: 'BITCOIN', ETH: 'ETHEREUM', SOL: 'SOLANA' } as const;
const ADDRESS = { BTC: BTC_ADDRESS, ETH: ETH_ADDRESS, SOL: SOL_ADDRESS } as const;

/** The flags of a transfer of `amount` of BTC, ETH or SOL on its own network, to the tests' address unless one is given. */
export function transferFlags(asset: keyof typeof NETWORK, amount: string, address: string = ADDRESS[asset]): string[] {
  return ['--asset', asset, '--network', NETWORK[asset], '--address', address, '--amount', amount];
}

/** `coinop api POST /v2/transfer/crypto-withdrawals` of `amount` BTC from the demo profile, with its ref_id if given. */
export function apiWithdrawal(amount: string, ref?: string, address = BTC_ADDRESS): string[] {
  return [
    ...['api', 'POST', '/v2/transfer/crypto-withdrawals', '-f', `profile_id=${DEMO.profileId}`],
    ...['-f', 'asset=BTC', '-f', 'crypto_network=BITCOIN', '-f', `destination_address=${address}`],
    ...['-f', `amount=${amount}`],
    ...(ref === undefined ? [] : ['-f', `ref_id=${ref}`]),
  ];
}

/** `coinop transfer internal` of `amount` from the demo profile to its empty one, with any further flags. */
export function internalTransfer(asset: string, amount: string, ...more: string[]): string[] {
  return [
    ...['transfer', 'internal', '--to-profile-id', DEMO.emptyProfileId],
    '--asset',
    asset,
    '--amount',
    amount,
    ...more,
  ];
}

/** A list's first page of five, oldest first. */
export const FIVE_OLDEST = ['--limit', '5', '--order', 'ASC', '--order-by', 'CREATED_AT'];

/** `coinop login` of a production context named prod, every scope, its endpoints all at `url` (https). */
export function productionLogin(url: string, ...more: string[]): string[] {
  return [
    ...['login', '--env', 'production', '--client-id', DEMO.adminClientId, '--name', 'prod'],
    ...['--scopes', ALL_SCOPES.join(','), '--base-url', url, '--auth-url', url],
    ...['--ws-url', `${url.replace('https', 'wss')}/ws`, ...more],
  ];
}

/** coinop fiat-accounts create of a wire account, every value given (add -o json to read the account made). */
export const FIAT_ACCOUNT_CREATE = [
  ...['fiat-accounts', 'create', '--network', 'WIRE', '--owner-name', 'Acme Inc', '--account-number', '12345678'],
  ...['--routing-number', '021000021', '--bank-name', 'Customers Bank'],
];

/** `-f key=value` for each field: a body for coinop api. */
export const apiFields = (body: Record<string, string>): string[] =>
  Object.entries(body).flatMap(([k, v]) => ['-f', `${k}=${v}`]);
