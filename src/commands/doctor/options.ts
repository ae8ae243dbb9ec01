// coinop doctor: its one flag checked.
import { intFlag, type RawFlags, readFlags } from '../../cli/options.js';

export interface DoctorOptions {
  /** Milliseconds each endpoint may take to answer. */
  timeoutMs: number;
}

export function parseDoctorOptions(raw: RawFlags): DoctorOptions {
  const f = readFlags(raw);
  return { timeoutMs: intFlag('--timeout', f.defaulted('timeout'), 1, 60)! * 1000 };
}
