// coinop transfer internal and transfer paxos: the raw flags, checked once into the options the run works with (the two
// take the same flags). Every check that needs no answer from anybody is here; values left out are asked for on a
// terminal by the run (and checked there).
import { usageError } from '../../cli/errors.js';
import { amountFlag, keyValues, nameFlag, type RawFlags, waitTimeoutFlag } from '../../cli/options.js';
import type { FlagNames } from '../../client/service-client.js';
import { INTERNAL_TRANSFER_FLAG_TABLE } from './flags.js';

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
export const INTERNAL_TRANSFER_FLAGS: FlagNames = { ...INTERNAL_TRANSFER_FLAG_TABLE.fields, '': 'body' };

export function parseInternalTransferOptions(raw: RawFlags): InternalTransferOptions {
  const f = INTERNAL_TRANSFER_FLAG_TABLE.read(raw);
  const { fromProfileId, toProfileId } = f;
  if (fromProfileId !== undefined && fromProfileId === toProfileId)
    throw usageError('--to-profile-id: must not be the profile it is sent from (--from-profile-id)');
  // By its shape: the run checks it against the catalogue once it knows the service (before asking anything).
  const asset = nameFlag('--asset', f.asset);
  return {
    fromProfileId,
    toProfileId,
    asset,
    amount: amountFlag('--amount', f.amount),
    refId: f.refId,
    metadata: keyValues('--meta', f.meta),
    recipientMetadata: keyValues('--recipient-meta', f.recipientMeta),
    dryRun: f.dryRun,
    yes: f.yes,
    wait: f.wait,
    waitTimeout: waitTimeoutFlag(f.waitTimeout, 86_400),
  };
}
