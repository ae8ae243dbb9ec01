// What coinop statement and coinop close share: a profile's statement read from the service (the figures are
// src/statement's), its columns, its CSV rows and its JSON document.
import { dec, fmt } from '../contract/index.js';
import type { Connection } from './invocation.js';
import { CoinopError } from '../errors.js';
import type { Column } from '../render/output.js';
import type { Period } from '../statement/period.js';
import { computeStatement, type Statement, type StatementSource } from '../statement/statement.js';

/** The summary's columns, one row an asset. */
export const STATEMENT_ASSET_COLUMNS: Column[] = [
  { key: 'asset', identity: true },
  { key: 'opening', kind: 'amount' },
  { key: 'credits', kind: 'amount' },
  { key: 'debits', kind: 'amount' },
  { key: 'fees', kind: 'amount' },
  { key: 'closing', kind: 'amount' },
];

/** The movements' columns (and, with `record`, the CSV's: opening rows, movements, closing rows). */
export const STATEMENT_MOVEMENT_COLUMNS: Column[] = [
  { key: 'time', kind: 'time' },
  { key: 'asset' },
  { key: 'kind', identity: true },
  { key: 'change', kind: 'amount' },
  { key: 'balance', kind: 'amount' },
  { key: 'fee', kind: 'amount', rank: 2 },
  { key: 'type', rank: 3 },
  { key: 'status', kind: 'status', rank: 3 },
  { key: 'ref_id', kind: 'id', rank: 2 },
  { key: 'transfer_id', kind: 'id', short: true, wide: true },
  { key: 'amount', kind: 'amount', wide: true },
  { key: 'crypto_network', wide: true },
  { key: 'crypto_tx_hash', kind: 'id', wide: true },
  { key: 'destination_address', wide: true },
  { key: 'metadata', wide: true },
];

/** The statement's source over a connection: the profile's balances, its transfers updated since a time. */
export function serviceSource(conn: Connection, profileId: string): StatementSource {
  return {
    async balances() {
      const { data } = await conn.client.call('listProfileBalances', { params: { profile_id: profileId } });
      return new Map(
        (data.items ?? []).map((b) => [b.asset, fmt(dec(b.available ?? '0').plus(b.trading ?? '0'))] as const),
      );
    },
    transfers: (since) =>
      conn.client.items('listTransfers', {
        query: { profile_ids: [profileId], 'updated_at.gte': since, order_by: 'UPDATED_AT', order: 'ASC' },
      }),
  };
}

/** The statement of a profile for a period, read from the service (its failure as an api error). */
export async function statementOf(
  conn: Connection,
  profileId: string,
  options: { period: Period },
): Promise<Statement> {
  try {
    return await computeStatement(serviceSource(conn, profileId), options.period);
  } catch (e) {
    if (e instanceof CoinopError) throw e;
    throw new CoinopError('api', `statement of profile ${profileId}: ${(e as Error).message}`);
  }
}

/** The CSV's rows: each asset's opening, the movements, each asset's closing (with the period's fees). */
export function* statementRows(statement: Statement): Generator<object> {
  const s = statement;
  for (const a of s.assets) yield { record: 'opening', time: s.period.from, asset: a.asset, balance: a.opening };
  for (const m of s.movements()) yield { record: 'movement', ...m };
  for (const a of s.assets) {
    const change = fmt(dec(a.credits).minus(a.debits));
    yield { record: 'closing', time: s.period.to, asset: a.asset, change, fee: a.fees, balance: a.closing };
  }
}

/**
 * The statement as a document for programs (the profile, the period, the assets' figures, then the movements), written
 * a piece at a time through `write`, which may ask the writer to wait (a slow pipe) by returning a promise.
 */
export async function writeStatementDocument(
  profileId: string,
  statement: Statement,
  write: (text: string) => void | Promise<void>,
): Promise<void> {
  const s = statement;
  const head = JSON.stringify(
    { profile_id: profileId, from: s.period.from, to: s.period.to, assets: s.assets },
    null,
    2,
  );
  let held = `${head.slice(0, -2)},\n  "movements": [`;
  let n = 0;
  for (const m of s.movements()) {
    held += `${n++ ? ',' : ''}\n    ${JSON.stringify(m)}`;
    if (held.length > 1 << 16) {
      await write(held);
      held = '';
    }
  }
  await write(`${held}${n ? '\n  ]\n}\n' : ']\n}\n'}`);
}
