// Intents from a coinop gateway's audit chain: the requests the gateway's money desk recorded (each operator's,
// through the team's gate) read through its API (GET /_gateway/audit) a page of lines at a time, never the whole chain
// at once. Each line is read as the audit log's (audit-intents.ts); the gateway's own requests are its upstream's,
// which is the service a reconciliation through the gateway reads, so the entries' service is not compared.
import { parseEntry } from '../audit/entry.js';
import { AUDIT_INTENT_KINDS, intentOfEntry } from './audit-intents.js';
import type { Intent, IntentReader } from './intents.js';

/** One page of the chain's lines (JSON text) after the entry numbered `after`: an empty page ends it. */
export type ChainPage = (after: number) => Promise<string[]>;

/** The reader of a gateway's chain (`name` says which, for messages). */
export function gatewayIntents(name: string, page: ChainPage): IntentReader {
  return {
    name: `the audit chain of the coinop gateway ${name}`,
    async *read(): AsyncGenerator<Intent> {
      for (let after = 0; ; ) {
        const lines = await page(after);
        if (!lines.length) return;
        for (const text of lines) {
          const e = parseEntry(Buffer.from(text, 'utf8'));
          if (!e) throw new Error(`the gateway's audit chain has a line that is no entry after seq ${after}`);
          after = e.seq;
          const intent = AUDIT_INTENT_KINDS[e.kind] ? intentOfEntry(e) : undefined;
          if (intent) yield { ...intent, source: `gateway audit seq ${e.seq}`, service: undefined };
        }
      }
    },
  };
}
