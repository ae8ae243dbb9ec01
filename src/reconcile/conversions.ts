// The service's stablecoin conversions (GET /v2/conversion/stablecoins) as a reconciliation reads them: each one a
// movement like a transfer (its source debited, in flight while CREATED, ended by SETTLED, CANCELLED or FAILED), so
// one conversion is matched and classed the way a transfer is, against the `conversion` intents of the audit log.
import type { StablecoinConversion, Transfer } from '../contract/index.js';

/** How a reconciliation reads the service's conversions. */
export interface ConversionSource {
  /** The conversions created in the period (of the scope's profiles), a page at a time. */
  pages(): AsyncIterable<StablecoinConversion[]>;
  /** The conversion with this ref_id, whenever created (the list's ref_id filter: one a request). */
  byRefId(refId: string): Promise<StablecoinConversion | undefined>;
}

/** The type a conversion's line shows (the service gives conversions no transfer type). */
export const CONVERSION_TYPE = 'STABLECOIN_CONVERSION';

/** A transfer and, for a conversion, what its source becomes. */
export type Movement = Transfer & { target_asset?: string };

/** Why a conversion ended without settling, in the words its fields allow (it has no status_details). */
function endedWhy(conversion: StablecoinConversion): Record<string, { message: string }> | undefined {
  const c = conversion;
  const back = `its ${c.amount ?? ''} ${c.source_asset ?? ''} given back`.replace(/ {2,}/g, ' ');
  if (c.status === 'CANCELLED')
    return { cancelled: { message: `cancelled${c.cancelled_at ? ` at ${c.cancelled_at}` : ''}; ${back}` } };
  if (c.status === 'FAILED') return { failed: { message: `the conversion failed; ${back}` } };
  return undefined;
}

/** A conversion as the reconciliation compares it: a debit of its source in its profile, its status as it is. */
export function conversionMovement(conversion: StablecoinConversion): Movement {
  const c = conversion;
  const why = endedWhy(c);
  return {
    id: c.id,
    customer_id: '',
    profile_id: c.profile_id ?? '',
    amount: c.amount ?? '',
    total: c.amount ?? '',
    fee: '0',
    asset: c.source_asset ?? '',
    direction: 'DEBIT',
    type: CONVERSION_TYPE,
    status: c.status,
    created_at: c.created_at ?? '',
    updated_at: c.updated_at ?? c.created_at ?? '',
    ...(c.ref_id ? { ref_id: c.ref_id } : {}),
    ...(c.target_asset ? { target_asset: c.target_asset } : {}),
    ...(why ? { status_details: why } : {}),
  } as Movement;
}

/** Whether a movement is a conversion's. */
export const isConversion = (m: Transfer): boolean => m.type === CONVERSION_TYPE;
