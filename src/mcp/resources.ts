// The resources: read-only context an agent reads before it calls a tool. The coinop context and its environment
// (and what this server lets through), coinop's catalogue of assets, networks and markets, and the context's policy.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ASSETS, CRYPTO_NETWORKS, catalogueMarket, MARKETS } from '../contract/index.js';
import type { ServerDeps, Tool } from './tool.js';

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: `${JSON.stringify(value, null, 2)}\n` }],
});

/** The resource naming the coinop context; OLD_CONTEXT_URI is its old name, still served. */
export const CONTEXT_URI = 'coinop://context';
export const OLD_CONTEXT_URI = 'coinop://profile';

/** The coinop context as a resource: no secret, no token (`profile` is the context's name under its old field name). */
export function contextView(deps: ServerDeps, tools: Tool[]): Record<string, unknown> {
  const p = deps.context;
  return {
    context: p.name,
    profile: p.name,
    environment: p.environment,
    production: p.environment === 'production',
    base_url: p.baseUrl,
    service_profile_id: p.profileId ?? null,
    writes: {
      allow_writes: deps.allowWrites,
      allow_production: deps.allowProduction,
      policy: deps.policy ? 'see coinop://policy' : 'none',
    },
    tools_that_move_money: tools.filter((t) => t.gated).map((t) => t.name),
  };
}

/** coinop's catalogue: the local service's reference data, and what coinop checks names against. */
export function catalogueView(environment: string): Record<string, unknown> {
  return {
    authoritative: environment === 'local',
    about:
      environment === 'local'
        ? 'The local service serves exactly this catalogue: a name outside it is refused before anything is sent.'
        : "coinop's own catalogue; this service may list more. A name outside it is sent as is (a note says so), for the service to decide.",
    assets: Object.fromEntries(
      Object.entries(ASSETS).map(([name, a]) => [
        name,
        {
          decimals: a.decimals,
          fiat: !!a.fiat,
          ...(a.fiat
            ? {}
            : {
                networks: Object.fromEntries(Object.entries(a.networks).map(([n, v]) => [n, { fee: v?.fee }])),
                min_withdrawal: a.minWithdrawal,
                max_withdrawal: a.maxWithdrawal,
              }),
          ...(a.balanceAssets ? { balance_assets: a.balanceAssets } : {}),
        },
      ]),
    ),
    networks: [...CRYPTO_NETWORKS],
    markets: MARKETS.map(catalogueMarket),
  };
}

export function registerResources(mcp: McpServer, deps: ServerDeps, tools: Tool[]): void {
  // coinop://context; coinop://profile is its old name, still answered (an agent configured with it keeps working).
  for (const [name, uri, title] of [
    ['context', CONTEXT_URI, 'The coinop context and environment'],
    ['profile', OLD_CONTEXT_URI, `The coinop context and environment (old name of ${CONTEXT_URI})`],
  ])
    mcp.registerResource(
      name,
      uri,
      {
        title,
        description:
          'The coinop context this server acts for: its environment (local, sandbox, production, custom), API address, service profile, and what the server lets through (--allow-writes, --allow-production, the policy).',
        mimeType: 'application/json',
      },
      async (u) => json(u, contextView(deps, tools)),
    );
  mcp.registerResource(
    'catalogue',
    'coinop://catalogue',
    {
      title: 'Assets, networks and markets',
      description:
        "coinop's catalogue: each asset's decimals, networks (with the network fee) and smallest and largest withdrawal; the crypto networks; the markets.",
      mimeType: 'application/json',
    },
    async (uri) => json(uri, catalogueView(deps.context.environment)),
  );
  const { policy } = deps;
  if (policy)
    mcp.registerResource(
      'policy',
      'coinop://policy',
      {
        title: "The context's policy",
        description: 'The rules every money-moving tool call is checked against before anything is sent.',
        mimeType: 'application/json',
      },
      async (uri) => json(uri, await policy.describe()),
    );
}
