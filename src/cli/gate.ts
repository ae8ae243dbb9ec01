// The gate (src/gate) for a command: the context's connection, its policy file, the audit trail and the data
// directory. Every command that moves money sends through the gate it gives.
import type { AuditEvent } from '../audit/entry.js';
import { contextPolicy } from './policy-enforce.js';
import { type MoneyRequest, MoneyGate, refuseRequest } from '../gate/gate.js';
import type { Connection } from './invocation.js';
import type { Ports } from './ports.js';

export function gateFor(
  ctx: Pick<Ports, 'service' | 'audit' | 'clock' | 'interrupt' | 'policy'>,
  conn: Connection,
  command: string,
): MoneyGate {
  return new MoneyGate({
    client: conn.client,
    context: { name: conn.context.name, environment: conn.context.environment },
    serviceId: conn.serviceId,
    dataDir: ctx.service.dataDir(),
    policy: () => contextPolicy(ctx, command, { quiet: true }),
    audit: {
      record: (event) => ctx.audit.record(event, conn),
      note: (event) => ctx.audit.note(event, conn),
    },
    catalogue: ctx.service.catalogue(),
    now: () => ctx.clock.now(),
    inFlight: (event: AuditEvent) => {
      let open = true;
      // Ended before the outcome came (Ctrl-C, SIGTERM): the request may have gone.
      ctx.interrupt.onExit(() =>
        open
          ? ctx.audit.note(
              {
                ...event,
                outcome: {
                  result: 'unknown',
                  error: { category: 'cancelled', message: 'interrupted while it was being sent' },
                },
              },
              conn,
            )
          : undefined,
      );
      return () => {
        open = false;
      };
    },
  });
}

/** Runs a check of the request before there is a connection (bad input): a refusal is recorded, then thrown. */
export async function refusedBeforeSending(
  ctx: Pick<Ports, 'audit'>,
  request: MoneyRequest,
  check: () => void,
): Promise<void> {
  try {
    check();
  } catch (e) {
    const refId = typeof request.body.ref_id === 'string' ? request.body.ref_id : null;
    await refuseRequest({ note: (event) => ctx.audit.note(event) }, { request, refId }, e);
  }
}
