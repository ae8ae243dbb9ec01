// coinop local start: a real argv to checked options, and to the usage error, in process.
import { describe, expect, it } from 'vitest';
import { LOCAL_START_FLAG_TABLE } from '../../src/commands/local/flags.js';
import { parseLocalStartOptions } from '../../src/commands/local/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const parse = (argv: string[]) => parseLocalStartOptions(parseArgv(LOCAL_START_FLAG_TABLE, argv));

describe('local start options', () => {
  it.each([
    { argv: [], want: { port: 7357, host: '127.0.0.1', memory: false, rateLimits: true } },
    {
      argv: ['--port', '0', '--host', '::1', '--db', 'state.db', '--memory', '--seed', '42'],
      want: { port: 0, host: '::1', db: 'state.db', memory: true, seed: 42, rateLimits: true },
    },
    {
      argv: ['--no-rate-limits'],
      want: { port: 7357, host: '127.0.0.1', memory: false, rateLimits: false },
    },
  ])('$argv', ({ argv, want }) => {
    expect(JSON.parse(JSON.stringify(parse(argv)))).toEqual(want);
  });

  it.each([
    [['--port', '65536'], '--port: must be from 0 to 65535'],
    [['--port', 'http'], '--port: must be a whole number from 0 to 65535'],
    [['--seed=-1'], '--seed: must be a whole number from 0 to 2147483647'],
    [['--seed', '2147483648'], '--seed: must be from 0 to 2147483647'],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => parse(argv))).toBe(message);
  });
});
