// GET /v2/events and GET /v2/events/{id}: the event feed, oldest first unless `order` says otherwise (the OpenAPI's
// default), 100 a page at most, filtered by created_at and type. Test events (`is_test=true`) are the hosted
// Dashboard's; the local service makes none, so that filter finds nothing.
import type { Router } from '../router.js';
import { operations, problems } from '../../contract/index.js';
import { eventResource } from '../events.js';
import { settleDue } from '../ledger.js';
import { listPage, serve, timeComparison, type Service } from '../route-helpers.js';

export function registerEvents(app: Router, svc: Service): void {
  serve(app, svc, operations.listEvents, async ({ query: q }) => {
    if (q.is_test) return { events: [] };
    settleDue(svc);
    const page = listPage(
      'events',
      q,
      {
        inFilters: { type: q.type !== undefined ? [q.type] : undefined },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
        defaultOrder: 'ASC',
      },
      (lq) => svc.store.listEvents(lq),
      eventResource,
    );
    return { events: page.items, ...(page.next_page_cursor ? { next_page_cursor: page.next_page_cursor } : {}) };
  });

  serve(app, svc, operations.getEvent, async ({ params, query }) => {
    settleDue(svc);
    const row = query.is_test ? undefined : svc.store.event(params.id);
    if (!row) throw problems.notFound(`event not found with id ${params.id}`);
    return eventResource(row);
  });
}
