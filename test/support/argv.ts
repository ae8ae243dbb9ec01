// Command lines the tests type again and again.
import { BTC_ADDRESS, ETH_ADDRESS } from './addresses.js';

const NETWORK = { BTC: 'BITCOIN', ETH: 'ETHEREUM' } as const;
const ADDRESS = { BTC: BTC_ADDRESS, ETH: ETH_ADDRESS } as const;

/** The flags of a transfer of `amount` of BTC or ETH on its own network, to the tests' address unless one is given. */
export function transferFlags(asset: 'BTC' | 'ETH', amount: string, address: string = ADDRESS[asset]): string[] {
  return ['--asset', asset, '--network', NETWORK[asset], '--address', address, '--amount', amount];
}
