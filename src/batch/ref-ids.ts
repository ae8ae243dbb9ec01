// Derived ref_ids: from what a row means (its request body), not from the bytes of the file it came in.
import * as crypto from 'node:crypto';

/** Hex digits of the row's content hash in a derived ref_id (96 bits). */
const KEY_HEX = 24;

/**
 * The longest derived ref_id validation must allow for: hash, an occurrence of up to 9 digits and a repeat salt.
 * Well inside the service's 128 characters.
 */
export const REF_ID_PLACEHOLDER = `batch-${'0'.repeat(KEY_HEX)}-999999999-${'0'.repeat(8)}`;

/** An amount string as a number means it: no leading zeros, no trailing zeros after the point ("0.10" is "0.1"). */
export function normalAmount(amount: string): string {
  const dot = amount.indexOf('.');
  let i = 0;
  const intEnd = dot < 0 ? amount.length : dot;
  while (i < intEnd - 1 && amount.charCodeAt(i) === 48) i++;
  const int = intEnd === 0 ? '0' : amount.slice(i, intEnd);
  if (dot < 0) return int;
  let end = amount.length;
  while (end > dot + 1 && amount.charCodeAt(end - 1) === 48) end--;
  return end > dot + 1 ? `${int}.${amount.slice(dot + 1, end)}` : int;
}

/** JSON with object keys sorted at every level and undefined members left out: one text per meaning. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return canonicalObject(value as Record<string, unknown>, false);
  return JSON.stringify(value);
}

/** An object's canonical text; for a request body (`body`), without its ref_id and with amounts normalised. */
function canonicalObject(object: Record<string, unknown>, body: boolean): string {
  const keys = Object.keys(object).sort();
  let out = '{';
  for (const k of keys) {
    let v = object[k];
    if (v === undefined || (body && k === 'ref_id')) continue;
    if (body && (k === 'amount' || k === 'total') && typeof v === 'string') v = normalAmount(v);
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v)}`;
  }
  return `${out}}`;
}

/**
 * A derived row's body as JSON with sorted keys (what is staged and sent: the same fields and values, in a fixed
 * order), and its content key (rowKey) from the same text when its amounts are already written plainly.
 */
export function stagedText(body: Record<string, unknown>): { text: string; key: string } {
  const text = canonicalObject(body, false);
  const plain = ['amount', 'total'].every(
    (k) => typeof body[k] !== 'string' || normalAmount(body[k] as string) === body[k],
  );
  return { text, key: plain && body.ref_id === undefined ? sha256hex(text) : rowKey(body) };
}

// crypto.hash, the one-shot form (every Node the package's engines allow has it): twice as fast on short texts.
export const sha256hex = (text: string): string => crypto.hash('sha256', text, 'hex');

/**
 * The content hash of a withdrawal request: every field but ref_id (profile_id, asset, network, destination,
 * amount or total, metadata, memo, identity, account, balance asset, fee id, beneficiary), amounts as numbers.
 * Encoding, line endings, quoting, column order, a BOM or a trailing newline of the file change nothing; nor does
 * the destination's spelling, which Stage.addValid makes its one spelling (canonicalAddress) before this is taken.
 */
export function rowKey(body: Record<string, unknown>): string {
  return sha256hex(canonicalObject(body, true));
}

/**
 * The ref_id of a row without one: its content hash and its occurrence among identical rows of the file (the
 * second of two identical payouts is `-2`), so the same rows in any file map to the same ref_ids.
 */
export function deriveRefId(key: string, occurrence: number): string {
  return `batch-${key.slice(0, KEY_HEX)}-${occurrence}`;
}

/** A key V8 orders before the others whatever the text's order (an array index), as a member of an object's text. */
const INDEX_KEY = /[{,]"(?:0|[1-9]\d*)":/;

/**
 * The staged body with its ref_id, as JSON.stringify({ ...JSON.parse(body), ref_id }) writes it. A body without a
 * ref_id whose keys parse back in the text's order (no array-index keys) takes it at its end without being parsed.
 */
export function withRefId(body: string, refId: string): string {
  if (body.includes('"ref_id":') || INDEX_KEY.test(body)) return JSON.stringify({ ...JSON.parse(body), ref_id: refId });
  return `${body.slice(0, -1)}${body.length > 2 ? ',' : ''}"ref_id":${JSON.stringify(refId)}}`;
}

/** The ref_id of the n-th occurrence of a row, from that of its first. */
export function nthRefId(first: string, index: number): string {
  return `${first.slice(0, first.lastIndexOf('-'))}-${index}`;
}

/** A repeat the operator asked for (--allow-repeat): the same row under a ref_id of this batch alone. */
export function saltedRefId(refId: string, batchId: string): string {
  return `${refId}-${batchId.slice(0, 8)}`;
}

/** A new batch's id: names it in the sent-ref_id record and salts its repeats. */
export function newBatchId(): string {
  return crypto.randomBytes(8).toString('hex');
}

/** A salted repeat's ref_id (`batch-<24 hex>-<n>-<8 hex>`, saltedRefId): the ref_id it repeats; else undefined. */
export function unsaltedRefId(refId: string): string | undefined {
  const m = /^(batch-[0-9a-f]{24}-\d+)-[0-9a-f]{8}$/.exec(refId);
  return m ? m[1] : undefined;
}
