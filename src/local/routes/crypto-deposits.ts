// POST /_local/crypto-deposits {address | ref_id, amount, asset?, count?, needs_info?}: money arrives at a deposit address
// (control API: no token, loopback clients only, JSON only). Answers the new PENDING CRYPTO_DEPOSIT transfer; with
// `count`, that many deposits made in one transaction, answered as {items} (a quick way to fill the event feed, for
// benchmarks); with `needs_info: true`, held for its originator (TRAVEL_RULE_INFO_REQUESTED) until updated or rejected.
// POST /v2/transfer/crypto-deposits/{id}/update and /reject answer such a deposit.
import { ASSETS, type CryptoNetwork, operations } from '../../contract/index.js';
import { rejectCryptoDeposit, updateCryptoDeposit } from '../held-transfers.js';
import { serve } from '../route-helpers.js';
import { createCryptoDeposit, depositAssets, depositTarget, type DepositTarget } from '../crypto-deposits.js';
import type { Service } from '../route-helpers.js';
import type { Router } from '../router.js';
import { bad, creditAmount, objectBody, onlyKnown } from './control.js';

const TEXT_MAX = 200;
/** The most deposits one request makes. */
const COUNT_MAX = 10_000;

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
    onlyKnown(body, ['address', 'ref_id', 'amount', 'asset', 'count', 'needs_info']);
    if (body.needs_info !== undefined && typeof body.needs_info !== 'boolean')
      bad('needs_info', 'must be true or false');
    const needsInfo = body.needs_info === true;
    const c = body.count;
    if (c !== undefined && !(Number.isInteger(c) && (c as number) >= 1 && (c as number) <= COUNT_MAX))
      bad('count', `must be a whole number from 1 to ${COUNT_MAX}`);
    const to = depositTarget(svc, target(body));
    const asset = assetOn(to.crypto_network as CryptoNetwork, body.asset);
    const amount = creditAmount(asset, body.amount);
    if (c === undefined) return createCryptoDeposit(svc, to, asset, amount, needsInfo);
    return svc.store.immediate(() => ({
      items: Array.from({ length: c as number }, () => createCryptoDeposit(svc, to, asset, amount, needsInfo)),
    }));
  });

  serve(app, svc, operations.updateCryptoDeposit, async ({ params, body }) =>
    updateCryptoDeposit(svc, params.id, body),
  );
  serve(app, svc, operations.rejectCryptoDeposit, async ({ params, body }) =>
    rejectCryptoDeposit(svc, params.id, body),
  );
}
