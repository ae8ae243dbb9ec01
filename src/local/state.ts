// The local service's whole state: the demo data of a fresh database, reset, and export/import as JSON.
import { problems } from '../api/index.js';
import { createDepositAddress } from './addresses.js';
import type { Core } from './core.js';
import { DEMO, DEMO_BALANCES, DEMO_CLIENTS, DEMO_DEPOSIT_ADDRESSES } from './demo.js';
import { settleDue } from './ledger.js';
import { SCHEMA_VERSION, STATE_TABLES, type StateExport } from './store.js';

/** Puts the demo clients, customer, profiles, balances and deposit addresses into an empty state. */
function seedDemo(core: Core): void {
  const { store } = core;
  for (const c of DEMO_CLIENTS) store.insertClient({ id: c.id, secret: c.secret, scopes: c.scopes.join(' '), allow_stream: c.allowStream ? 1 : 0 });
  store.insertProfile({ id: DEMO.profileId, customer_id: DEMO.customerId, memo_id: DEMO.memoId, nickname: 'demo' });
  store.insertProfile({ id: DEMO.emptyProfileId, customer_id: DEMO.customerId, memo_id: DEMO.emptyMemoId, nickname: 'empty' });
  for (const [asset, amount] of Object.entries(DEMO_BALANCES)) store.setBalance(DEMO.profileId, asset, amount);
  for (const a of DEMO_DEPOSIT_ADDRESSES) createDepositAddress(core, { profile_id: DEMO.profileId, crypto_network: a.crypto_network, ref_id: a.ref_id });
  store.setMeta('seeded', '1');
}

/** Seeds the demo data once per database, safely when several processes open a new file at the same time. */
export function ensureDemo(core: Core): void {
  core.store.immediate(() => {
    if (core.store.getMeta('seeded') !== '1') seedDemo(core);
  });
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
  if (!body || typeof body !== 'object' || Array.isArray(body)) bad('', 'the body must be a state object from GET /_local/state');
  const s = body as Partial<StateExport>;
  if (s.version !== SCHEMA_VERSION) bad('version', `must be ${SCHEMA_VERSION}`);
  if (typeof s.clock_offset_ms !== 'number' || !Number.isSafeInteger(s.clock_offset_ms)) bad('clock_offset_ms', 'must be a whole number');
  if (!s.tables || typeof s.tables !== 'object') bad('tables', 'is required');
  for (const t of STATE_TABLES) {
    const rows = (s.tables as Record<string, unknown>)[t];
    if (!Array.isArray(rows)) bad(`tables.${t}`, 'must be an array');
    for (const [i, r] of (rows as unknown[]).entries()) {
      if (!r || typeof r !== 'object' || Array.isArray(r)) bad(`tables.${t}[${i}]`, 'must be an object');
    }
  }
  for (const k of Object.keys(s.tables as object)) if (!(STATE_TABLES as readonly string[]).includes(k)) bad(`tables.${k}`, 'is not a known table');
  try {
    core.store.importState(s as StateExport);
  } catch (e) {
    bad('tables', (e as Error).message);
  }
  core.store.immediate(() => core.store.setMeta('seeded', '1'));
}
