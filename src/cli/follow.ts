// Following transfers until they end (COMPLETED or FAILED), or stablecoin conversions (SETTLED, CANCELLED or
// FAILED), with progress on stderr.
import type { Connection } from './invocation.js';
import type { Ports } from './ports.js';
import { CoinopError } from './errors.js';
import { statusLineAllowed } from './io.js';
import { palette, statusColour } from '../render/style.js';

export const TERMINAL_STATUSES = new Set(['COMPLETED', 'FAILED']);

/** What is followed: a transfer (the default) or a stablecoin conversion, how it is read, when it has ended. */
const FOLLOWED = {
  transfer: { op: 'getTransfer', ended: TERMINAL_STATUSES, watch: 'coinop transfers watch', open: 'PENDING' },
  conversion: {
    op: 'getStablecoinConversion',
    ended: new Set(['SETTLED', 'CANCELLED', 'FAILED']),
    watch: 'coinop conversions get',
    open: 'CREATED',
  },
} as const;

export interface FollowOptions {
  timeoutSeconds: number;
  /** What the ids are: transfers unless said. */
  object?: keyof typeof FOLLOWED;
  /** Called with each transfer whose status changed. */
  onChange?: (t: Record<string, unknown>) => void;
}

/** Polls the transfers until each has ended; returns them in the order given. */
export async function follow(
  ctx: Pick<Ports, 'display' | 'service' | 'clock'>,
  conn: Connection,
  ids: string[],
  options: FollowOptions,
): Promise<Record<string, unknown>[]> {
  const pollMs = ctx.service.pollMs();
  const p = palette(ctx.display.io.colourErr);
  const started = Date.now();
  const last = new Map<string, Record<string, unknown>>();
  const live = statusLineAllowed(ctx.display.io);
  const object = options.object ?? 'transfer';
  const { op, ended, watch, open } = FOLLOWED[object];
  for (;;) {
    const pending = ids.filter((id) => !ended.has(String(last.get(id)?.status)));
    for (const id of pending) {
      const { data } = await conn.client.call(op, { params: { id } });
      const before = last.get(id)?.status;
      last.set(id, data);
      if (data.status !== before) {
        if (live) ctx.display.io.err('\r\u001b[2K');
        ctx.display.io.err(
          `${p.dim(new Date(ctx.clock.now()).toISOString().slice(11, 19))} ${object} ${id} ${statusColour(p, String(data.status))}\n`,
        );
        options.onChange?.(data);
      }
    }
    const left = ids.filter((id) => !ended.has(String(last.get(id)?.status)));
    if (!left.length) return ids.map((id) => last.get(id)!);
    const waited = Math.round((Date.now() - started) / 1000);
    if (waited >= options.timeoutSeconds) {
      if (live) ctx.display.io.err('\r\u001b[2K');
      throw new CoinopError(
        'timeout',
        `stopped waiting after ${waited} s (--wait-timeout): ${left.length} ${object}(s) still ${open}: ${left.join(', ')}; they go on without coinop`,
        { hint: `follow on with ${watch} ${left.join(' ')}` },
      );
    }
    if (live) ctx.display.io.err(`\r\u001b[2K${p.dim(`waiting for ${left.length} ${object}(s) to end… ${waited} s`)}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
