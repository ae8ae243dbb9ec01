// POST /_local/transfers/{id}/amend {fee?, status?: "FAILED", reason?}: the control API's way to make the service
// differ from what a client recorded (no token, loopback clients only, JSON only): the fee a transfer charged changes,
// or it fails after the fact. Answers the transfer as GET would now.
import { decimalPlaces, isAmountString, problems } from '../../contract/index.js';
import { ASSETS } from '../../contract/index.js';
import type { Service } from '../route-helpers.js';
import type { Router } from '../router.js';
import { amendTransfer, type TransferAmendment } from '../transfer-amends.js';
import { bad, objectBody, onlyKnown } from './control.js';

function amendment(raw: unknown): TransferAmendment {
  const body = objectBody(raw);
  onlyKnown(body, ['fee', 'status', 'reason']);
  if (body.fee === undefined && body.status === undefined) bad('', 'give fee or status');
  if (body.fee !== undefined && !isAmountString(body.fee)) bad('fee', 'must be a decimal string such as 0.0001');
  if (body.status !== undefined && body.status !== 'FAILED') bad('status', 'must be FAILED');
  if (body.reason !== undefined && (typeof body.reason !== 'string' || !body.reason || body.reason.length > 200))
    bad('reason', 'must be a string of 1 to 200 characters');
  return body as TransferAmendment;
}

export function registerTransferAmends(app: Router, svc: Service): void {
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
