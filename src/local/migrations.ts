// Brings a database of an older schema up to SCHEMA_VERSION, a step at a time, all in one transaction (processes that
// open the same file at once migrate it once). A fresh database is made at the current schema and needs none. The demo
// clients get the scopes of the endpoints added since when the demo data is ensured (state.ts), right after.
import type { Core } from './core.js';
import { DEMO_LIMIT_RULES } from '../embedded/demo.js';
import { demoLimitRuleRows, rebuildUsage } from './transfer-limits.js';
import { v1MemoInstructions } from './state.js';
import { SCHEMA_VERSION, type DepositInstructionsRow } from './store.js';

/** The step to each schema version from the one before, keyed by the version it makes. */
const STEPS: Record<number, (core: Core) => void> = {
  2: toSchema2,
  3: toSchema3,
  4: toSchema4,
  5: toSchema5,
  6: toSchema6,
};

export function migrate(core: Core): void {
  core.store.immediate(() => {
    for (let v = core.store.schemaVersion() + 1; v <= SCHEMA_VERSION; v++) {
      STEPS[v](core);
      core.store.setMeta('schema_version', String(v));
    }
  });
}

/** 2, service profiles: a type (each customer's first profile is its DEFAULT), a description, a creation time. */
function toSchema2(core: Core): void {
  core.store.addProfileTypes();
}

/**
 * 3, the address book, transfer limits and deposit instructions: each profile's memo_id becomes WIRE deposit
 * instructions of that profile, a seeded database gets the demo limit rules, and the usage the limits measure is
 * worked out from the transfers.
 */
function toSchema3(core: Core): void {
  const { store } = core;
  const now = core.clock.now();
  for (const m of store.takeProfileMemoIds())
    store.insertDepositInstructions(
      v1MemoInstructions(m.id, m.memo_id, now) as unknown as Omit<DepositInstructionsRow, 'seq'>,
    );
  if (store.getMeta('seeded') === '1') store.replaceLimitRules(demoLimitRuleRows(DEMO_LIMIT_RULES));
  rebuildUsage(core);
}

/**
 * 4, the event feed: the events table (made with the schema when the database is opened) starts empty. The feed
 * begins at the migration: the changes a database saw before it had a feed are in its transfers, not made up as
 * events after the fact.
 */
function toSchema4(core: Core): void {
  if (!core.store.hasTable('events')) throw new Error('internal: the events table was not made with the schema');
}

/** 5, fiat accounts: the table (made with the schema when the database is opened) starts empty. */
function toSchema5(core: Core): void {
  if (!core.store.hasTable('fiat_accounts'))
    throw new Error('internal: the fiat_accounts table was not made with the schema');
}

/** 6, stablecoin conversions: the table (made with the schema when the database is opened) starts empty. */
function toSchema6(core: Core): void {
  if (!core.store.hasTable('conversions'))
    throw new Error('internal: the conversions table was not made with the schema');
}
