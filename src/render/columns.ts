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
