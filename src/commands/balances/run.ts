// coinop balances: one service profile's balances, or every profile's in one table.
import {
  assetIssues,
  isAmountString,
  dec,
  type ListProfileBalancesResponse,
  type Profile,
} from '../../contract/index.js';
import type { Invocation, Connection } from '../../cli/invocation.js';
import { need } from '../../cli/prompt.js';
import { checkUnlisted } from '../../client/service-client.js';
import { BALANCE_COLUMNS, PROFILE_BALANCE_COLUMNS } from '../../render/columns.js';
import { BALANCES_FLAGS, type BalancesOptions } from './options.js';

type Row = Record<string, unknown>;

/** A balance worth a row: one asked for by name, or asked for with zeros, or one with something in it. */
function shown(o: BalancesOptions, b: Row): boolean {
  if (o.assets || o.includeZero) return true;
  return [b.available, b.trading].some((v) => !isAmountString(v) || dec(v).gt(0));
}

async function balancesOf(conn: Connection, o: BalancesOptions, profileId: string): Promise<Row[]> {
  const parts = { params: { profile_id: profileId }, ...(o.assets ? { query: { assets: o.assets } } : {}) };
  const { data } = await conn.client.call<ListProfileBalancesResponse>('listProfileBalances', parts, BALANCES_FLAGS);
  return (data.items ?? []).filter((b) => shown(o, b));
}

/** Every profile's balances, a profile at a time (as the list pages arrive). */
async function* everyProfile(conn: Connection, o: BalancesOptions): AsyncGenerator<Row> {
  for await (const p of conn.client.items<Profile>('listProfiles', { query: {} })) {
    for (const b of await balancesOf(conn, o, p.id)) yield { profile_id: p.id, nickname: p.nickname, ...b };
  }
}

export async function balances(ctx: Invocation, o: BalancesOptions): Promise<void> {
  const empty = o.assets || o.includeZero ? 'no balances' : 'nothing in any asset (add --include-zero to list them)';
  // The ASSETs against the catalogue, before any request (--all-profiles lists the profiles first).
  checkUnlisted(
    ctx.catalogue(),
    (o.assets ?? []).flatMap((a) => assetIssues('assets', a)),
    BALANCES_FLAGS,
  );
  if (o.allProfiles) {
    const conn = await ctx.connect();
    await ctx.output(o.view).list(everyProfile(conn, o), PROFILE_BALANCE_COLUMNS, { empty });
    return;
  }
  const pr = ctx.prompter;
  const profileId = await need(pr, '--profile-id', o.profileId ?? ctx.context().profileId, () =>
    pr.text("The service's profile id"),
  );
  const conn = await ctx.connect();
  const rows = await balancesOf(conn, o, profileId);
  const out = ctx.output(o.view);
  if (out.format === 'table') out.note(out.p.dim(`service profile ${profileId}`));
  await out.list(rows, BALANCE_COLUMNS, { empty });
}
