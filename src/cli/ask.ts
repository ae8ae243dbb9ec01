// Prompts for the service's values (select lists for enumerations, validated inputs), shared by commands.
import { ADDRESS_RULES, type AddressCheck, addressReason } from '../contract/addresses.js';
import { ASSETS, CRYPTO_ASSETS, networksForAsset } from '../contract/catalogue.js';
import {
  CRYPTO_NETWORKS,
  MARKETS,
  PRICE_INCREMENTS,
  type CryptoNetwork,
  type Market,
  type PriceIncrement,
} from '../contract/enums.js';
import { decimalPlaces, isAmountString, dec } from '../contract/money.js';
import { withdrawalTargetIssues, type CatalogueIssue } from '../contract/validate.js';
import { checkUnlisted, fieldName, type FlagNames } from '../client/service-client.js';
import { sortUnlisted } from '../client/catalogue-policy.js';
import type { Ports } from './ports.js';
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
  value?: string,
  flag = '--network',
): Promise<CryptoNetwork> {
  const options = asset && ASSETS[asset] ? networksForAsset(asset) : [...CRYPTO_NETWORKS];
  if (value === undefined && pr.allowed && options.length === 1) return options[0];
  return need(
    pr,
    flag,
    value as CryptoNetwork | undefined,
    () => pr.select<CryptoNetwork>(`Network${asset ? ` for ${asset}` : ''}`, options),
    asset && ASSETS[asset] ? `${asset} moves on ${options.join(', ')}` : undefined,
  );
}

/**
 * A destination address, checked against its network's format when the catalogue has one (else by the service);
 * `check` says whether a testnet address is taken (addressCheckFor the environment).
 */
export const askAddress = (pr: Prompter, network: string, check: AddressCheck, v?: string, flag = '--address') =>
  need(pr, flag, v, () =>
    pr.text(`Destination address (${network})`, {
      validate: (answer) => {
        const reason = addressReason(network, answer, check);
        if (!reason) return true;
        // A reason that already says whose address it is not ("not a ...", "X is not a ... (it looks like ...)").
        const what = /^not an? |^\S+ is not an? /.test(reason) ? reason : `not a ${network} address: ${reason}`;
        return `${what} (such as ${ADDRESS_RULES[network as CryptoNetwork]?.example})`;
      },
    }),
  );

export function amountRule(asset: string | undefined) {
  return (answer: string): true | string => {
    if (!isAmountString(answer)) return 'a plain decimal such as 0.05';
    if (dec(answer).lte(0)) return 'must be greater than 0';
    const d = asset ? ASSETS[asset]?.decimals : undefined;
    if (d !== undefined && decimalPlaces(answer) > d) return `at most ${d} decimals for ${asset}`;
    return true;
  };
}

/** `choices`: the markets to offer (the catalogue unless the service lists others). */
export const askMarket = (pr: Prompter, v?: string, flag = 'MARKET', choices: readonly string[] = MARKETS) =>
  need(pr, flag, v as Market | undefined, () => pr.select<Market>('Market', [...choices] as Market[]));

export const askIncrement = (pr: Prompter) => pr.select<PriceIncrement>('Increment', [...PRICE_INCREMENTS], 'ONE_HOUR');

/**
 * Values given on the command line, against the catalogue before anything is asked (`issues`). Without a terminal a
 * value it refuses is the usage error (whose rule lists the valid ones); on a terminal it is set aside with a note, and
 * the fields returned are asked for with the picker instead.
 */
export function refusedToAsk(
  ctx: Pick<Ports, 'service' | 'prompter' | 'display'>,
  issues: CatalogueIssue[],
  flags: FlagNames,
): Set<string> {
  if (!ctx.prompter.allowed) {
    checkUnlisted(ctx.service.catalogue(), issues, flags);
    return new Set();
  }
  const refused = sortUnlisted(ctx.service.catalogue(), issues, (f) => fieldName(f, flags));
  for (const i of refused) {
    // The value, unless the rule says it already ("BTX is not a crypto asset ...").
    const value = i.rule.includes(String(i.value)) ? '' : ` ${i.value}`;
    ctx.display.io.err(
      `note: ${fieldName(i.field, flags)}${value}: ${i.rule.replace(/ \(.*\)$/, '')}; pick one instead\n`,
    );
  }
  return new Set(refused.map((i) => i.field));
}

/**
 * The asset and network of a withdrawal or fee quote: each from its flag, else picked on a terminal, where a value the
 * catalogue refuses is picked again (an unknown asset, a network the asset does not move on); piped, it is refused.
 */
export async function askTarget(
  ctx: Pick<Ports, 'service' | 'prompter' | 'display'>,
  given: { asset?: string; network?: string },
  flags: FlagNames,
): Promise<{ asset: string; network: CryptoNetwork }> {
  const refused = refusedToAsk(
    ctx,
    withdrawalTargetIssues({ asset: given.asset, crypto_network: given.network }),
    flags,
  );
  const asset = await askAsset(ctx.prompter, refused.has('asset') ? undefined : given.asset);
  let network = refused.has('crypto_network') ? undefined : given.network;
  // A network kept while the asset was picked anew may not carry the asset picked.
  if (asset !== given.asset && network !== undefined)
    if (refusedToAsk(ctx, withdrawalTargetIssues({ asset, crypto_network: network }), flags).size) network = undefined;
  return { asset, network: await askNetwork(ctx.prompter, asset, network) };
}
