// coinop balances: one service profile's balances, or every profile's in one table.
import { assetIssues, isAmountString, dec } from '../../contract/index.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { commandProfile, profileLabel } from '../../cli/service-profiles.js';
import { checkUnlisted } from '../../client/service-client.js';
import { BALANCE_COLUMNS, PROFILE_BALANCE_COLUMNS } from '../../render/columns.js';
import { BALANCES_FLAGS, type BalancesOptions } from './options.js';

type Row = Record<string, unknown>;

/** A balance worth a row: one asked for by name, or asked for with zeros, or one with something in it. */
function shown(options: BalancesOptions, balance: Row): boolean {
  if (options.assets || options.includeZero) return true;
  return [balance.available, balance.trading].some((v) => !isAmountString(v) || dec(v).gt(0));
}

async function balancesOf(conn: Connection, options: BalancesOptions, profileId: string): Promise<Row[]> {
  const parts = { params: { profile_id: profileId }, ...(options.assets ? { query: { assets: options.assets } } : {}) };
  const { data } = await conn.client.call('listProfileBalances', parts, BALANCES_FLAGS);
  return (data.items ?? []).filter((b) => shown(options, b));
}

/** Every profile's balances, a profile at a time (as the list pages arrive). */
async function* everyProfile(conn: Connection, options: BalancesOptions): AsyncGenerator<Row> {
  for await (const p of conn.client.items('listProfiles', { query: {} })) {
    for (const b of await balancesOf(conn, options, p.id)) yield { profile_id: p.id, nickname: p.nickname, ...b };
  }
}

/** What the balances take: where they are shown, the service, and a question for the profile id on a terminal. */
export type BalancesDeps = Pick<Ports, 'display' | 'service' | 'prompter'>;

export async function balances(
  { display, service, prompter: pr }: BalancesDeps,
  options: BalancesOptions,
): Promise<void> {
  const empty =
    options.assets || options.includeZero ? 'no balances' : 'nothing in any asset (add --include-zero to list them)';
  // The ASSETs against the catalogue, before any request (--all-profiles lists the profiles first).
  checkUnlisted(
    service.catalogue(),
    (options.assets ?? []).flatMap((a) => assetIssues('assets', a)),
    BALANCES_FLAGS,
  );
  if (options.allProfiles) {
    const conn = await service.connect();
    await display.output(options.view).list(everyProfile(conn, options), PROFILE_BALANCE_COLUMNS, { empty });
    return;
  }
  const profile = await commandProfile({ service, prompter: pr }, options.profileId, service.context().profileId);
  const conn = await service.connect();
  const rows = await balancesOf(conn, options, profile.id);
  const out = display.output(options.view);
  if (out.format === 'table') out.note(out.p.dim(`service profile ${profileLabel(profile)}`));
  await out.list(rows, BALANCE_COLUMNS, { empty });
}
