// Address verifications of the local service: proving that an address is the customer's own by signing a message the
// service gives (the SIGNATURE method; ownership-proof.ts says how on each network). A verification is PENDING until a
// signature that proves the address is submitted (APPROVED), or until verificationLifetimeSeconds pass (EXPIRED).
// SMALL_DEPOSIT and MANUAL are the hosted service's staff's and deposits' to decide; the local service answers them
// with a problem. Verifications are the customer's, not a profile's (the OpenAPI gives them no profile).
import {
  type AddressVerification,
  addressReason,
  type CreateVerificationRequest,
  problems,
  type SubmitSignatureRequest,
} from '../contract/index.js';
import { proofMessage, SIGNATURE_NETWORKS, signatureScheme } from '../contract/ownership-networks.js';
import type { Core } from './core.js';
import { randomBytes, randomUUID } from './lazy-crypto.js';
import { isoMillis } from './service-clock.js';
import type { VerificationRow } from './store.js';

/** Who asks for the signature, as the message names it. */
const ISSUER = 'The coinop local service';

const bad = (field: string, rule: string): never => {
  throw problems.badRequest(`${field}: ${rule}`, { issues: [{ field, rule }] });
};

/** The publicVerification resource of a row. */
export function verificationResource(row: VerificationRow): AddressVerification {
  return {
    id: row.id,
    network: row.network,
    address: row.address,
    verification_method: row.method as AddressVerification['verification_method'],
    status: row.status as AddressVerification['status'],
    signature_verification: {
      message: row.message,
      nonce: row.nonce,
      ...(row.signature !== null ? { signature: row.signature } : {}),
    },
    created_at: isoMillis(row.created_ms),
    updated_at: isoMillis(row.updated_ms),
    expires_at: isoMillis(row.expires_ms),
    ...(row.ref_id !== null ? { ref_id: row.ref_id } : {}),
  };
}

/** POST /v2/addresses/verifications: a PENDING verification with the message to sign (a ref_id used before: 409). */
export function createVerification(core: Core, body: CreateVerificationRequest): AddressVerification {
  if (body.verification_method !== 'SIGNATURE')
    bad(
      'verification_method',
      body.verification_method === 'MANUAL'
        ? 'MANUAL verifications are made by the service staff, not through the API'
        : 'the local service verifies addresses by SIGNATURE only (SMALL_DEPOSIT is not simulated)',
    );
  if (!signatureScheme(body.network))
    bad(
      'network',
      `no signature proves an address on ${body.network}; it must be one of ${SIGNATURE_NETWORKS.join(', ')}`,
    );
  const reason = addressReason(body.network, body.address);
  if (reason) bad('address', reason);
  const { store } = core;
  return store.immediate(() => {
    const now = core.clock.now();
    if (body.ref_id !== undefined) {
      const prior = store.verificationByRef(body.ref_id);
      if (prior)
        throw problems.alreadyExists(`address verification already exists with ref_id '${body.ref_id}'`, {
          existing: verificationResource(prior),
        });
    }
    const nonce = randomBytes(16).toString('hex');
    const row: Omit<VerificationRow, 'seq'> = {
      id: randomUUID(),
      ref_id: body.ref_id ?? null,
      network: body.network,
      address: body.address,
      method: body.verification_method,
      status: 'PENDING',
      nonce,
      message: proofMessage({
        issuer: ISSUER,
        network: body.network,
        address: body.address,
        nonce,
        issuedAt: isoMillis(now),
      }),
      signature: null,
      created_ms: now,
      updated_ms: now,
      expires_ms: now + core.config.verificationLifetimeSeconds * 1000,
    };
    store.insertVerification(row);
    return verificationResource({ ...row, seq: 0 });
  });
}

/** The verification by its id, its expiry applied first; a 404 when there is none. */
function found(core: Core, id: string): VerificationRow {
  core.store.expireVerifications(core.clock.now());
  const row = core.store.verification(id);
  if (!row) throw problems.notFound(`no address verification found for id: ${id}`);
  return row;
}

/** GET /v2/addresses/verifications/{id}. */
export function getVerification(core: Core, id: string): AddressVerification {
  return core.store.immediate(() => verificationResource(found(core, id)));
}

/**
 * POST /v2/addresses/verifications/signature: the signature of the verification's message; one that proves the
 * address APPROVES it. A wrong signature is a 400 naming why and leaves it PENDING; an APPROVED or EXPIRED one takes
 * no signature (409, 400).
 */
export async function submitSignature(core: Core, body: SubmitSignatureRequest): Promise<AddressVerification> {
  // The curves load with the first signature checked, not with the service.
  const { signatureProblem } = await import('../contract/ownership-proof.js');
  return core.store.immediate(() => {
    const row = found(core, body.id);
    if (row.status === 'APPROVED')
      throw problems.alreadyExists(`address verification ${row.id} is APPROVED already`, {
        existing: verificationResource(row),
      });
    if (row.status === 'EXPIRED') bad('id', `the verification expired at ${isoMillis(row.expires_ms)}; create another`);
    const problem = signatureProblem(row.network, row.address, row.message, body.signature);
    if (problem) bad('signature', problem);
    const now = core.clock.now();
    core.store.approveVerification(row.id, body.signature, now);
    return verificationResource({ ...row, status: 'APPROVED', signature: body.signature, updated_ms: now });
  });
}

/** The rows expired as due, for a list. */
export function expireDue(core: Core): void {
  core.store.immediate(() => core.store.expireVerifications(core.clock.now()));
}
