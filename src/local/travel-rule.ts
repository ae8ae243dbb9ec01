// The Travel Rule on the local service: the VASP directory (GET /v2/travelrule/vasps, /{id}), withdrawals held for
// their beneficiary, and crypto deposits held for their originator (POST /v2/transfer/crypto-deposits/{id}/update and
// /reject).
//
// Where the OpenAPI is silent, the local service decides (src/local/README.md says it for operators):
// - A withdrawal to an address of the book whose travelrule_metadata says `custodian_type` VASP, with no beneficiary
//   on the address nor on the withdrawal, is held: PENDING with secondary_status TRAVEL_RULE_INFO_REQUESTED. Saving a
//   beneficiary on that address (PutCryptoDestinationAddress) releases every withdrawal held for it: the
//   secondary_status goes and it settles withdrawalSettleSeconds later as any other. Held longer than
//   travelRuleInfoSeconds, it ends FAILED with TRAVEL_RULE_REJECTED and is refunded.
// - A withdrawal to an address whose VASP is the directory's FAILING_VASP fails the travel rule check: it ends FAILED
//   with TRAVEL_RULE_REJECTED at its settle time (refunded), as a destination ending in "dead" fails on chain.
// - A deposit that arrives needing its originator (POST /_local/crypto-deposits with `needs_info`) is PENDING with
//   TRAVEL_RULE_INFO_REQUESTED and is not credited; its update releases it (credited cryptoDepositSettleSeconds later),
//   its rejection ends it FAILED with CUSTOMER_REJECTED (never credited), and unanswered for travelRuleInfoSeconds it
//   ends FAILED with TRAVEL_RULE_REJECTED.
// Each change is an event of the transfer's type and status (the object carries the secondary status).
import {
  canonicalAddress,
  type CryptoNetwork,
  type Transfer,
  type TransferSecondaryStatus,
} from '../contract/index.js';
import type { Core } from './core.js';
import type { DestinationRow, TransferRow } from './store.js';
import { FAILING_VASP } from './vasps.js';

export interface BookTravelRule {
  custodian_type?: string;
  beneficiary?: unknown;
  vasp?: { id?: string };
}

/** The travel rule details of the book's entry for a withdrawal's destination (its identity's, else first party's). */
function destinationTravelRule(
  core: Core,
  network: CryptoNetwork,
  address: string,
  identityId: string | undefined,
): BookTravelRule | undefined {
  const spelled = canonicalAddress(network, address);
  const row: DestinationRow | undefined =
    (identityId !== undefined ? core.store.destinationByKey(network, spelled, identityId) : undefined) ??
    core.store.destinationByKey(network, spelled, null) ??
    (spelled !== address ? core.store.destinationByKey(network, address, identityId ?? null) : undefined);
  return row?.travelrule_json ? (JSON.parse(row.travelrule_json) as BookTravelRule) : undefined;
}

/** What the travel rule makes of a new withdrawal: held for its beneficiary, failing the check, or nothing. */
export function withdrawalTravelRule(
  core: Core,
  body: { crypto_network: CryptoNetwork; destination_address: string; identity_id?: string; beneficiary?: unknown },
): 'held' | 'rejected' | undefined {
  const meta = destinationTravelRule(core, body.crypto_network, body.destination_address, body.identity_id);
  if (meta?.custodian_type !== 'VASP') return undefined;
  if (meta.vasp?.id === FAILING_VASP.id) return 'rejected';
  return meta.beneficiary === undefined && body.beneficiary === undefined ? 'held' : undefined;
}

/** Why a transfer is held, by its direction. */
const INFO_REQUESTED = {
  withdrawal:
    'the destination is custodied by a VASP: give its beneficiary (PutCryptoDestinationAddress travelrule_metadata.beneficiary)',
  deposit:
    'the originator of this deposit is needed: UpdateCryptoDeposit with originator_address_info, or RejectCryptoDeposit',
};

/** The secondary status a transfer is held with, or ends with. */
export function secondaryStatus(name: TransferSecondaryStatus, detail: string): Transfer['secondary_status'] {
  return { name, detail };
}

/**
 * A new transfer held for travel rule information (its resource takes TRAVEL_RULE_INFO_REQUESTED): the time it is
 * rejected at unless the information comes, for the caller to store as its settle time.
 */
export function holdForTravelRule(core: Core, transfer: Transfer, kind: keyof typeof INFO_REQUESTED): number {
  transfer.secondary_status = secondaryStatus('TRAVEL_RULE_INFO_REQUESTED', INFO_REQUESTED[kind]);
  return core.clock.now() + core.config.travelRuleInfoSeconds * 1000;
}

/** Whether a stored transfer is held for travel rule information. */
export function isHeldForTravelRule(row: TransferRow): boolean {
  const t = JSON.parse(row.body) as Transfer;
  return (t.secondary_status as { name?: string } | undefined)?.name === 'TRAVEL_RULE_INFO_REQUESTED';
}

/**
 * A held transfer's deadline passed, or it failed the check (ledger.ts's settling calls this for a FAILED end): its
 * body takes TRAVEL_RULE_REJECTED. Inside the settling transaction.
 */
export function markRejected(core: Core, row: TransferRow): void {
  const t = JSON.parse(row.body) as Transfer;
  t.secondary_status = secondaryStatus('TRAVEL_RULE_REJECTED', 'the transfer failed the travel rule checks');
  core.store.reviseTransfer(row.id, JSON.stringify(t), row.settle_ms, row.updated_ms);
}
