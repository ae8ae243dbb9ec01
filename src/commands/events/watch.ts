// coinop events watch: follows the feed and writes each new event as it comes (NDJSON piped, a live list on a
// terminal), resuming after a restart from a checkpoint kept per context and service (or --since).
import type { Event } from '../../contract/index.js';
import type { Ports } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import type { FeedEntry } from '../../events/feed.js';
import { advance, copyPosition } from '../../events/position.js';
import { EVENT_LIST_COLUMNS } from '../../render/columns.js';
import { type Column, LiveRows } from '../../render/output.js';
import { palette, statusColour } from '../../render/style.js';
import { followFeed, startFeed } from './follow.js';
import { clockTime, LineWriter } from './lines.js';
import { parseEventsWatchOptions } from './options.js';

/** The live list's columns (the rule of src/render/table.ts), with the widths they are laid out for. */
const WATCH_COLUMNS: Column[] = [
  { key: 'time', rank: 2 },
  { key: 'type', identity: true },
  { key: 'object', kind: 'id', short: true },
  { key: 'status', rank: 2 },
  { key: 'amount', rank: 3 },
];
const WATCH_WIDTHS = [12, 43, 36, 9, 24];

/** An event as a line of the live list. */
function eventLine(ctx: Pick<Ports, 'display'>, rows: LiveRows, event: Record<string, unknown>): string {
  const p = palette(ctx.display.io.colour);
  const o = (event.object ?? {}) as Record<string, unknown>;
  const status = typeof o.status === 'string' ? statusColour(p, o.status) : '';
  const amount = o.amount !== undefined ? `${String(o.amount)} ${String(o.asset ?? '')}` : String(o.address ?? '');
  return rows.line([p.dim(clockTime(event.created_at)), String(event.type), String(o.id ?? '-'), status, amount]);
}

export async function watch(
  ctx: Pick<Ports, 'display' | 'service' | 'clock' | 'interrupt'>,
  raw: RawFlags,
): Promise<void> {
  const o = parseEventsWatchOptions(raw, ctx.clock.now());
  const conn = await ctx.service.connect();
  const start = await startFeed(ctx, conn, 'watch', o);
  const rows = new LiveRows(WATCH_COLUMNS, WATCH_WIDTHS, ctx.display.io);
  const out = new LineWriter(ctx.display, EVENT_LIST_COLUMNS, (e) => eventLine(ctx, rows, e));
  let position = copyPosition(start.position);
  let written = 0;
  ctx.interrupt.say(
    () =>
      `interrupted: stopped watching after ${written} event${written === 1 ? '' : 's'}; nothing was changed. ` +
      (position
        ? `coinop events watch resumes after the event of ${position.created_at} (the checkpoint, ${start.writer.file})`
        : 'no event came: coinop events watch starts from the first one'),
  );
  ctx.display.io.err(`${palette(ctx.display.io.colourErr).dim(`watching ${start.from}; Ctrl-C to stop`)}\n`);
  if (out.format === 'table' && rows.note) ctx.display.io.err(`${palette(ctx.display.io.colourErr).dim(rows.note)}\n`);
  const done = () => o.count !== undefined && written >= o.count;
  await followFeed(
    ctx,
    start.feed,
    {
      room: () => (o.count !== undefined ? o.count - written : 1000),
      waitForRoom: async () => {},
      done,
      take: (entries: FeedEntry[]) => {
        for (const { event, wanted } of entries) {
          if (done()) return;
          if (wanted) {
            out.write(event as Event & Record<string, unknown>);
            written++;
          }
          position = advance(position, event);
          start.writer.save(position);
        }
      },
    },
    () =>
      out.status(
        `watching · ${written} event${written === 1 ? '' : 's'} · polled ${new Date(ctx.clock.now()).toISOString().slice(11, 19)}`,
      ),
  );
  out.clearStatus();
  start.writer.flush();
}
