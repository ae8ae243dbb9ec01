// The control API's transfers (no token, loopback clients only, JSON only). POST /_local/transfers/{id}/amend {fee?,
// status?: "FAILED", reason?, event?: false} makes the service differ from what a client recorded: the fee a transfer charged
// changes, or it fails after the fact; answers the transfer as GET would now. POST /_local/transfers/seed makes a
// month of completed withdrawals at once (up to 100,000 a request), for benchmarks.
import { decimalPlaces, isAmountString, problems } from '../../contract/index.js';
import { ASSETS } from '../../contract/index.js';
import type { Service } from '../route-helpers.js';
import type { Router } from '../router.js';
import { amendTransfer, seedTransfers, type TransferAmendment, type TransferSeed } from '../transfer-amends.js';
import { randomUUID } from '../lazy-crypto.js';
import { isValidAddress, type CryptoNetwork } from '../../contract/index.js';
import { bad, objectBody, onlyKnown } from './control.js';

function amendment(raw: unknown): TransferAmendment {
  const body = objectBody(raw);
  onlyKnown(body, ['fee', 'status', 'reason', 'event']);
  if (body.event !== undefined && typeof body.event !== 'boolean') bad('event', 'must be true or false');
  if (body.fee === undefined && body.status === undefined) bad('', 'give fee or status');
  if (body.fee !== undefined && !isAmountString(body.fee)) bad('fee', 'must be a decimal string such as 0.0001');
  if (body.status !== undefined && body.status !== 'FAILED') bad('status', 'must be FAILED');
  if (body.reason !== undefined && (typeof body.reason !== 'string' || !body.reason || body.reason.length > 200))
    bad('reason', 'must be a string of 1 to 200 characters');
  return body as TransferAmendment;
}

const SEED_MAX = 100_000;

/** The body of a seed, checked. */
function seedBody(raw: unknown): TransferSeed {
  const body = objectBody(raw);
  const keys = ['count', 'ref_prefix', 'start', 'profile_id', 'asset', 'crypto_network', 'destination_address'];
  onlyKnown(body, [...keys, 'amount', 'fee', 'from', 'to']);
  const b = body as Partial<TransferSeed>;
  if (!Number.isInteger(b.count) || b.count! < 1 || b.count! > SEED_MAX) bad('count', `must be 1 to ${SEED_MAX}`);
  if (!Number.isInteger(b.start ?? 0) || (b.start ?? 0) < 0) bad('start', 'must be a whole number, 0 or more');
  for (const k of ['ref_prefix', 'profile_id', 'destination_address'] as const)
    if (typeof b[k] !== 'string' || !b[k]) bad(k, 'must be a string');
  if (typeof b.asset !== 'string' || !ASSETS[b.asset]) bad('asset', 'must be an asset of the catalogue');
  if (!isValidAddress(b.crypto_network as CryptoNetwork, b.destination_address!))
    bad('destination_address', 'must be an address of crypto_network');
  for (const k of ['amount', 'fee'] as const) if (!isAmountString(b[k])) bad(k, 'must be a decimal string');
  for (const k of ['from', 'to'] as const) if (!Number.isFinite(Date.parse(String(b[k])))) bad(k, 'must be a time');
  if (Date.parse(b.from!) >= Date.parse(b.to!)) bad('from', 'must be before to');
  return { ...(b as TransferSeed), start: b.start ?? 0 };
}

export function registerTransferControl(app: Router, svc: Service): void {
  app.post('/_local/transfers/seed', async (req) => {
    const seed = seedBody(req.body);
    if (!svc.store.profile(seed.profile_id)) throw problems.notFound(`no profile has the id ${seed.profile_id}`);
    return seedTransfers(svc, seed, randomUUID);
  });

  app.post('/_local/transfers/:id/amend', async (req) => {
    const change = amendment(req.body);
    const id = (req.params as { id: string }).id;
    const asset = svc.store.transfer(id) && (JSON.parse(svc.store.transfer(id)!.body) as { asset: string }).asset;
    if (change.fee !== undefined && asset && ASSETS[asset] && decimalPlaces(change.fee) > ASSETS[asset].decimals)
      bad('fee', `has more than the ${ASSETS[asset].decimals} decimals ${asset} allows`);
    const t = amendTransfer(svc, id, change);
    if (t === undefined) throw problems.notFound(`no transfer has the id ${id}`);
    if (t === 'failed') bad('status', 'the transfer is FAILED already: it cannot change');
    return t;
  });
}
