// What a reconciliation reads, for the commands that run one (coinop reconcile, coinop close): the service's transfers
// of a period, its stablecoin conversions and its event feed, and the records of what coinop meant to pay (this
// machine's audit log and batch journals; through a coinop gateway, the gateway's audit chain too).
import { join } from 'node:path';
import { auditLogPath } from '../audit/log.js';
import { gatewayCall } from '../client/gateway-calls.js';
import { probeHealth } from '../client/service-identity.js';
import type { StablecoinConversion, Transfer } from '../contract/index.js';
import { auditIntents } from '../reconcile/audit-intents.js';
import type { ConversionSource } from '../reconcile/conversions.js';
import { gatewayIntents } from '../reconcile/gateway-intents.js';
import type { IntentReader, IntentScope } from '../reconcile/intents.js';
import { journalIntents } from '../reconcile/journal-intents.js';
import { type Reconciliation, reconcile, type TransferSource } from '../reconcile/reconcile.js';
import { usageError } from './errors.js';
import type { Connection } from './invocation.js';
import type { Connector } from './ports.js';
import { periodQuery } from './list-flags.js';

/** How many transfers (or conversions) a page of the period asks for (the OpenAPI's most). */
const PAGE = '1000';
/** How many events a page of the feed asks for (the OpenAPI's most), and lines a page of a gateway's chain. */
const EVENT_PAGE = 100;
const CHAIN_PAGE = 5000;

/** The period and the service profiles a reconciliation covers (every profile when profileIds is undefined). */
export interface ReconcileScope {
  period: { from: string; to: string };
  profileIds?: string[];
}

/** The service's transfers, conversions and events, as a reconciliation reads them. */
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
    conversions: conversionSource(conn, scope),
    events: () =>
      conn.client.pages('listEvents', {
        query: { 'created_at.gte': scope.period.from, order: 'ASC', limit: EVENT_PAGE },
      }),
  };
}

/**
 * The service's conversions of the period: the OpenAPI's list takes one profile_id and an inclusive end
 * (created_at.end), so a page is asked per profile and a conversion made at the period's end is left out here.
 */
function conversionSource(conn: Connection, scope: ReconcileScope): ConversionSource {
  const { from, to } = scope.period;
  const end = Date.parse(to);
  async function* pages(): AsyncGenerator<StablecoinConversion[]> {
    for (const profile of scope.profileIds ?? [undefined]) {
      const query = {
        'created_at.begin': from,
        'created_at.end': to,
        order: 'ASC' as const,
        limit: PAGE,
        ...(profile ? { profile_id: profile } : {}),
      };
      for await (const page of conn.client.pages('listStablecoinConversions', { query }))
        yield page.filter((c) => !c.created_at || Date.parse(c.created_at) < end);
    }
  }
  return {
    pages,
    byRefId: async (refId) =>
      (await conn.client.call('listStablecoinConversions', { query: { ref_id: refId, limit: '1' } })).data.items?.[0],
  };
}

/**
 * Where coinop recorded what it meant to pay: this machine's audit log and batch journals, and with `gateway` (the
 * connection is a coinop gateway's) the gateway's audit chain, a page at a time. A new kind of record is one more.
 */
export function intentReaders(dataDir: string, journals?: string, gateway?: Connection): IntentReader[] {
  const readers = [auditIntents(auditLogPath(dataDir)), journalIntents(journals ?? join(dataDir, 'batches'))];
  if (gateway)
    readers.push(
      gatewayIntents(gateway.context.baseUrl, async (after) => {
        const page = await gatewayCall(gateway.client, 'auditLines', { query: { after, limit: CHAIN_PAGE } });
        return page.lines;
      }),
    );
  return readers;
}

/** How long a gateway's health check may take to answer. */
const GATEWAY_PROBE_MS = 5000;

/**
 * Whether the context's service is a coinop gateway, by the identity of its store (GET /_gateway/health): its
 * `gateway:<instance>` name, which batch journals sent through it carry, or undefined for any other service.
 */
export async function gatewayIdentity(conn: Connection): Promise<string | undefined> {
  if (conn.context.environment !== 'custom') return undefined;
  const probe = await probeHealth(conn.context.baseUrl, GATEWAY_PROBE_MS, '/_gateway/health');
  return probe.kind === 'answered' && probe.status === 200 && probe.instanceId
    ? `gateway:${probe.instanceId}`
    : undefined;
}

/** What a reconciliation is asked for: its period and profiles, the journals' folder, whether a gateway must be read. */
export interface ReconcileRequest extends ReconcileScope {
  journals?: string;
  /** The context must be a coinop gateway (its chain is read whenever it is one). */
  gateway?: boolean;
}

/**
 * One reconciliation over a connection: the gateway's chain is read beside this machine's records when the context is
 * a coinop gateway (and must be, with `gateway`); intents recorded under the gateway's store name count as its own.
 */
export async function runReconciliation(
  service: Pick<Connector, 'dataDir'>,
  conn: Connection,
  request: ReconcileRequest,
): Promise<Reconciliation> {
  const r = request;
  const gateway = await gatewayIdentity(conn);
  if (r.gateway && !gateway)
    throw usageError(`--gateway: the context's service (${conn.context.baseUrl}) is not a coinop gateway`);
  const scope: IntentScope = {
    from: r.period.from,
    to: r.period.to,
    serviceId: conn.serviceId,
    ...(gateway ? { serviceAliases: [gateway] } : {}),
    ...(r.profileIds ? { profileIds: r.profileIds } : {}),
  };
  const readers = intentReaders(service.dataDir(), r.journals, gateway ? conn : undefined);
  return reconcile(transferSource(conn, r), readers, scope);
}
