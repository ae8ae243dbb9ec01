// The environments coinop knows and their addresses (UPSTREAM.md "Hosts"); `local` is the local service.
export const ENVIRONMENTS = ['local', 'sandbox', 'production', 'custom'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface Endpoints {
  baseUrl: string;
  authUrl: string;
  wsUrl: string;
}

/** `coinop local start` listens on this port by default, so the `local` profile points here. */
export const LOCAL_PORT = 7357;

export const ENDPOINTS: Record<Exclude<Environment, 'custom'>, Endpoints> = {
  local: {
    baseUrl: `http://127.0.0.1:${LOCAL_PORT}`,
    authUrl: `http://127.0.0.1:${LOCAL_PORT}`,
    wsUrl: `ws://127.0.0.1:${LOCAL_PORT}/ws`,
  },
  sandbox: {
    baseUrl: 'https://api.sandbox.paxos.com',
    authUrl: 'https://oauth.sandbox.paxos.com',
    wsUrl: 'wss://ws.sandbox.paxos.com/',
  },
  production: {
    baseUrl: 'https://api.paxos.com',
    authUrl: 'https://oauth.paxos.com',
    wsUrl: 'wss://ws.paxos.com/',
  },
};

export const ENVIRONMENT_LABEL: Record<Environment, string> = {
  local: 'local service (no real money)',
  sandbox: 'sandbox (test money)',
  production: 'PRODUCTION (real money)',
  custom: 'custom addresses',
};
