// coinop gateway: its flags, checked into typed options (one check per rule; see src/cli/options.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { usageError } from '../../cli/errors.js';
import { choiceFlag, intFlag, type RawFlags } from '../../cli/options.js';
import { checkContextName } from '../../config/context.js';
import { ROLES, type Role } from '../../gateway/operators.js';
import { GATEWAY_START_FLAG_TABLE, POLICY_SET_FLAG_TABLE, STORE_FLAG_TABLE } from './flags.js';

/** Where the store is unless --store says: a SQLite file in coinop's data directory. */
export const defaultStore = (dataDir: string): string => join(dataDir, 'gateway', 'gateway.db');

export interface StoreOptions {
  store: string;
}

export function parseStoreOptions(raw: RawFlags, dataDir: string): StoreOptions {
  const { store } = STORE_FLAG_TABLE.read(raw);
  if (store !== undefined && store.trim() === '') throw usageError('--store: give a postgres:// URL or a file');
  return { store: store ?? defaultStore(dataDir) };
}

export interface StartOptions extends StoreOptions {
  upstream: string;
  host: string;
  port: number;
  tls?: { cert: Buffer; key: Buffer };
  rate: number;
  approvalTtlMs: number;
}

function readPem(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw usageError(`${flag}: ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export function parseStartOptions(raw: RawFlags, dataDir: string): StartOptions {
  const f = GATEWAY_START_FLAG_TABLE.read(raw);
  const given = f.upstream;
  if (!given)
    throw usageError('--upstream: name the context whose credentials the gateway holds (coinop context list)');
  const upstream = checkContextName(given, '--upstream');
  const { tlsCert: cert, tlsKey: key } = f;
  if ((cert === undefined) !== (key === undefined)) throw usageError('--tls-cert and --tls-key: give both, or neither');
  return {
    ...parseStoreOptions(raw, dataDir),
    upstream,
    host: f.host,
    port: intFlag('--port', f.port, 0, 65535)!,
    tls: cert && key ? { cert: readPem('--tls-cert', cert), key: readPem('--tls-key', key) } : undefined,
    rate: intFlag('--rate', f.rate, 1, 100_000)!,
    approvalTtlMs: approvalTtlMs(f.approvalTtl),
  };
}

const approvalTtlMs = (minutes: string): number => intFlag('--approval-ttl', minutes, 1, 30 * 24 * 60)! * 60_000;

export interface PolicySetOptions extends StoreOptions {
  approvalTtlMs: number;
  /** Through the current context's gateway (an admin operator's login), not at the store. */
  gateway: boolean;
}

export function parsePolicySetOptions(raw: RawFlags, dataDir: string): PolicySetOptions {
  const f = POLICY_SET_FLAG_TABLE.read(raw);
  if (f.gateway && f.store !== undefined)
    throw usageError('--gateway and --store: give one (through the gateway, or at its store)');
  return { ...parseStoreOptions(raw, dataDir), approvalTtlMs: approvalTtlMs(f.approvalTtl), gateway: !!f.gateway };
}

/** An operator's name: what the audit calls them. */
export function operatorName(value: string | undefined): string {
  if (!value || !/^[A-Za-z0-9_.-]{1,64}$/.test(value))
    throw usageError('NAME: an operator name is letters, digits, dot, dash and underscore (at most 64)');
  return value;
}

export function roleFlag(value: string | undefined): Role {
  const role = choiceFlag('--role', value, ROLES);
  if (!role) throw usageError(`--role: must be one of ${ROLES.join(', ')}`);
  return role;
}
