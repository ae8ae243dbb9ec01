// What a reconciliation reads, for the commands that run one (coinop reconcile, coinop close): the service's transfers
// of a period, and this machine's records of what it meant to pay (its audit log, its batch journals).
import { join } from 'node:path';
import { auditLogPath } from '../audit/log.js';
import type { Transfer } from '../contract/index.js';
import { auditIntents } from '../reconcile/audit-intents.js';
import type { IntentReader } from '../reconcile/intents.js';
import { journalIntents } from '../reconcile/journal-intents.js';
import type { TransferSource } from '../reconcile/reconcile.js';
import type { Connection } from './invocation.js';
import { periodQuery } from './list-flags.js';

/** How many transfers a page of the period asks for (the OpenAPI's most). */
const PAGE = '1000';

/** The period and the service profiles a reconciliation covers (every profile when profileIds is undefined). */
export interface ReconcileScope {
  period: { from: string; to: string };
  profileIds?: string[];
}

/** The service's transfers, as a reconciliation reads them. */
export function transferSource(conn: Connection, scope: ReconcileScope): TransferSource {
  const profiles = scope.profileIds ? { profile_ids: scope.profileIds } : {};
  const items = async (query: Record<string, unknown>): Promise<Transfer[]> =>
    (await conn.client.call('listTransfers', { query: { ...query, limit: '100' } })).data.items ?? [];
  return {
    pages: () =>
      conn.client.pages('listTransfers', {
        query: { ...periodQuery(scope.period), ...profiles, order_by: 'CREATED_AT', order: 'ASC', limit: PAGE },
      }),
    byRefIds: (refIds) => items({ ref_ids: refIds }),
    byGroupIds: (groupIds) => items({ group_ids: groupIds }),
  };
}

/** Where this machine recorded what it meant to pay: one reader each (a new kind of record is one more). */
export function intentReaders(dataDir: string, journals?: string): IntentReader[] {
  return [auditIntents(auditLogPath(dataDir)), journalIntents(journals ?? join(dataDir, 'batches'))];
}
