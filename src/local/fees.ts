// Network fees of the local service: each asset and network's fee from the catalogue, unless the control API set
// another (PUT /_local/fees), as the hosted service's fees move with each network's load. Kept in the database, so
// every process sharing it quotes the same fee; a reset or an import puts the catalogue's back.
import {
  ASSETS,
  type CryptoNetwork,
  type Decimal,
  dec,
  decimalPlaces,
  fmt,
  isAmountString,
  problems,
} from '../contract/index.js';
import type { Core } from './core.js';

/** A network fee as the control API shows and takes it. */
export interface NetworkFee {
  asset: string;
  crypto_network: string;
  fee: string;
}

const META_KEY = 'network_fees';
const key = (asset: string, network: string) => `${asset} ${network}`;

function overrides(core: Core): Record<string, string> {
  const raw = core.store.getMeta(META_KEY);
  return raw ? (JSON.parse(raw) as Record<string, string>) : {};
}

/** The fee a withdrawal of the asset on the network pays now. */
export function networkFee(core: Core, asset: string, network: CryptoNetwork): Decimal {
  return dec(overrides(core)[key(asset, network)] ?? ASSETS[asset].networks[network]!.fee);
}

/** The fees set through the control API (every other one is the catalogue's). */
export function setFees(core: Core): NetworkFee[] {
  return Object.entries(overrides(core)).map(([k, fee]) => {
    const [asset, crypto_network] = k.split(' ');
    return { asset, crypto_network, fee };
  });
}

const bad = (field: string, rule: string): never => {
  throw problems.badRequest(`${field}: ${rule}`, { issues: [{ field, rule }] });
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** PUT /_local/fees {fees: [{asset, crypto_network, fee}]}: replaces the fees set (an empty list: the catalogue's). */
export function putFees(core: Core, body: unknown): NetworkFee[] {
  if (!isObject(body) || Object.keys(body).some((k) => k !== 'fees')) bad('', 'the body must be {"fees": [...]}');
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.fees)) bad('fees', 'must be a list of {asset, crypto_network, fee}');
  const set: Record<string, string> = {};
  (b.fees as unknown[]).forEach((fee, index) => {
    const where = `fees[${index}]`;
    if (!isObject(fee)) bad(where, 'must be an object {asset, crypto_network, fee}');
    const e = fee as Record<string, unknown>;
    const unknown = Object.keys(e).find((k) => !['asset', 'crypto_network', 'fee'].includes(k));
    if (unknown !== undefined) bad(`${where}.${unknown}`, 'is not a known field');
    const info = typeof e.asset === 'string' ? ASSETS[e.asset] : undefined;
    if (!info || info.fiat) bad(`${where}.asset`, 'must be a crypto asset of the catalogue');
    const network = e.crypto_network;
    if (typeof network !== 'string' || !info!.networks[network as CryptoNetwork])
      bad(`${where}.crypto_network`, `must be a network of ${String(e.asset)}`);
    if (!isAmountString(e.fee) || decimalPlaces(e.fee) > info!.decimals)
      bad(`${where}.fee`, `must be a decimal string of at most ${info!.decimals} decimals, such as "0.0001"`);
    set[key(e.asset as string, network as string)] = fmt(dec(e.fee as string));
  });
  core.store.immediate(() => core.store.setMeta(META_KEY, JSON.stringify(set)));
  return setFees(core);
}
