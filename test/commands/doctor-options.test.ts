// coinop doctor: its --timeout flag checked (seconds, 1 to 60) into milliseconds.
import { describe, expect, it } from 'vitest';
import { DOCTOR_FLAG_TABLE } from '../../src/commands/doctor/flags.js';
import { parseDoctorOptions as parseRaw } from '../../src/commands/doctor/options.js';
import { parseArgv } from '../support/argv.js';

const parseDoctorOptions = (argv: string[]) => parseRaw(parseArgv(DOCTOR_FLAG_TABLE, argv));
import { usageMessage } from './support.js';

describe('parseDoctorOptions', () => {
  it('waits 5 seconds by default', () => {
    expect(parseDoctorOptions([])).toEqual({ timeoutMs: 5000 });
  });

  it.each([
    ['5', 5000],
    ['60', 60_000],
    ['1', 1000],
  ])('--timeout %s', (value, ms) => {
    expect(parseDoctorOptions(['--timeout', value])).toEqual({ timeoutMs: ms });
  });

  it.each([
    ['0', '--timeout: must be from 1 to 60'],
    ['61', '--timeout: must be from 1 to 60'],
    ['soon', '--timeout: must be a whole number from 1 to 60'],
  ])('--timeout %s is refused', (value, message) => {
    expect(usageMessage(() => parseDoctorOptions(['--timeout', value]))).toBe(message);
  });
});
