// GET and POST /v2/profiles, GET /v2/profiles/{profile_id}, and a profile's balances
// (GET /v2/profiles/{profile_id}/balances and .../balances/{asset}).
import type { Router } from '../router.js';
import { LIST_LIMIT_MAX, operations, type Profile } from '../../contract/index.js';
import { createProfile, profileBalance, profileBalances, profileOr404, profileResource } from '../profiles.js';
import { serve, listPage, timeComparison, type Service } from '../route-helpers.js';
import type { ProfileRow } from '../store.js';

export function registerServiceProfiles(app: Router, svc: Service): void {
  serve(app, svc, operations.listProfiles, async ({ query: q }) =>
    listPage<ProfileRow & { seq: number }, Profile>(
      'profiles',
      q,
      {
        inFilters: { id: q.ids },
        prefixFilters: { nickname: q.nickname },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
        // The hosted service's own default for this list: oldest first (and, below, the most it pages).
        defaultOrder: 'ASC',
      },
      (lq) => svc.store.listProfiles(lq),
      profileResource,
      { limit: LIST_LIMIT_MAX },
    ),
  );

  serve(app, svc, operations.createProfile, async ({ body }) => createProfile(svc, body));

  // include_deactivated is accepted and changes nothing: the local service deactivates no profile.
  serve(app, svc, operations.getProfile, async ({ params }) =>
    profileResource(profileOr404(svc, params.profile_id, true)),
  );

  serve(app, svc, operations.listProfileBalances, async ({ params, query }) => ({
    items: profileBalances(svc, params.profile_id, query.assets),
  }));

  serve(app, svc, operations.getProfileBalance, async ({ params }) =>
    profileBalance(svc, params.profile_id, params.asset),
  );
}
