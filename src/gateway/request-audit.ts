// Every request at the gateway in its audit chain, beside the money desk's own entries: a refusal at the door (no
// token, over a limit, above the role, cross-site, too large, a failed token request) and a forwarded write that moves
// no money (a profile's settings, an address) are appended before they are answered; a forwarded read is appended
// after it was answered, in the background, in groups (one transaction each), so a read never waits for the chain.
// Each is an entry of its own, kind gateway_request, in the one chain. A read's entry still queued when the process
// dies is lost (docs/gateway.md says so). Nothing of a request's body, headers or query goes in: no secret can.
import type { AuditEvent, AuditResult, AuditWho } from '../audit/entry.js';
import type { GatewayStore } from './store.js';

/** One request as its entry names it: who (an operator's name, or 'unauthenticated'), what and how it ended. */
export interface RequestNote {
  /** Who the entry names (MoneyDesk.whoOf). */
  who: AuditWho;
  method: string;
  /** The contract's operation id, when the path is one of its; else the path (without its query). */
  operation?: string;
  path: string;
  status: number;
  result: AuditResult;
  /** The remote address, for a request no operator's token vouches for. */
  address?: string;
}

/** How long a read's entry waits for others to be appended with it, and how many go in one transaction at most. */
const GROUP_MS = 20;
const GROUP_MAX = 500;

export class RequestAudit {
  private queued: { who: AuditWho; event: AuditEvent }[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(private readonly store: GatewayStore) {}

  /** Appended now, before the request is answered; a store that fails does not change the answer. */
  async record(note: RequestNote): Promise<void> {
    await this.store.appendAudit([entryOf(note)]).catch(() => undefined);
  }

  /** Appended in the background with others (a read's). */
  later(note: RequestNote): void {
    this.queued.push(entryOf(note));
    if (!this.timer && !this.flushing) this.timer = setTimeout(() => void this.flush(), GROUP_MS).unref();
  }

  /** Appends what is queued (every group), and waits for it: on close. */
  async flush(): Promise<void> {
    this.timer = undefined;
    if (this.flushing) return this.flushing;
    this.flushing = (async () => {
      while (this.queued.length) {
        const group = this.queued.splice(0, GROUP_MAX);
        await this.store.appendAuditGroup(group).catch(() => undefined);
      }
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }
}

function entryOf(note: RequestNote): { who: AuditWho; event: AuditEvent } {
  return {
    who: note.who,
    event: {
      kind: 'gateway_request',
      ref_id: null,
      what: {
        method: note.method,
        ...(note.operation ? { operation: note.operation } : {}),
        path: note.path,
        http_status: note.status,
        ...(note.address ? { address: note.address } : {}),
      },
      outcome: { result: note.result },
    },
  };
}
