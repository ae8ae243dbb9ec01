// coinop events listen --forward-to URL: follows the feed and POSTs each new event to the URL, signed with the
// context's secret, at least once, in order per object, retried until delivered (src/events/forwarder.ts), resuming
// after a restart or a kill from the checkpoint of what was delivered. Each delivery is a line on a terminal; a
// target that is down is said once when it goes down and once when it comes back (the retries counted on the status
// line, when one is allowed), never a line per attempt. Piped, every attempt is an NDJSON record (the log scripts
// read), and the changes are plain lines on stderr. A summary ends the run.
import type { Display, Ports } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import { Transport } from '../../client/transport.js';
import { type DeliveryReport, Forwarder, type TargetChange, TargetHealth } from '../../events/forwarder.js';
import { forwardingSecret, SIGNATURE_HEADER, secretFile } from '../../events/signature.js';
import { type Column, LiveRows } from '../../render/output.js';
import { palette } from '../../render/style.js';
import { followFeed, startFeed, upToWanted } from './follow.js';
import { clockTime, LineWriter } from './lines.js';
import { type EventsListenOptions, parseEventsListenOptions } from './options.js';

/** Events held at once: delivered or not, from the checkpoint on (the feed is read no further ahead). */
const WINDOW = 1000;
/** The longest wait between two attempts of one delivery. */
const MAX_RETRY_MS = 10_000;

/** A delivery attempt as a record (NDJSON, CSV). */
function deliveryRecord(report: DeliveryReport, at: number): Record<string, unknown> {
  return {
    at: new Date(at).toISOString(),
    event_id: report.event.id,
    type: report.event.type,
    object_id: (report.event.object as { id?: unknown }).id ?? null,
    attempt: report.attempt,
    status: report.status ?? null,
    ms: report.ms,
    delivered: report.delivered,
    ...(report.error ? { error: report.error } : {}),
    ...(report.retryInMs !== undefined ? { retry_in_ms: report.retryInMs } : {}),
  };
}

const DELIVERY_COLUMNS: Column[] = [
  'at',
  'event_id',
  'type',
  'object_id',
  'attempt',
  'status',
  'ms',
  'delivered',
  'error',
  'retry_in_ms',
].map((key) => ({ key }));

/** A delivery as a line for people (the rule of src/render/table.ts): when, the answer, the event, the attempt. */
const LINE_COLUMNS: Column[] = [
  { key: 'at', rank: 2 },
  { key: 'answer', identity: true },
  { key: 'type', identity: true },
  { key: 'event', kind: 'id', short: true },
  { key: 'attempt', rank: 3 },
  { key: 'ms', rank: 3 },
];
const LINE_WIDTHS = [12, 5, 43, 36, 9, 8];

function deliveryLine(display: Display, rows: LiveRows, delivery: Record<string, unknown>): string {
  const p = palette(display.io.colour);
  return rows.line([
    p.dim(clockTime(delivery.at)),
    p.green(`→ ${String(delivery.status)}`),
    String(delivery.type),
    String(delivery.event_id),
    `attempt ${String(delivery.attempt)}`,
    `${String(delivery.ms)} ms`,
  ]);
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);

/** A change of the target's state, said once: "12:00:01 target down: connect ECONNREFUSED ...; retrying (attempt 1, next in 0.3 s)". */
function changeLine(display: Display, change: TargetChange, now: number): string {
  const p = palette(display.io.colourErr);
  const at = p.dim(clockTime(new Date(now).toISOString()));
  return change.kind === 'down'
    ? `${at} ${p.red('target down')}: ${change.reason}; retrying (attempt ${change.attempt}, next in ${seconds(change.retryInMs)})`
    : `${at} ${p.green('target back')} after ${seconds(change.downMs)} down (${change.failed} failed attempt${change.failed === 1 ? '' : 's'})`;
}

/** The status line: what was forwarded, and while the target is down, its reason and the retries so far. */
function statusText(health: TargetHealth, forwarded: number, pending: number): string {
  const down = health.outage;
  const state = down ? ` · target down (${down.reason}) · ${down.failed} retries` : '';
  return `forwarding · ${forwarded} delivered in order · ${pending} pending${state}`;
}

/** For the summary: how often the target was down and the attempts that failed ('' when it never was). */
function outages(health: TargetHealth): string {
  if (!health.downs) return '';
  const times = health.downs === 1 ? 'once' : `${health.downs} times`;
  return `; the target was down ${times} (${health.failed} failed attempt${health.failed === 1 ? '' : 's'})`;
}

/**
 * What listen takes: what the operator sees, the service and its feed, the time, what Ctrl-C says, the configuration
 * directory (where the context's signing secret is kept) and the version (the deliveries' user agent).
 */
export type ListenDeps = Pick<Ports, 'display' | 'service' | 'clock' | 'interrupt' | 'contexts' | 'version'>;

export async function listen(ctx: ListenDeps, raw: RawFlags): Promise<void> {
  const o = parseEventsListenOptions(raw, ctx.clock.now());
  ctx.interrupt.say('interrupted: nothing was forwarded yet');
  const context = ctx.service.context();
  const file = secretFile(ctx.contexts.configDir(), context.name);
  const { secret, created } = forwardingSecret(file, context.name);
  if (o.printSecret) {
    ctx.display.io.out(`${secret}\n`);
    return;
  }
  await forward(ctx, o as EventsListenOptions & { url: string }, { secret, created, file });
}

async function forward(
  ctx: ListenDeps,
  options: EventsListenOptions & { url: string },
  key: { secret: string; created: boolean; file: string },
): Promise<void> {
  const { display } = ctx;
  const conn = await ctx.service.connect();
  const start = await startFeed(ctx, conn, 'listen', options);
  const p = palette(display.io.colourErr);
  display.io.err(
    `Forwarding events to ${options.url} (context ${conn.context.name}, ${options.types.length ? options.types.join(', ') : 'every type'}), from ${start.from}\n` +
      `Signing secret ${p.bold(key.secret)}${key.created ? ' (new)' : ''}: the receiver's shared secret, like the Stripe CLI's whsec_. ` +
      `Check the ${SIGNATURE_HEADER} header with it (docs/events.md: "Forwarding events"). Kept in ${key.file}\n`,
  );
  const transport = new Transport({
    attempts: 1,
    timeoutMs: options.timeoutMs,
    userAgent: `coinop/${ctx.version}`,
    debug: display.debug(),
  });
  ctx.interrupt.onExit(() => transport.close());
  const rows = new LiveRows(LINE_COLUMNS, LINE_WIDTHS, display.io);
  const out = new LineWriter(display, DELIVERY_COLUMNS, (r) => deliveryLine(display, rows, r));
  if (out.format === 'table' && rows.note) out.note(p.dim(rows.note));
  const health = new TargetHealth();
  const said = (report: DeliveryReport) => {
    const change = health.note(report, ctx.clock.now());
    if (change) out.note(changeLine(display, change, ctx.clock.now()));
    // A person's list shows deliveries; an attempt that failed is in the counts (and in the machine formats' log).
    if (report.delivered || out.format !== 'table') out.write(deliveryRecord(report, ctx.clock.now()));
    // The status line follows the attempts too: a run that has taken its --count polls no more while it delivers.
    out.status(statusText(health, forwarded, forwarder.pending));
  };
  let forwarded = 0;
  const forwarder = new Forwarder({
    url: options.url,
    secret: key.secret,
    transport,
    concurrency: options.concurrency,
    retryBaseMs: ctx.service.retryBaseMs(),
    maxRetryMs: MAX_RETRY_MS,
    window: WINDOW,
    start: start.position,
    report: said,
    checkpoint: (position, wanted) => {
      forwarded += wanted;
      start.writer.save(position);
    },
  });
  ctx.interrupt.onExit(() => forwarder.stop());
  ctx.interrupt.say(() => {
    const at = forwarder.checkpointPosition;
    return (
      `interrupted: forwarding stopped; ${forwarded} event${forwarded === 1 ? '' : 's'} forwarded in order. ` +
      (at ? `Every event up to ${at.created_at} was delivered (the checkpoint, ${start.writer.file}). ` : '') +
      `${forwarder.pending} not yet delivered will be sent on the next start: coinop events listen --forward-to ${options.url}` +
      outages(health)
    );
  });
  const done = () => options.count !== undefined && forwarded >= options.count;
  // With --count N: the first N events of the types followed are taken, none after them (neither sent nor passed by the
  // checkpoint); once taken, the run waits for their delivery and ends.
  let taken = 0;
  const left = () => (options.count === undefined ? Number.POSITIVE_INFINITY : options.count - taken);
  await followFeed(
    ctx,
    start.feed,
    {
      room: () => Math.min(forwarder.room, left()),
      waitForRoom: async () => {
        await forwarder.waitForRoom();
        if (left() <= 0) await forwarder.drained();
      },
      take: (entries) => {
        const upTo = upToWanted(entries, left());
        taken += upTo.filter((e) => e.wanted).length;
        forwarder.add(upTo);
      },
      done,
    },
    () => out.status(statusText(health, forwarded, forwarder.pending)),
  );
  forwarder.stop();
  out.note(
    `forwarding ended: ${forwarded} event${forwarded === 1 ? '' : 's'} forwarded in order, ${forwarder.pending} pending${outages(health)}`,
  );
  start.writer.flush();
}
