// Fiat deposit instructions of the local service: where to send fiat (its own simulated bank accounts, per network)
// and the memo_id that names the receiving profile. Every memo_id lives here: a sandbox deposit credits the profile
// whose instructions hold its memo_id.
import { randomBytes, randomUUID } from './lazy-crypto.js';
import {
  problems,
  type CreateFiatDepositInstructionsRequest,
  type FiatDepositInstructions,
  type FiatNetwork,
  type FiatRoutingNumberType,
} from '../contract/index.js';
import type { Core } from './core.js';
import { profileNotFound } from './ledger.js';
import { isoMillis } from './service-clock.js';
import type { DepositInstructionsRow, ProfileRow } from './store.js';

const BANK = {
  name: 'Coinop Local Bank',
  address: { country: 'USA', address1: '100 Loopback Avenue', city: 'New York', province: 'NY', zip_code: '10001' },
};
const OWNER_ADDRESS = {
  country: 'USA',
  address1: '1 Local Service Way',
  city: 'New York',
  province: 'NY',
  zip_code: '10001',
};
const ROUTING_NUMBERS: Record<FiatRoutingNumberType, string> = { ABA: '021000089', SWIFT: 'CLBKUS33XXX' };

/** The local service's receiving account on each fiat network: the same for every customer, the memo_id tells them apart. */
function networkInstructions(network: string, routingType: string | null): Record<string, unknown> {
  switch (network as FiatNetwork) {
    case 'DBS_ACT':
      return { dbs_act: { account_number: '0720000001' } };
    case 'CUBIX':
      return { cubix: { account_id: '7f1d0c52-3c1a-4d8e-9b51-2f0a6c4e8d10' } };
    case 'SCB':
      return { scb: { account_number: '0105000001' } };
    case 'RTP':
      return {
        rtp: {
          account_number: '80000000002',
          fiat_account_owner_address: OWNER_ADDRESS,
          routing_details: { routing_number: ROUTING_NUMBERS.ABA, bank_name: BANK.name, bank_address: BANK.address },
        },
      };
    default: {
      const type = (routingType ?? 'ABA') as FiatRoutingNumberType;
      return {
        wire: {
          account_number: '80000000001',
          fiat_account_owner_address: OWNER_ADDRESS,
          routing_details: {
            routing_number_type: type,
            routing_number: ROUTING_NUMBERS[type],
            bank_name: BANK.name,
            bank_address: BANK.address,
          },
        },
      };
    }
  }
}

function depositInstructionsResource(row: DepositInstructionsRow, profile?: ProfileRow): FiatDepositInstructions {
  return {
    id: row.id,
    profile_id: row.profile_id,
    ...(profile ? { customer_id: profile.customer_id } : {}),
    // The OpenAPI always names an identity: the one given, else the customer's own (named by the customer id here).
    identity_id: row.identity_id ?? profile?.customer_id ?? row.profile_id,
    ...(row.account_id !== null ? { account_id: row.account_id } : {}),
    ...(row.ref_id !== null ? { ref_id: row.ref_id } : {}),
    status: row.status,
    memo_id: row.memo_id,
    fiat_network_instructions: networkInstructions(row.fiat_network, row.routing_number_type),
    fiat_account_owner: { institution_details: { name: 'Coinop Local Trust' } },
    ...(row.metadata_json !== null ? { metadata: JSON.parse(row.metadata_json) } : {}),
    created_at: isoMillis(row.created_ms),
  };
}

/** The resource of a stored row, with its profile's customer. */
export function depositInstructionsOf(core: Core, row: DepositInstructionsRow): FiatDepositInstructions {
  return depositInstructionsResource(row, core.store.profile(row.profile_id));
}

const MEMO_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh memo id: 16 letters and digits, like the hosted service's ("9CFXQSCMSPLFHXLZ"). */
function newMemoId(core: Core): string {
  for (;;) {
    const memo = [...randomBytes(16)].map((b) => MEMO_ALPHABET[b % MEMO_ALPHABET.length]).join('');
    if (!core.store.depositInstructionsByMemo(memo)) return memo;
  }
}

/**
 * POST /v2/transfer/fiat-deposit-instructions: instructions with a new memo_id for a profile (a ref_id used before is
 * a 409 with the existing ones). `memoId` is for the demo data and the control API, which name their own.
 */
export function createDepositInstructions(
  core: Core,
  body: CreateFiatDepositInstructionsRequest,
  opts: { memoId?: string } = {},
): FiatDepositInstructions {
  const { store } = core;
  return store.immediate(() => {
    if (body.ref_id !== undefined) {
      const prior = store.depositInstructionsByRef(body.ref_id);
      if (prior) {
        throw problems.alreadyExists(`fiat deposit instructions already exist with ref_id '${body.ref_id}'`, {
          existing: depositInstructionsOf(core, prior),
        });
      }
    }
    if (!store.profile(body.profile_id)) throw profileNotFound(body.profile_id);
    const id = randomUUID();
    store.insertDepositInstructions({
      id,
      ref_id: body.ref_id ?? null,
      profile_id: body.profile_id,
      identity_id: body.identity_id ?? null,
      account_id: body.account_id ?? null,
      fiat_network: body.fiat_network,
      routing_number_type: body.fiat_network === 'WIRE' ? (body.routing_number_type ?? 'ABA') : null,
      memo_id: opts.memoId ?? newMemoId(core),
      status: 'VALID',
      metadata_json: body.metadata !== undefined ? JSON.stringify(body.metadata) : null,
      created_ms: core.clock.now(),
    });
    return depositInstructionsOf(core, store.depositInstructions(id)!);
  });
}
