// POST /_local/crypto-deposits {address | ref_id, amount, asset?}: money arrives at a deposit address (control API:
// no token, loopback clients only, JSON only). Answers the new PENDING CRYPTO_DEPOSIT transfer.
import { ASSETS, type CryptoNetwork } from '../../api/index.js';
import { createCryptoDeposit, depositAssets, depositTarget, type DepositTarget } from '../crypto-deposits.js';
import type { Service } from '../route-helpers.js';
import type { Router } from '../router.js';
import { bad, creditAmount, objectBody, onlyKnown } from './control.js';

const TEXT_MAX = 200;

/** address or ref_id: exactly one, a string of 1 to 200 characters. */
function target(body: Record<string, unknown>): DepositTarget {
  const given = (['address', 'ref_id'] as const).filter((k) => body[k] !== undefined);
  if (given.length !== 1)
    bad('address', given.length ? 'give address or ref_id, not both' : 'give address or ref_id (of a deposit address)');
  const k = given[0];
  const v = body[k];
  if (typeof v !== 'string' || !v.length || v.length > TEXT_MAX)
    bad(k, `must be a string of 1 to ${TEXT_MAX} characters`);
  return k === 'address' ? { address: v as string } : { ref_id: v as string };
}

/** The asset: given, it must move on the address's network; left out, the network's own coin. */
function assetOn(network: CryptoNetwork, asset: unknown): string {
  const allowed = depositAssets(network);
  if (asset === undefined) return allowed[0];
  if (typeof asset !== 'string' || !ASSETS[asset] || !allowed.includes(asset))
    bad('asset', `must be an asset that arrives on ${network}: ${allowed.join(', ')}`);
  return asset as string;
}

export function registerCryptoDeposits(app: Router, svc: Service): void {
  app.post('/_local/crypto-deposits', async (req) => {
    const body = objectBody(req.body);
    onlyKnown(body, ['address', 'ref_id', 'amount', 'asset']);
    const to = depositTarget(svc, target(body));
    const asset = assetOn(to.crypto_network as CryptoNetwork, body.asset);
    return createCryptoDeposit(svc, to, asset, creditAmount(asset, body.amount));
  });
}
