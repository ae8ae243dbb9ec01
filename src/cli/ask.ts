// Prompts for the service's values (select lists for enumerations, validated inputs), shared by commands.
import {
  ADDRESS_RULES,
  type AddressCheck,
  addressReason,
  ASSETS,
  CRYPTO_ASSETS,
  CRYPTO_NETWORKS,
  MARKETS,
  PRICE_INCREMENTS,
  decimalPlaces,
  isAmountString,
  networksForAsset,
  dec,
  type CryptoNetwork,
  type Market,
  type PriceIncrement,
} from '../api/index.js';
import { need, type Prompter } from './prompt.js';

export const askAsset = (pr: Prompter, v?: string, flag = '--asset') =>
  need(pr, flag, v, () =>
    pr.select(
      'Asset',
      CRYPTO_ASSETS.map((a) => ({ value: a, description: `networks: ${networksForAsset(a).join(', ')}` })),
    ),
  );

/** The network: picked by itself when the asset moves on one network only. */
export async function askNetwork(
  pr: Prompter,
  asset: string | undefined,
  v?: string,
  flag = '--network',
): Promise<CryptoNetwork> {
  const options = asset && ASSETS[asset] ? networksForAsset(asset) : [...CRYPTO_NETWORKS];
  if (v === undefined && pr.allowed && options.length === 1) return options[0];
  return need(pr, flag, v as CryptoNetwork | undefined, () =>
    pr.select<CryptoNetwork>(`Network${asset ? ` for ${asset}` : ''}`, options),
  );
}

/**
 * A destination address, checked against its network's format when the catalogue has one (else by the service);
 * `check` says whether a testnet address is taken (addressCheckFor the environment).
 */
export const askAddress = (pr: Prompter, network: string, check: AddressCheck, v?: string, flag = '--address') =>
  need(pr, flag, v, () =>
    pr.text(`Destination address (${network})`, {
      validate: (s) => {
        const reason = addressReason(network, s, check);
        if (!reason) return true;
        const what = reason.startsWith('not a ') ? reason : `not a ${network} address: ${reason}`;
        return `${what} (such as ${ADDRESS_RULES[network as CryptoNetwork]?.example})`;
      },
    }),
  );

export function amountRule(asset: string | undefined) {
  return (s: string): true | string => {
    if (!isAmountString(s)) return 'a plain decimal such as 0.05';
    if (dec(s).lte(0)) return 'must be greater than 0';
    const d = asset ? ASSETS[asset]?.decimals : undefined;
    if (d !== undefined && decimalPlaces(s) > d) return `at most ${d} decimals for ${asset}`;
    return true;
  };
}

/** `choices`: the markets to offer (the catalogue unless the service lists others). */
export const askMarket = (pr: Prompter, v?: string, flag = 'MARKET', choices: readonly string[] = MARKETS) =>
  need(pr, flag, v as Market | undefined, () => pr.select<Market>('Market', [...choices] as Market[]));

export const askIncrement = (pr: Prompter) => pr.select<PriceIncrement>('Increment', [...PRICE_INCREMENTS], 'ONE_HOUR');
