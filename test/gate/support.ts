// What the gate's tests share: the audit log read back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An audit log line as the tests read it. */
export interface Entry {
  seq: number;
  kind: string;
  ref_id: string | null;
  who: Record<string, unknown>;
  what: Record<string, unknown>;
  outcome: { result: string; error?: { category: string; message: string } };
}

/** Every entry of the audit log in a data directory (none when it has no log yet). */
export function auditEntries(dataDir: string): Entry[] {
  try {
    return readFileSync(join(dataDir, 'audit', 'audit.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Entry);
  } catch {
    return [];
  }
}
