// The upstream as the gateway holds it: a connection of coinop's own to a context (any environment), whose client
// the money desk sends through and whose token the server forwards reads with. Its secret stays in the token manager.
import type { CataloguePolicy } from '../client/catalogue-policy.js';
import type { ServiceClient } from '../client/service-client.js';
import type { TokenManager } from '../client/tokens.js';
import type { ResolvedContext } from '../config/context.js';
import type { GatewayUpstream } from './server.js';

export interface UpstreamConnection {
  context: ResolvedContext;
  client: ServiceClient;
  tokens: Pick<TokenManager, 'token' | 'refresh'>;
  serviceId: string;
}

export function gatewayUpstream(conn: UpstreamConnection, catalogue: CataloguePolicy): GatewayUpstream {
  return {
    client: conn.client,
    context: { name: conn.context.name, environment: conn.context.environment },
    baseUrl: conn.context.baseUrl,
    wsUrl: conn.context.wsUrl,
    serviceId: conn.serviceId,
    catalogue,
    bearer: async (fresh = false) => (fresh ? await conn.tokens.refresh() : await conn.tokens.token()).accessToken,
  };
}
