// The local service's whole state: the demo data of a fresh database, reset, and export/import as JSON.
import { randomUUID } from './lazy-crypto.js';
import { problems } from '../contract/index.js';
import { createDepositAddress } from './addresses.js';
import type { Core } from './core.js';
import { createDepositInstructions } from './deposit-instructions.js';
import {
  DEMO,
  DEMO_BALANCES,
  DEMO_CLIENTS,
  DEMO_DEPOSIT_ADDRESSES,
  DEMO_DEPOSIT_INSTRUCTIONS,
  DEMO_LIMIT_RULES,
} from '../embedded/demo.js';
import { settleDue } from './ledger.js';
import { checkStoredLimitRules, demoLimitRuleRows, rebuildUsage } from './transfer-limits.js';
import { SCHEMA_VERSION, STATE_TABLES, type StateExport } from './store.js';

/** Puts the demo clients, customer, profiles, balances and deposit addresses into an empty state. */
function seedDemo(core: Core): void {
  const { store } = core;
  for (const c of DEMO_CLIENTS)
    store.insertClient({ id: c.id, secret: c.secret, scopes: c.scopes.join(' '), allow_stream: c.allowStream ? 1 : 0 });
  const now = core.clock.now();
  store.insertProfile({
    id: DEMO.profileId,
    customer_id: DEMO.customerId,
    nickname: 'demo',
    type: 'DEFAULT',
    created_ms: now,
  });
  store.insertProfile({
    id: DEMO.emptyProfileId,
    customer_id: DEMO.customerId,
    nickname: 'empty',
    type: 'NORMAL',
    created_ms: now,
  });
  seedDeskDemo(core);
  for (const [asset, amount] of Object.entries(DEMO_BALANCES)) store.setBalance(DEMO.profileId, asset, amount);
  for (const a of DEMO_DEPOSIT_ADDRESSES)
    createDepositAddress(core, { profile_id: DEMO.profileId, crypto_network: a.crypto_network, ref_id: a.ref_id });
  store.setMeta('seeded', '1');
}

/** The demo data of the address book's era (schema 3): deposit instructions holding the demo memo_ids, limit rules. */
function seedDeskDemo(core: Core): void {
  for (const i of DEMO_DEPOSIT_INSTRUCTIONS) {
    if (!core.store.profile(i.profile_id) || core.store.depositInstructionsByMemo(i.memo_id)) continue;
    createDepositInstructions(
      core,
      { profile_id: i.profile_id, fiat_network: 'WIRE', ref_id: i.ref_id },
      { memoId: i.memo_id },
    );
  }
  core.store.replaceLimitRules(demoLimitRuleRows(DEMO_LIMIT_RULES));
}

/**
 * Seeds the demo data once per database, safely when several processes open a new file at the same time. A database
 * seeded by an older coinop has its demo clients given the scopes of endpoints added since.
 */
export function ensureDemo(core: Core): void {
  core.store.immediate(() => {
    if (core.store.getMeta('seeded') !== '1') seedDemo(core);
    else grantDemoScopes(core);
  });
}

/** Adds to each demo client the scopes of its definition it lacks (it keeps any others). */
function grantDemoScopes(core: Core): void {
  for (const c of DEMO_CLIENTS) {
    const row = core.store.client(c.id);
    if (!row) continue;
    const had = row.scopes.split(' ').filter(Boolean);
    const missing = c.scopes.filter((s) => !had.includes(s));
    if (missing.length) core.store.insertClient({ ...row, scopes: [...had, ...missing].join(' ') });
  }
}

export function resetState(core: Core): void {
  core.store.immediate(() => {
    core.store.clearState();
    seedDemo(core);
  });
}

export function exportState(core: Core): StateExport {
  settleDue(core);
  return core.store.exportState();
}

/** Validates the shape of an export and replaces the state with it; a 400 naming the bad part otherwise. */
export function importState(core: Core, body: unknown): void {
  const bad = (field: string, rule: string): never => {
    throw problems.badRequest(`${field}: ${rule}`, { issues: [{ field, rule }] });
  };
  if (!body || typeof body !== 'object' || Array.isArray(body))
    bad('', 'the body must be a state object from GET /_local/state');
  // Exports of older schemas are taken too: the columns added since have defaults, the tables are upgraded.
  const s = upgradeExport(core, body as Partial<StateExport>);
  if (typeof s.version !== 'number' || !Number.isInteger(s.version) || s.version < 1 || s.version > SCHEMA_VERSION)
    bad('version', `must be a schema version from 1 to ${SCHEMA_VERSION}`);
  if (typeof s.clock_offset_ms !== 'number' || !Number.isSafeInteger(s.clock_offset_ms))
    bad('clock_offset_ms', 'must be a whole number');
  if (!s.tables || typeof s.tables !== 'object') bad('tables', 'is required');
  for (const t of STATE_TABLES) {
    const rows = (s.tables as Record<string, unknown>)[t];
    if (!Array.isArray(rows)) bad(`tables.${t}`, 'must be an array');
    for (const [i, r] of (rows as unknown[]).entries()) {
      if (!r || typeof r !== 'object' || Array.isArray(r)) bad(`tables.${t}[${i}]`, 'must be an object');
    }
  }
  for (const k of Object.keys(s.tables as object))
    if (!(STATE_TABLES as readonly string[]).includes(k)) bad(`tables.${k}`, 'is not a known table');
  try {
    core.store.immediate(() => {
      core.store.importState(s as StateExport);
      checkStoredLimitRules(core);
      rebuildUsage(core);
    });
  } catch (e) {
    bad('tables', (e as Error).message);
  }
  core.store.immediate(() => core.store.setMeta('seeded', '1'));
}

/** The tables of an older export as the current schema holds them (a newer or broken one is left for the checks). */
function upgradeExport(core: Core, state: Partial<StateExport>): Partial<StateExport> {
  const tables = state.tables as Record<string, unknown> | undefined;
  // Schemas before 4 had no event feed: it starts empty, as migrating such a database leaves it.
  if (
    typeof state.version === 'number' &&
    state.version < 4 &&
    tables &&
    typeof tables === 'object' &&
    !('events' in tables)
  )
    state = { ...state, tables: { ...tables, events: [] } as unknown as StateExport['tables'] };
  // Schemas before 5 had no fiat accounts: none.
  const now = state.tables as Record<string, unknown> | undefined;
  if (
    typeof state.version === 'number' &&
    state.version < 5 &&
    now &&
    typeof now === 'object' &&
    !('fiat_accounts' in now)
  )
    state = { ...state, tables: { ...now, fiat_accounts: [] } as unknown as StateExport['tables'] };
  // Schemas before 6 had no stablecoin conversions: none.
  const tablesNow = state.tables as Record<string, unknown> | undefined;
  if (
    typeof state.version === 'number' &&
    state.version < 6 &&
    tablesNow &&
    typeof tablesNow === 'object' &&
    !('conversions' in tablesNow)
  )
    state = { ...state, tables: { ...tablesNow, conversions: [] } as unknown as StateExport['tables'] };
  return upgradeV2Export(core, state);
}

/**
 * The tables of an export of schema 1 or 2 as schema 3 holds them: each profile's memo_id becomes WIRE deposit
 * instructions of that profile, the new tables start empty and the limits are the demo ones (what migrating such a
 * database does). Its version stays, for the store to fill in what schema 2 added. Anything else is left as it is,
 * for the checks to name.
 */
function upgradeV2Export(core: Core, state: Partial<StateExport>): Partial<StateExport> {
  const tables = state.tables as Record<string, unknown> | undefined;
  const old = state.version === 1 || state.version === 2;
  if (!old || !tables || typeof tables !== 'object' || !Array.isArray(tables.profiles)) return state;
  const instructions: Record<string, unknown>[] = [];
  const profiles = (tables.profiles as unknown[]).map((profile) => {
    if (!profile || typeof profile !== 'object' || !('memo_id' in profile)) return profile;
    const { memo_id, ...rest } = profile as Record<string, unknown>;
    if (memo_id !== null && memo_id !== undefined)
      instructions.push(v1MemoInstructions(String(rest.id), memo_id, core.clock.now()));
    return rest;
  });
  return {
    ...state,
    tables: {
      crypto_destination_addresses: [],
      transfer_limit_rules: demoLimitRuleRows(DEMO_LIMIT_RULES) as unknown as Record<string, unknown>[],
      ...tables,
      profiles,
      fiat_deposit_instructions: instructions,
    } as unknown as StateExport['tables'],
  };
}

/** The deposit instructions row that holds a memo_id a profile of schema 1 or 2 had. */
export function v1MemoInstructions(profileId: string, memoId: unknown, nowMs: number): Record<string, unknown> {
  return {
    id: randomUUID(),
    ref_id: null,
    profile_id: profileId,
    identity_id: null,
    account_id: null,
    fiat_network: 'WIRE',
    routing_number_type: 'ABA',
    memo_id: memoId,
    status: 'VALID',
    metadata_json: null,
    created_ms: nowMs,
  };
}
