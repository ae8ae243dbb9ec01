// coinop events listen --forward-to URL: follows the feed and POSTs each new event to the URL, signed with the
// context's secret, at least once, in order per object, retried until delivered (src/events/forwarder.ts), resuming
// after a restart or a kill from the checkpoint of what was delivered. Each delivery attempt is shown: a line on a
// terminal, NDJSON piped.
import type { Display, Ports } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import { Transport } from '../../client/transport.js';
import { type DeliveryReport, Forwarder } from '../../events/forwarder.js';
import { forwardingSecret, SIGNATURE_HEADER, secretFile } from '../../events/signature.js';
import type { Column } from '../../render/output.js';
import { palette } from '../../render/style.js';
import { followFeed, startFeed } from './follow.js';
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

/** A delivery attempt as a line for people: when, the answer, the event, the attempt and what comes next. */
function deliveryLine(display: Display, delivery: Record<string, unknown>): string {
  const p = palette(display.io.colour);
  const ok = delivery.delivered === true;
  const answer = delivery.status !== null ? String(delivery.status) : 'no answer';
  const what = ok ? p.green(`→ ${answer}`.padEnd(12)) : p.red(`✗ ${answer}`.padEnd(12));
  const next = ok
    ? ''
    : `  ${p.yellow(`retry in ${(Number(delivery.retry_in_ms) / 1000).toFixed(1)} s`)}${delivery.error ? p.dim(` (${String(delivery.error)})`) : ''}`;
  return `${p.dim(clockTime(delivery.at))}  ${what}  ${String(delivery.type).padEnd(44)}  ${String(delivery.event_id)}  attempt ${String(delivery.attempt)}  ${String(delivery.ms)} ms${next}`;
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
  const out = new LineWriter(display, DELIVERY_COLUMNS, (r) => deliveryLine(display, r));
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
    report: (r) => out.write(deliveryRecord(r, ctx.clock.now())),
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
      `${forwarder.pending} not yet delivered will be sent on the next start: coinop events listen --forward-to ${options.url}`
    );
  });
  const done = () => options.count !== undefined && forwarded >= options.count;
  await followFeed(
    ctx,
    start.feed,
    {
      room: () => forwarder.room,
      waitForRoom: () => forwarder.waitForRoom(),
      take: (entries) => forwarder.add(entries),
      done,
    },
    () =>
      out.status(
        `forwarding · ${forwarded} delivered in order · ${forwarder.pending} pending · ${forwarder.failures} failed attempts`,
      ),
  );
  forwarder.stop();
  out.clearStatus();
  start.writer.flush();
}
