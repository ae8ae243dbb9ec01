// coinop doctor: its one flag checked.
import { intFlag, type RawFlags } from '../../cli/options.js';
import { DOCTOR_FLAG_TABLE } from './flags.js';

export interface DoctorOptions {
  /** Milliseconds each endpoint may take to answer. */
  timeoutMs: number;
}

export function parseDoctorOptions(raw: RawFlags): DoctorOptions {
  const { timeout } = DOCTOR_FLAG_TABLE.read(raw);
  return { timeoutMs: intFlag('--timeout', timeout, 1, 60)! * 1000 };
}
