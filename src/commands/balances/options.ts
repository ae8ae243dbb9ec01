// coinop balances: raw flags and the ASSET arguments checked once into the options the run works with.
import { operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { nameFlag, type RawFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { BALANCES_FLAG_TABLE } from './flags.js';
import { readTableView } from '../../cli/list-flags.js';
import { BALANCE_COLUMNS, PROFILE_BALANCE_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface BalancesOptions {
  /** Upper case, each once, each an asset's name (the catalogue's, against the local service); undefined: every asset. */
  assets?: string[];
  /** The coinop context's service profile when not given (and not allProfiles). */
  profileId?: string;
  allProfiles: boolean;
  /** List assets whose balances are all zero too (named assets are always listed). */
  includeZero: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export const BALANCES_FLAGS: FlagNames = { ...BALANCES_FLAG_TABLE.fields, assets: 'ASSET', asset: 'ASSET' };

export function parseBalancesOptions(args: string[], raw: RawFlags): BalancesOptions {
  const { profileId, allProfiles, includeZero } = BALANCES_FLAG_TABLE.read(raw);
  if (profileId !== undefined && allProfiles) throw usageError('--profile-id and --all-profiles: give one');
  const named = [
    ...new Set(
      args
        .flatMap((a) => a.split(','))
        .filter((a) => a.trim())
        .map((a) => nameFlag('ASSET', a)!),
    ),
  ];
  const assets = named.length ? named : undefined;
  // The contract's own rules for the assets and the profile id ("default" stands in for an id still to come); the
  // assets by their shape, the run checks them against the catalogue once it knows the service.
  checkRequest(
    operations.listProfileBalances,
    { params: { profile_id: profileId ?? 'default' }, query: assets ? { assets } : {} },
    BALANCES_FLAGS,
    SHAPE_ONLY,
  );
  const view = readTableView(raw, allProfiles ? PROFILE_BALANCE_COLUMNS : BALANCE_COLUMNS);
  return { assets, profileId, allProfiles, includeZero, view };
}
