// GET /v2/travelrule/vasps and /v2/travelrule/vasps/{id}: the VASP directory (any valid token).
import { operations } from '../../contract/index.js';
import { serve, type Service } from '../route-helpers.js';
import type { Router } from '../router.js';
import { vaspById, vaspsPage } from '../vasps.js';

export function registerVasps(app: Router, svc: Service): void {
  serve(app, svc, operations.listVasps, async ({ query }) => vaspsPage(query));
  serve(app, svc, operations.getVasp, async ({ params }) => vaspById(params.id));
}
