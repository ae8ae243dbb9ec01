// coinop local start and coinop local deposit: their flags (declared in index.ts), checked once. What local deposit
// leaves out is asked for on a terminal by its run; local start's options are the ones runLocalStart takes.
import { ASSETS, CRYPTO_ASSETS, dec } from '../../contract/index.js';
import { amountRule } from '../../cli/ask.js';
import { usageError } from '../../cli/errors.js';
import { amountFlag, intFlag, nameFlag, type RawFlags } from '../../cli/options.js';
import { LOCAL_DEPOSIT_FLAG_TABLE, LOCAL_START_FLAG_TABLE } from './flags.js';
import type { LocalStartOptions } from '../../local/cli.js';

export function parseLocalStartOptions(raw: RawFlags): LocalStartOptions {
  const f = LOCAL_START_FLAG_TABLE.read(raw);
  return {
    port: intFlag('--port', f.port, 0, 65535),
    host: f.host,
    db: f.db,
    memory: f.memory,
    seed: intFlag('--seed', f.seed, 0, 2 ** 31 - 1),
    // --no-rate-limits: true unless given.
    rateLimits: f.rateLimits,
  };
}

export interface LocalDepositOptions {
  /** The deposit address the money arrives at, or the ref_id it was created with: at most one of the two. */
  address?: string;
  refId?: string;
  /** A positive decimal string (within the asset's decimals when the asset is given). */
  amount?: string;
  /** A crypto asset; left out, the service takes the network's own coin. */
  asset?: string;
  /** Held for its originator's details (the Travel Rule) until updated or rejected. */
  needsInfo?: boolean;
}

export function parseLocalDepositOptions(raw: RawFlags): LocalDepositOptions {
  const f = LOCAL_DEPOSIT_FLAG_TABLE.read(raw);
  const { address, refId } = f;
  if (address !== undefined && refId !== undefined) throw usageError('--address and --ref-id: give one, not both');
  const asset = nameFlag('--asset', f.asset);
  if (asset !== undefined && (!ASSETS[asset] || ASSETS[asset].fiat))
    throw usageError(`--asset: must be a crypto asset (${CRYPTO_ASSETS.join(', ')})`);
  const amount = amountFlag('--amount', f.amount);
  if (amount !== undefined) {
    if (dec(amount).lte(0)) throw usageError('--amount: must be greater than 0');
    const rule = amountRule(asset)(amount);
    if (rule !== true) throw usageError(`--amount: ${rule}`);
  }
  return { address, refId, amount, asset, ...(f.needsInfo ? { needsInfo: true } : {}) };
}
