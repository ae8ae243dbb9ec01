// What an audit entry's outcome says, worked out once for every writer of the trail (the commands, coinop mcp): what an
// error means for an attempt that was under way, a fee quote's outcome, a transfer's, and what the service charged.
import { toCoinopError } from '../errors.js';
import type { AuditOutcome, AuditWhat } from './entry.js';

/** What an error means for an attempt that was under way. */
export function outcomeOfError(error: unknown): AuditOutcome {
  const ce = toCoinopError(error);
  const status = ce.problem?.status;
  const sent = (error as { sent?: unknown } | undefined)?.sent;
  let result: AuditOutcome['result'];
  if (ce.problem) result = status !== undefined && status >= 500 ? 'unknown' : 'refused';
  else if (ce.category === 'network') result = sent === false ? 'failed' : 'unknown';
  else if (['usage', 'auth', 'api', 'policy'].includes(ce.category)) result = 'refused';
  else if (ce.category === 'file') result = 'failed';
  else result = 'unknown';
  const name = ce.problem?.type && ce.problem.type !== 'about:blank' ? ce.problem.type.split('/').pop() : undefined;
  return {
    result,
    error: {
      category: ce.category,
      message: ce.message.length > 500 ? `${ce.message.slice(0, 499)}…` : ce.message,
      ...(name ? { problem: name } : {}),
      ...(status !== undefined ? { status } : {}),
    },
  };
}

/** A fee quote's outcome: its id, fee and how long it holds. */
export function quoteOutcome(quote: { id: string; fee: string; expires_at: string }): AuditOutcome {
  return { result: 'sent', fee_id: quote.id, fee: quote.fee, expires_at: quote.expires_at };
}

/** The outcome of a transfer the service holds, for the audit log: FAILED is failed, anything else was sent. */
export function transferOutcome(transfer: Record<string, unknown>, alreadySubmitted = false) {
  return {
    result: transfer.status === 'FAILED' ? ('failed' as const) : ('sent' as const),
    transfer_id: String(transfer.id),
    status: typeof transfer.status === 'string' ? transfer.status : undefined,
    ...(alreadySubmitted ? { already_submitted: true } : {}),
  };
}

/** What the service's transfer adds to what was asked: the fee and total it charged. */
export const charged = (t: Record<string, unknown>): AuditWhat => ({
  ...(typeof t.fee === 'string' ? { fee: t.fee } : {}),
  ...(typeof t.total === 'string' ? { total: t.total } : {}),
});
