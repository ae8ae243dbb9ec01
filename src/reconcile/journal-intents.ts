// Intents from batch journals: every row a confirmed batch meant to pay, with the request body it sends (profile,
// destination, metadata) and what became of it, from the journals of a folder (<data dir>/batches, or --journals).
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type JournalRow, readJournal, type RowState } from '../batch/journal.js';
import { unsaltedRefId } from '../batch/ref-ids.js';
import type { Intent, IntentReader, Recorded } from './intents.js';

/** What a row's state says of the payment; a row refused by the service (failed, no transfer) moved nothing. */
function recordedOf(row: JournalRow): Recorded {
  const byState: Record<RowState, Recorded> = {
    planned: 'planned',
    sent: 'attempt',
    unknown: 'unknown',
    succeeded: 'sent',
    failed: row.transfer_id ? 'failed' : 'void',
    invalid: 'void',
  };
  return byState[row.state];
}

/** The problem a failed row recorded, as one line. */
function reasonOf(problem: string | null): string | undefined {
  if (!problem) return undefined;
  try {
    const p = JSON.parse(problem) as { title?: string; detail?: string; message?: string };
    return [p.title, p.detail ?? p.message].filter(Boolean).join(': ') || problem;
  } catch {
    return problem;
  }
}

/** A journal's row as an intent. */
function rowIntent(row: JournalRow, file: string, at: string, service?: string, salt?: string): Intent | undefined {
  if (!row.ref_id) return undefined;
  const body = (row.body ? JSON.parse(row.body) : {}) as Record<string, unknown>;
  const repeatOf = salt && row.ref_id.endsWith(`-${salt}`) ? unsaltedRefId(row.ref_id) : undefined;
  const intent: Intent = {
    ref_id: row.ref_id,
    kind: 'batch_row',
    source: `journal ${file} row ${row.row}`,
    at,
    ...(service ? { service } : {}),
    ...(typeof body.profile_id === 'string' ? { profile_id: body.profile_id } : {}),
    recorded: recordedOf(row),
    ...(repeatOf ? { repeat_of: repeatOf } : {}),
  };
  const fields: [keyof Intent, string | null][] = [
    ['asset', row.asset],
    ['network', row.crypto_network],
    ['destination', row.destination_address],
    ['amount', row.req_amount],
    ['total', row.req_total],
    ['fee', row.fee],
    ['transfer_id', row.transfer_id],
    ['reason', reasonOf(row.problem) ?? null],
  ];
  for (const [k, v] of fields) if (v) (intent as unknown as Record<string, string>)[k] = v;
  return intent;
}

/** The reader of every batch journal in `dir` (none when the folder does not exist). */
export function journalIntents(dir: string): IntentReader {
  return {
    name: `the batch journals in ${dir}`,
    *read() {
      let names: string[];
      try {
        names = readdirSync(dir)
          .filter((n) => n.endsWith('.journal'))
          .sort();
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for (const name of names) {
        const j = readJournal(join(dir, name));
        if (!j) continue;
        try {
          const at = j.meta.created_at ?? new Date(0).toISOString();
          for (const row of j.rows()) {
            const intent = rowIntent(row, basename(name), at, j.meta.service_id, j.meta.repeat_salt);
            if (intent) yield intent;
          }
        } finally {
          j.close();
        }
      }
    },
  };
}
