// Table columns of each resource, shared by every command that prints it. Each table ranks its columns (rank: 1
// is never left out, higher numbers are left out first on a narrow terminal); `wide` columns show with --wide or
// --columns only, and always in CSV. See src/render/table.ts.
import type { Column } from './table.js';

export const TRANSFER_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true },
  { key: 'status', kind: 'status' },
  { key: 'type' },
  { key: 'asset' },
  { key: 'amount', kind: 'amount' },
  { key: 'fee', kind: 'amount' },
  { key: 'total', kind: 'amount' },
  { key: 'crypto_network', header: 'network' },
  { key: 'destination_address', header: 'destination' },
  { key: 'ref_id', header: 'ref id' },
  { key: 'created_at', header: 'created', kind: 'time' },
];

/**
 * Transfers in a list. The table shows the first seven that fit (the id whole to paste into transfers get, or its
 * first 8 characters on a narrow terminal; the type always: a deposit never reads like a withdrawal); --wide and CSV
 * every one, in this order, which is stable (docs/output-errors-exit-codes.md): columns are only ever added at the end.
 */
export const TRANSFER_LIST_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'status', kind: 'status' },
  { key: 'type', identity: true },
  { key: 'asset' },
  { key: 'amount', kind: 'amount' },
  { key: 'created_at', header: 'created', kind: 'time', rank: 2 },
  { key: 'ref_id', header: 'ref id', kind: 'id', rank: 4 },
  { key: 'fee', kind: 'amount', wide: true },
  { key: 'total', kind: 'amount', wide: true },
  { key: 'crypto_network', header: 'network', wide: true },
  { key: 'destination_address', header: 'destination', kind: 'id', wide: true },
  { key: 'crypto_tx_hash', header: 'tx hash', kind: 'id', wide: true },
  { key: 'crypto_tx_index', header: 'tx index', wide: true },
  { key: 'updated_at', header: 'updated', kind: 'time', wide: true },
  { key: 'direction', wide: true },
  { key: 'balance_asset', header: 'balance asset', wide: true },
  { key: 'profile_id', header: 'profile', kind: 'id', short: true, wide: true },
  { key: 'identity_id', header: 'identity', kind: 'id', short: true, wide: true },
  { key: 'account_id', header: 'account', kind: 'id', short: true, wide: true },
  { key: 'group_id', header: 'group', kind: 'id', short: true, wide: true },
  { key: 'memo', kind: 'text', wide: true },
  { key: 'notional_value', header: 'notional', kind: 'amount', wide: true },
  { key: 'secondary_status.name', header: 'secondary status', wide: true },
  { key: 'status_details', header: 'details', kind: 'text', wide: true },
  // Its fields are columns too: --columns metadata.invoice (a column headed metadata.invoice, in CSV as well).
  { key: 'metadata', kind: 'text', wide: true, open: true },
];

export const FEE_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'asset' },
  { key: 'fee', kind: 'amount' },
  { key: 'amount', kind: 'amount' },
  { key: 'total', kind: 'amount' },
  { key: 'crypto_network', header: 'network' },
  { key: 'destination_address', header: 'destination' },
  { key: 'expires_at', header: 'expires', kind: 'time' },
];

/** Deposit addresses: the address and its network come first, the id goes before them on a narrow terminal. */
export const DEPOSIT_ADDRESS_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', short: true, rank: 3 },
  { key: 'crypto_network', header: 'network', identity: true },
  { key: 'address', kind: 'id', identity: true },
  { key: 'conversion_target_asset', header: 'conversion', rank: 4 },
  { key: 'ref_id', header: 'ref id', kind: 'id', rank: 5 },
  { key: 'created_at', header: 'created', kind: 'time', rank: 2 },
];

export const PRICE_COLUMNS: Column[] = [
  // Absolute: in a series every row would read "3 d ago".
  { key: 'timestamp', identity: true },
  { key: 'average_price', header: 'average price', kind: 'amount' },
];

/** The service's profiles (coinop profiles). */
export const PROFILE_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'nickname', identity: true },
  { key: 'type', rank: 2 },
  { key: 'description', kind: 'text', rank: 3 },
];

/** A profile's balance of each asset: available to send now, and held by pending orders. */
export const BALANCE_COLUMNS: Column[] = [
  { key: 'asset', identity: true },
  { key: 'available', kind: 'amount' },
  { key: 'trading', kind: 'amount', rank: 2 },
];

/** Balances of several profiles in one table. */
export const PROFILE_BALANCE_COLUMNS: Column[] = [
  { key: 'profile_id', header: 'profile', kind: 'id', identity: true, short: true },
  { key: 'nickname', rank: 3 },
  ...BALANCE_COLUMNS,
];

/** The address book (coinop destinations). */
export const DESTINATION_COLUMNS: Column[] = [
  { key: 'nickname', identity: true },
  { key: 'crypto_network', header: 'network' },
  { key: 'address', kind: 'id' },
  { key: 'bookmarked', rank: 5 },
  { key: 'status', kind: 'status', rank: 2 },
  { key: 'identity_id', header: 'identity', kind: 'id', short: true, rank: 6 },
  { key: 'id', kind: 'id', short: true, rank: 4 },
  { key: 'created_at', header: 'created', kind: 'time', rank: 3 },
];

export const DEPOSIT_INSTRUCTIONS_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'status', kind: 'status', rank: 3 },
  { key: 'memo_id', header: 'memo id', kind: 'id' },
  { key: 'fiat_network', header: 'network', rank: 2 },
  { key: 'profile_id', header: 'profile', kind: 'id', short: true, rank: 5 },
  { key: 'ref_id', header: 'ref id', kind: 'id', rank: 6 },
  { key: 'created_at', header: 'created', kind: 'time', rank: 4 },
];

/**
 * Stablecoin conversions. The table shows the first columns that fit (the id whole, to paste into conversions get,
 * or its first 8 characters on a narrow terminal);
 * --wide and CSV every one, in this order, which is stable: columns are only ever added at the end.
 */
export const CONVERSION_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'status', kind: 'status' },
  { key: 'source_asset', header: 'from' },
  { key: 'target_asset', header: 'to' },
  { key: 'amount', kind: 'amount' },
  { key: 'created_at', header: 'created', kind: 'time', rank: 2 },
  { key: 'ref_id', header: 'ref id', kind: 'id', rank: 4 },
  { key: 'profile_id', header: 'profile', kind: 'id', short: true, rank: 5 },
  { key: 'updated_at', header: 'updated', kind: 'time', rank: 6 },
];

/** Fiat accounts, with their network and the last four digits of the account (worked out for the table and CSV). */
export const FIAT_ACCOUNT_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'status', kind: 'status', rank: 2 },
  { key: 'fiat_network', header: 'network', rank: 3 },
  { key: 'account', rank: 4 },
  { key: 'owner', kind: 'text', rank: 5 },
  { key: 'ref_id', header: 'ref id', kind: 'id', rank: 6 },
  { key: 'created_at', header: 'created', kind: 'time', rank: 7 },
];

/** The VASP directory (coinop vasps list). */
export const VASP_COLUMNS: Column[] = [
  { key: 'name', kind: 'text', identity: true },
  { key: 'id', kind: 'id', short: true, rank: 2 },
];

export const TRANSFER_LIMIT_COLUMNS: Column[] = [
  { key: 'rule_id', header: 'rule', kind: 'id', identity: true },
  // For people, the period in words ("24 h", "each transfer"); in CSV, seconds.
  { key: 'period_seconds', header: 'period', rank: 2 },
  { key: 'limit', kind: 'amount', rank: 3 },
  { key: 'used', kind: 'amount', rank: 4 },
  { key: 'remaining', kind: 'amount' },
  { key: 'limit_asset', header: 'asset' },
  { key: 'transfer_types', header: 'types', kind: 'text', rank: 5 },
];

// ---- Market data snapshots (coinop markets, ticker, book, trades) ----------------------------------------------

export const MARKET_COLUMNS: Column[] = [
  { key: 'market', identity: true },
  { key: 'base_asset', header: 'base', rank: 3 },
  { key: 'quote_asset', header: 'quote', rank: 3 },
  { key: 'tick_rate', header: 'tick', kind: 'amount', rank: 2 },
  { key: 'min_base_amount', header: 'min amount', kind: 'amount', rank: 2 },
  { key: 'market_status.buy_status', header: 'buy' },
  { key: 'market_status.sell_status', header: 'sell' },
];

/** A ticker as one CSV row: every price and statistic in a column of its own. */
export const TICKER_COLUMNS: Column[] = [
  { key: 'market', identity: true },
  ...['best_bid', 'best_ask', 'last_execution'].flatMap((k) => [
    { key: `${k}.price`, kind: 'amount' as const },
    { key: `${k}.amount`, kind: 'amount' as const },
  ]),
  ...['last_day', 'today'].flatMap((k) =>
    ['open', 'high', 'low', 'volume', 'volume_weighted_average_price'].map((s) => ({
      key: `${k}.${s}`,
      kind: 'amount' as const,
    })),
  ),
  { key: 'snapshot_at' },
];

/** One book snapshot for people: a row per level, the bid side and the ask side next to each other. */
export const BOOK_SIDE_BY_SIDE_COLUMNS: Column[] = [
  { key: 'level', rank: 2 },
  { key: 'bid_amount', header: 'bid amount', kind: 'amount' },
  { key: 'bid', header: 'bid price', kind: 'amount', identity: true },
  { key: 'ask', header: 'ask price', kind: 'amount', identity: true },
  { key: 'ask_amount', header: 'ask amount', kind: 'amount' },
];

/** One book snapshot as rows: one per level of either side. */
export const BOOK_LEVEL_COLUMNS: Column[] = [
  { key: 'market' },
  { key: 'side', identity: true },
  { key: 'level' },
  { key: 'price', kind: 'amount', identity: true },
  { key: 'amount', kind: 'amount' },
];

export const TRADE_COLUMNS: Column[] = [
  // The time of day to the second: trades a second apart would all read "just now".
  { key: 'executed_at', header: 'executed', kind: 'clock', rank: 2 },
  { key: 'price', kind: 'amount', identity: true },
  { key: 'amount', kind: 'amount' },
  { key: 'match_number', header: 'match', kind: 'id', rank: 3 },
];

/** The event feed (coinop events list, watch): when, what, and the object it is about. */
export const EVENT_LIST_COLUMNS: Column[] = [
  { key: 'created_at', header: 'created', kind: 'time', rank: 2 },
  { key: 'type', identity: true },
  { key: 'object.id', header: 'object', kind: 'id', short: true },
  { key: 'object.status', header: 'status', kind: 'status', rank: 2 },
  { key: 'object.amount', header: 'amount', kind: 'amount', rank: 3 },
  { key: 'object.asset', header: 'asset', rank: 3 },
  { key: 'id', header: 'event', kind: 'id', short: true, rank: 4 },
];

/** One event (coinop events get): its own fields first; the object's follow as object.* rows. */
export const EVENT_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true },
  { key: 'type' },
  { key: 'object_type', header: 'object type' },
  { key: 'created_at', header: 'created', kind: 'time' },
];

/** Address verifications (coinop addresses verifications list): the message to sign in CSV and --wide only. */
export const VERIFICATION_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'status', kind: 'status' },
  { key: 'network', rank: 3 },
  { key: 'address', kind: 'id', rank: 2 },
  { key: 'verification_method', header: 'method', rank: 5 },
  { key: 'ref_id', header: 'ref id', kind: 'id', rank: 6 },
  { key: 'created_at', header: 'created', kind: 'time', rank: 4 },
  { key: 'expires_at', header: 'expires', kind: 'time', rank: 7 },
  { key: 'message', kind: 'text', wide: true },
];

/** Statements (coinop statements list): a month's USDG rewards, owed and paid. */
export const STATEMENT_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', short: true, rank: 6 },
  { key: 'period', identity: true },
  { key: 'status', kind: 'status' },
  { key: 'asset', rank: 4 },
  { key: 'owed', kind: 'amount' },
  { key: 'paid', kind: 'amount', rank: 3 },
  { key: 'customer_id', header: 'customer', kind: 'id', rank: 7 },
  { key: 'ref_id', header: 'ref id', kind: 'id', wide: true },
  { key: 'period_start', header: 'from', kind: 'time', wide: true },
  { key: 'period_end', header: 'to', kind: 'time', wide: true },
  { key: 'generated_at', header: 'generated', kind: 'time', rank: 5 },
  { key: 'paid_at', header: 'paid at', kind: 'time', wide: true },
];

/** The payments that settle statements (coinop statements payments). */
export const PAYMENT_COLUMNS: Column[] = [
  { key: 'id', kind: 'id', identity: true, short: true },
  { key: 'payment_status', header: 'status', kind: 'status' },
  { key: 'payment_asset', header: 'asset', rank: 4 },
  { key: 'payment_amount', header: 'amount', kind: 'amount' },
  { key: 'product', rank: 6 },
  { key: 'payment_destination', header: 'destination', kind: 'id', rank: 7 },
  { key: 'ref_id', header: 'ref id', kind: 'id', wide: true },
  { key: 'created_at', header: 'created', kind: 'time', rank: 3 },
  { key: 'processed_at', header: 'processed', kind: 'time', rank: 5 },
];

// ---- coinop reconcile ------------------------------------------------------------------------------------------

/** A reconciliation's summary: per asset and class, how many lines and what they moved. */
export const RECONCILE_SUMMARY_COLUMNS: Column[] = [
  { key: 'asset', identity: true },
  { key: 'class', kind: 'status', identity: true },
  { key: 'lines' },
  { key: 'amount', kind: 'amount' },
  { key: 'explained' },
];

/** A reconciliation's lines. CSV has every one, in this order (stable: columns only ever added at the end). */
export const RECONCILE_LINE_COLUMNS: Column[] = [
  { key: 'class', kind: 'status', identity: true },
  { key: 'asset' },
  { key: 'amount', kind: 'amount' },
  { key: 'ref_id', header: 'ref id', kind: 'id', rank: 3 },
  { key: 'status', kind: 'status', rank: 4 },
  { key: 'reason', kind: 'text', rank: 2 },
  { key: 'transfer_id', header: 'transfer', kind: 'id', short: true, wide: true },
  { key: 'intended_amount', header: 'intended', kind: 'amount', wide: true },
  { key: 'fee', kind: 'amount', wide: true },
  { key: 'type', wide: true },
  { key: 'network', wide: true },
  { key: 'destination', kind: 'id', wide: true },
  { key: 'profile_id', header: 'profile', kind: 'id', wide: true },
  { key: 'created_at', header: 'created', kind: 'time', wide: true },
  { key: 'intent', kind: 'id', wide: true },
  { key: 'kind', wide: true },
  { key: 'target_asset', header: 'target', wide: true },
  { key: 'status_at_end', header: 'status at end', kind: 'status', wide: true },
  { key: 'event_status', header: 'event status', kind: 'status', wide: true },
];

// ---- coinop audit list -----------------------------------------------------------------------------------------

/** The audit log as a table: what each entry was (its seq and kind), what came of it, then the details. */
export const AUDIT_LIST_COLUMNS: Column[] = [
  { key: 'seq', identity: true },
  { key: 'time', rank: 2 },
  { key: 'kind', identity: true },
  { key: 'result', kind: 'status' },
  { key: 'asset', rank: 3 },
  { key: 'amount', kind: 'amount', rank: 3 },
  { key: 'destination', kind: 'id', rank: 5 },
  { key: 'ref_id', kind: 'id', rank: 4 },
  { key: 'detail', kind: 'text', rank: 2 },
];
