// GET and POST /v2/profiles, GET /v2/profiles/{profile_id}, and a profile's balances
// (GET /v2/profiles/{profile_id}/balances and .../balances/{asset}).
import type { Router } from '../router.js';
import { LIST_LIMIT_MAX, operations, type CreateProfileRequest, type Profile } from '../../contract/index.js';
import { createProfile, profileBalance, profileBalances, profileOr404, profileResource } from '../profiles.js';
import { accept, serve, listPage, timeComparison, type Service } from '../route-helpers.js';
import type { ProfileRow } from '../store.js';

export function registerServiceProfiles(app: Router, svc: Service): void {
  serve(app, operations.listProfiles, async (req) => {
    const { query: q } = accept<Record<string, unknown>>(svc, operations.listProfiles, req);
    return listPage<ProfileRow & { seq: number }, Profile>(
      'profiles',
      q,
      {
        inFilters: { id: q.ids as string[] | undefined },
        prefixFilters: { nickname: q.nickname as string | undefined },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
        // The hosted service's own default for this list: oldest first (and, below, the most it pages).
        defaultOrder: 'ASC',
      },
      (lq) => svc.store.listProfiles(lq),
      profileResource,
      { limit: LIST_LIMIT_MAX },
    );
  });

  serve(app, operations.createProfile, async (req) => {
    const { body } = accept<never, CreateProfileRequest>(svc, operations.createProfile, req);
    return createProfile(svc, body);
  });

  // include_deactivated is accepted and changes nothing: the local service deactivates no profile.
  serve(app, operations.getProfile, async (req) => {
    const { params } = accept<never, never, { profile_id: string }>(svc, operations.getProfile, req);
    return profileResource(profileOr404(svc, params.profile_id, true));
  });

  serve(app, operations.listProfileBalances, async (req) => {
    const { params, query } = accept<{ assets?: string[] }, never, { profile_id: string }>(
      svc,
      operations.listProfileBalances,
      req,
    );
    return { items: profileBalances(svc, params.profile_id, query.assets) };
  });

  serve(app, operations.getProfileBalance, async (req) => {
    const { params } = accept<never, never, { profile_id: string; asset: string }>(
      svc,
      operations.getProfileBalance,
      req,
    );
    return profileBalance(svc, params.profile_id, params.asset);
  });
}
