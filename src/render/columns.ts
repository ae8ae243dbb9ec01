// Table columns of each resource, shared by every command that prints it.
import type { Column } from './output.js';

export const TRANSFER_COLUMNS: Column[] = [
  { key: 'id', kind: 'id' },
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

/** Fewer columns for lists, where width is short: the id stays whole (to paste into transfers get), ref id last. */
export const TRANSFER_LIST_COLUMNS: Column[] = [
  { key: 'id', kind: 'id' },
  { key: 'status', kind: 'status' },
  { key: 'type' },
  { key: 'asset' },
  { key: 'amount', kind: 'amount' },
  { key: 'created_at', header: 'created', kind: 'time' },
  { key: 'ref_id', header: 'ref id' },
];

export const FEE_COLUMNS: Column[] = [
  { key: 'id', kind: 'id' },
  { key: 'asset' },
  { key: 'fee', kind: 'amount' },
  { key: 'amount', kind: 'amount' },
  { key: 'total', kind: 'amount' },
  { key: 'crypto_network', header: 'network' },
  { key: 'destination_address', header: 'destination' },
  { key: 'expires_at', header: 'expires', kind: 'time' },
];

export const DEPOSIT_ADDRESS_COLUMNS: Column[] = [
  { key: 'id', kind: 'id' },
  { key: 'crypto_network', header: 'network' },
  { key: 'address', kind: 'id' },
  { key: 'conversion_target_asset', header: 'conversion' },
  { key: 'ref_id', header: 'ref id' },
  { key: 'created_at', header: 'created', kind: 'time' },
];

export const PRICE_COLUMNS: Column[] = [
  // Absolute: in a series every row would read "3 d ago".
  { key: 'timestamp' },
  { key: 'average_price', header: 'average price', kind: 'amount' },
];

/** The service's profiles (coinop profiles). */
export const PROFILE_COLUMNS: Column[] = [
  { key: 'id', kind: 'id' },
  { key: 'nickname' },
  { key: 'type' },
  { key: 'description', kind: 'text' },
];

/** A profile's balance of each asset: available to send now, and held by pending orders. */
export const BALANCE_COLUMNS: Column[] = [
  { key: 'asset' },
  { key: 'available', kind: 'amount' },
  { key: 'trading', kind: 'amount' },
];

/** Balances of several profiles in one table. */
export const PROFILE_BALANCE_COLUMNS: Column[] = [
  { key: 'profile_id', header: 'profile', kind: 'id' },
  { key: 'nickname' },
  ...BALANCE_COLUMNS,
];

/** The address book (coinop destinations). */
export const DESTINATION_COLUMNS: Column[] = [
  { key: 'nickname' },
  { key: 'crypto_network', header: 'network' },
  { key: 'address', kind: 'id' },
  { key: 'bookmarked' },
  { key: 'status', kind: 'status' },
  { key: 'identity_id', header: 'identity' },
  { key: 'id', kind: 'id' },
  { key: 'created_at', header: 'created', kind: 'time' },
];

export const DEPOSIT_INSTRUCTIONS_COLUMNS: Column[] = [
  { key: 'id', kind: 'id' },
  { key: 'status', kind: 'status' },
  { key: 'memo_id', header: 'memo id' },
  { key: 'fiat_network', header: 'network' },
  { key: 'profile_id', header: 'profile', kind: 'id' },
  { key: 'ref_id', header: 'ref id' },
  { key: 'created_at', header: 'created', kind: 'time' },
];

export const TRANSFER_LIMIT_COLUMNS: Column[] = [
  { key: 'rule_id', header: 'rule' },
  // For people, the period in words ("24 h", "each transfer"); in CSV, seconds.
  { key: 'period_seconds', header: 'period' },
  { key: 'limit', kind: 'amount' },
  { key: 'used', kind: 'amount' },
  { key: 'remaining', kind: 'amount' },
  { key: 'limit_asset', header: 'asset' },
  { key: 'transfer_types', header: 'types' },
];

// ---- Market data snapshots (coinop markets, ticker, book, trades) ----------------------------------------------

export const MARKET_COLUMNS: Column[] = [
  { key: 'market' },
  { key: 'base_asset', header: 'base' },
  { key: 'quote_asset', header: 'quote' },
  { key: 'tick_rate', header: 'tick', kind: 'amount' },
  { key: 'min_base_amount', header: 'min amount', kind: 'amount' },
  { key: 'market_status.buy_status', header: 'buy' },
  { key: 'market_status.sell_status', header: 'sell' },
];

/** A ticker as one CSV row: every price and statistic in a column of its own. */
export const TICKER_COLUMNS: Column[] = [
  { key: 'market' },
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
  { key: 'level' },
  { key: 'bid_amount', header: 'bid amount', kind: 'amount' },
  { key: 'bid', header: 'bid price', kind: 'amount' },
  { key: 'ask', header: 'ask price', kind: 'amount' },
  { key: 'ask_amount', header: 'ask amount', kind: 'amount' },
];

/** One book snapshot as rows: one per level of either side. */
export const BOOK_LEVEL_COLUMNS: Column[] = [
  { key: 'market' },
  { key: 'side' },
  { key: 'level' },
  { key: 'price', kind: 'amount' },
  { key: 'amount', kind: 'amount' },
];

export const TRADE_COLUMNS: Column[] = [
  { key: 'executed_at', header: 'executed', kind: 'time' },
  { key: 'price', kind: 'amount' },
  { key: 'amount', kind: 'amount' },
  { key: 'match_number', header: 'match' },
];

/** The event feed (coinop events list, watch): when, what, and the object it is about. */
export const EVENT_LIST_COLUMNS: Column[] = [
  { key: 'created_at', header: 'created', kind: 'time' },
  { key: 'type' },
  { key: 'object.id', header: 'object', kind: 'id' },
  { key: 'object.status', header: 'status', kind: 'status' },
  { key: 'object.amount', header: 'amount', kind: 'amount' },
  { key: 'object.asset', header: 'asset' },
  { key: 'id', header: 'event', kind: 'id' },
];

/** One event (coinop events get): its own fields first; the object's follow as object.* rows. */
export const EVENT_COLUMNS: Column[] = [
  { key: 'id', kind: 'id' },
  { key: 'type' },
  { key: 'object_type', header: 'object type' },
  { key: 'created_at', header: 'created', kind: 'time' },
];
