// What the gate's tests share: the raw `coinop api` withdrawal they send, and the audit log read back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS } from '../cli/helpers.js';

/** An audit log line as the tests read it. */
export interface Entry {
  seq: number;
  kind: string;
  ref_id: string | null;
  who: Record<string, unknown>;
  what: Record<string, unknown>;
  outcome: { result: string; error?: { category: string; message: string } };
}

/** `coinop api POST /v2/transfer/crypto-withdrawals` of `amount` BTC from the demo profile, with its ref_id. */
export const apiWithdrawal = (amount: string, ref: string, address = BTC_ADDRESS): string[] => [
  'api',
  'POST',
  '/v2/transfer/crypto-withdrawals',
  '-f',
  `profile_id=${DEMO.profileId}`,
  '-f',
  'asset=BTC',
  '-f',
  'crypto_network=BITCOIN',
  '-f',
  `destination_address=${address}`,
  '-f',
  `amount=${amount}`,
  '-f',
  `ref_id=${ref}`,
];

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
