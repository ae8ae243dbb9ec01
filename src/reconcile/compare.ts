// One transfer against the intent it pays: what differs, and the class that makes.
import { dec } from '../contract/index.js';
import type { Transfer } from '../contract/index.js';
import type { Line, LineClass } from './classes.js';
import type { Movement } from './conversions.js';
import { addressKey, type Intent } from './intents.js';

/** Statuses that ended with nothing paid (a conversion's source given back), and those that ended paid. */
export const ENDED_UNPAID = ['FAILED', 'CANCELLED'];
const PAID = ['COMPLETED', 'SETTLED'];

const sameAmount = (was: string, now: string | undefined) => {
  try {
    return now !== undefined && dec(was).eq(dec(now));
  } catch {
    return was === now;
  }
};

/** Where a transfer went: its crypto address, or its fiat account. */
const destinationOf = (t: Transfer): string | undefined => t.destination_address ?? t.fiat_account_id;

/** What the transfer does otherwise than the intent recorded, one "field: recorded, now" each. */
export function differences(transfer: Movement, intent: Intent): string[] {
  const [t, i] = [transfer, intent];
  const out: string[] = [];
  const say = (field: string, was: string, now: string | undefined) =>
    out.push(`${field}: ${was} recorded, ${now ?? 'none'} now`);
  if (i.asset && i.asset !== t.asset) say('asset', i.asset, t.asset);
  if (i.target_asset && i.target_asset !== t.target_asset) say('target_asset', i.target_asset, t.target_asset);
  if (i.network && i.network !== t.crypto_network) say('network', i.network, t.crypto_network);
  if (i.destination && addressKey(i.destination) !== addressKey(destinationOf(t)))
    say('destination', i.destination, destinationOf(t));
  if (i.profile_id && i.profile_id !== t.profile_id) say('profile_id', i.profile_id, t.profile_id);
  if (i.amount && !sameAmount(i.amount, t.amount)) say('amount', i.amount, t.amount);
  if (i.total && !sameAmount(i.total, t.total)) say('total', i.total, t.total);
  if (i.fee && !sameAmount(i.fee, t.fee)) say('fee', i.fee, t.fee);
  return out;
}

/** Why a transfer failed, as the service says it (status_details' messages, else the secondary status). */
export function failureReason(transfer: Transfer): string {
  const t = transfer;
  const details = (t.status_details ?? {}) as Record<string, unknown>;
  const said = Object.entries(details).map(([k, v]) => {
    const m = v && typeof v === 'object' ? (v as { message?: unknown }).message : v;
    return typeof m === 'string' ? `${k}: ${m}` : k;
  });
  const secondary = (t.secondary_status as { name?: unknown } | undefined)?.name;
  return said.join('; ') || (typeof secondary === 'string' ? secondary : 'the service gives no reason');
}

/** A line for a transfer (and the intent it pays, when one does). */
export function lineOf(
  cls: LineClass,
  transfer: Movement | undefined,
  intent: Intent | undefined,
  reason?: string,
  diff?: string[],
): Line {
  const [t, i] = [transfer, intent];
  const line: Line = {
    class: cls,
    asset: t?.asset ?? i?.asset ?? '',
    amount: t?.amount ?? i?.amount ?? i?.total ?? '',
  };
  const put = (field: keyof Line, value: unknown) => {
    if (value !== undefined && value !== null && value !== '')
      (line as unknown as Record<string, unknown>)[field] = value;
  };
  put('intended_amount', i?.amount ?? i?.total);
  put('fee', t?.fee);
  put('ref_id', t?.ref_id ?? i?.ref_id);
  put('transfer_id', t?.id ?? i?.transfer_id);
  put('type', t?.type);
  put('status', t?.status);
  put('network', t?.crypto_network ?? i?.network);
  put('destination', (t ? destinationOf(t) : undefined) ?? i?.destination);
  put('profile_id', t?.profile_id ?? i?.profile_id);
  put('created_at', t?.created_at);
  put('intent', i?.source);
  put('kind', i?.kind);
  put('target_asset', t?.target_asset ?? i?.target_asset);
  put('reason', reason);
  if (diff?.length) line.differences = diff;
  return line;
}

/** The line of a transfer paying an intent: failed, paid otherwise, in flight or matched. */
export function judged(transfer: Movement, intent: Intent, note?: string): Line {
  const [t, i] = [transfer, intent];
  const with_ = (r: string | undefined) => [r, note].filter(Boolean).join('; ') || undefined;
  if (ENDED_UNPAID.includes(t.status)) return lineOf('failed', t, i, with_(failureReason(t)));
  const diff = differences(t, i);
  if (diff.length) return lineOf('mismatch', t, i, with_(`paid otherwise than recorded: ${diff.join('; ')}`), diff);
  if (!PAID.includes(t.status)) return lineOf('in_flight', t, i, with_(`the service holds it ${t.status}`));
  return lineOf('matched', t, i, with_(undefined));
}
