// The environments coinop knows and their addresses (spec/UPSTREAM.md "Hosts"); `local` is the local service.
import type { AddressCheck } from '../contract/addresses.js';

export const ENVIRONMENTS = ['local', 'sandbox', 'production', 'custom'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface Endpoints {
  baseUrl: string;
  authUrl: string;
  wsUrl: string;
}

/** `coinop local start` listens on this port by default, so the `local` context points here. */
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

/** Every operation's path starts with this (src/contract/operations.ts); coinop's API address is the root before it. */
export const API_PREFIX = '/v2';
/** The token endpoint's path on its server; coinop's token address is the server before it. */
export const TOKEN_PATH = '/oauth2/token';

const trimSlashes = (u: string) => u.trim().replace(/\/+$/, '');

/**
 * An API address as coinop keeps it: no trailing slash, and no trailing /v2. The hosted API is written both ways
 * (spec/UPSTREAM.md's base_url without it, the OpenAPI's server URL and the docs' table with it); both are one API.
 */
export function apiRoot(url: string): string {
  const u = trimSlashes(url);
  return u.endsWith(API_PREFIX) ? trimSlashes(u.slice(0, -API_PREFIX.length)) : u;
}

/** A token address as coinop keeps it: the server, written as itself or as the full endpoint (…/oauth2/token). */
export function authRoot(url: string): string {
  const u = trimSlashes(url);
  return u.endsWith(TOKEN_PATH) ? trimSlashes(u.slice(0, -TOKEN_PATH.length)) : u;
}

/** The token endpoint of a token address (either spelling). */
export const tokenEndpoint = (authUrl: string) => authRoot(authUrl) + TOKEN_PATH;

export const ENVIRONMENT_LABEL: Record<Environment, string> = {
  local: 'local service (no real money)',
  sandbox: 'sandbox (test money)',
  production: 'PRODUCTION (real money)',
  custom: 'custom addresses',
};

/**
 * Whether a destination may be a testnet address: in the sandbox (the hosted sandbox pays on testnets) and on the
 * local service; never in production, nor in a custom environment, which coinop cannot tell from production.
 */
export function addressCheckFor(env: Environment): AddressCheck {
  if (env === 'sandbox' || env === 'local') return {};
  return { mainnetOnly: env === 'production' ? 'production' : 'a custom environment' };
}
