// coinop transfer internal: the raw flags, checked once into the options the run works with. Every check that needs
// no answer from anybody is here; values left out are asked for on a terminal by the run (and checked there).
import { usageError } from '../../cli/errors.js';
import { amountFlag, keyValues, nameFlag, type RawFlags, readFlags, waitTimeoutFlag } from '../../cli/options.js';
import type { FlagNames } from '../../client/service-client.js';

export interface InternalTransferOptions {
  fromProfileId?: string;
  toProfileId?: string;
  /** An asset's name (crypto or fiat): the catalogue's, against the local service. */
  asset?: string;
  /** A plain decimal string. */
  amount?: string;
  refId?: string;
  metadata?: Record<string, string>;
  recipientMetadata?: Record<string, string>;
  dryRun: boolean;
  yes: boolean;
  wait: boolean;
  /** Seconds to follow the transfer with --wait. */
  waitTimeout: number;
}

/** The flag that gives each field of the request, for messages about the request. */
export const INTERNAL_TRANSFER_FLAGS: FlagNames = {
  from_profile_id: '--from-profile-id',
  to_profile_id: '--to-profile-id',
  asset: '--asset',
  amount: '--amount',
  ref_id: '--ref-id',
  metadata: '--meta',
  recipient_metadata: '--recipient-meta',
  '': 'body',
};

export function parseInternalTransferOptions(raw: RawFlags): InternalTransferOptions {
  const f = readFlags(raw);
  const fromProfileId = f.text('fromProfileId');
  const toProfileId = f.text('toProfileId');
  if (fromProfileId !== undefined && fromProfileId === toProfileId)
    throw usageError('--to-profile-id: must not be the profile it is sent from (--from-profile-id)');
  // By its shape: the run checks it against the catalogue once it knows the service (before asking anything).
  const asset = nameFlag('--asset', f.text('asset'));
  return {
    fromProfileId,
    toProfileId,
    asset,
    amount: amountFlag('--amount', f.text('amount')),
    refId: f.text('refId'),
    metadata: keyValues('--meta', f.list('meta')),
    recipientMetadata: keyValues('--recipient-meta', f.list('recipientMeta')),
    dryRun: f.on('dryRun'),
    yes: f.on('yes'),
    wait: f.on('wait'),
    waitTimeout: waitTimeoutFlag(f.defaulted('waitTimeout'), 86_400),
  };
}
