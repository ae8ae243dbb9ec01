// coinop limits: the limits on a transfer type, with what is used and what is left of each, and what one transfer may
// move now.
import { dec, fmt, isAmountString, type TransferLimit } from '../../contract/index.js';
import type { Ports } from '../../cli/ports.js';
import { TRANSFER_LIMIT_COLUMNS } from '../../render/columns.js';
import { durationText } from '../../render/time.js';
import type { LimitsOptions } from './options.js';

/** How long a limit is measured over, for people. */
export function periodText(seconds: string | undefined): string {
  const s = Number(seconds);
  if (!seconds || !Number.isSafeInteger(s) || s < 0) return seconds ?? '-';
  return s === 0 ? 'each transfer' : durationText(s);
}

/** A limit with what its period used so far (limit - remaining); a limit on each transfer uses nothing up. */
function withUsed(limit: TransferLimit): TransferLimit & { used?: string } {
  if (limit.period_seconds === '0' || !isAmountString(limit.limit) || !isAmountString(limit.remaining)) return limit;
  return { ...limit, used: fmt(dec(limit.limit).minus(limit.remaining)) };
}

/** The most one transfer may move now, per asset the limits are in: the smallest of what each limit leaves. */
function headroom(items: TransferLimit[]): string[] {
  const least = new Map<string, string>();
  for (const l of items) {
    if (!l.limit_asset || !isAmountString(l.remaining)) continue;
    const had = least.get(l.limit_asset);
    if (had === undefined || dec(l.remaining).lt(had)) least.set(l.limit_asset, l.remaining);
  }
  return [...least].map(([asset, amount]) => `${amount} ${asset}`);
}

export async function limits(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: LimitsOptions,
): Promise<void> {
  const conn = await service.connect();
  const { data } = await conn.client.call('listTransferLimits', {
    query: { transfer_type: options.type },
  });
  const items = (data.items ?? []).map(withUsed);
  const out = display.output(options.view);
  const rows = out.forPeople
    ? items.map((l) => ({
        ...l,
        period_seconds: periodText(l.period_seconds),
        transfer_types: l.transfer_types?.join(', '),
      }))
    : items;
  await out.list(rows, TRANSFER_LIMIT_COLUMNS, { empty: `no limits on ${options.type}` });
  if (out.format === 'table' && items.length)
    out.note(out.p.dim(`${options.type} now: at most ${headroom(items).join(', ')} in one transfer`));
}
