// coinop login: a real argv (with the global flags that name the context) to checked options, and to the usage
// error, in process.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/contract/enums.js';
import { LOGIN_FLAG_TABLE } from '../../src/commands/auth/flags.js';
import { GLOBAL_FLAG_TABLE } from '../../src/cli/global-flags.js';
import { parseLoginOptions } from '../../src/commands/auth/options.js';
import { ENVIRONMENTS } from '../../src/config/environments.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

/** login's flags, and --context and --profile as the program declares them (optsWithGlobals hands them over). */
const declares = (cmd: Command) => GLOBAL_FLAG_TABLE.declare(LOGIN_FLAG_TABLE.declare(cmd));
const parse = (argv: string[]) => parseLoginOptions(parseArgv(declares, argv));

describe('login options', () => {
  it.each([
    { argv: [], want: { secretFromStdin: false } },
    {
      argv: [
        '--env',
        'sandbox',
        '--client-id',
        '3f2a',
        '--client-secret-stdin',
        '--scopes',
        ` ${ALL_SCOPES[0]}, ${ALL_SCOPES[1]},`,
        '--name=sb',
        '--profile-id',
        'p1',
      ],
      want: {
        env: 'sandbox',
        clientId: '3f2a',
        secretFromStdin: true,
        scopes: [ALL_SCOPES[0], ALL_SCOPES[1]],
        name: 'sb',
        profileId: 'p1',
      },
    },
    // --context (or its old name --profile) names the context when --name does not; --name wins.
    { argv: ['--profile', 'work'], want: { secretFromStdin: false, name: 'work' } },
    { argv: ['--profile', 'work', '--name', 'home'], want: { secretFromStdin: false, name: 'home' } },
    { argv: ['--context', 'work'], want: { secretFromStdin: false, name: 'work' } },
    { argv: ['--context', 'work', '--name', 'home'], want: { secretFromStdin: false, name: 'home' } },
    {
      argv: [
        '--env=custom',
        '--base-url=https://api.example.com//',
        '--auth-url=http://auth.example.com',
        '--ws-url=wss://ws.example.com/',
      ],
      want: {
        env: 'custom',
        secretFromStdin: false,
        baseUrl: 'https://api.example.com',
        authUrl: 'http://auth.example.com',
        wsUrl: 'wss://ws.example.com',
      },
    },
    // A sandbox or production context's addresses instead of the hosted ones: https and wss.
    {
      argv: ['--env', 'PRODUCTION', '--auth-url', 'https://auth.example.com/', '--ws-url', 'wss://ws.example.com'],
      want: {
        env: 'production',
        secretFromStdin: false,
        authUrl: 'https://auth.example.com',
        wsUrl: 'wss://ws.example.com',
      },
    },
    // Without --env the addresses wait for the environment to be chosen.
    { argv: ['--base-url', 'http://127.0.0.1:9'], want: { secretFromStdin: false, baseUrl: 'http://127.0.0.1:9' } },
  ])('$argv', ({ argv, want }) => {
    expect(JSON.parse(JSON.stringify(parse(argv)))).toEqual(want);
  });

  it.each([
    [['--scopes', 'everything'], `--scopes: "everything" is not a scope (${ALL_SCOPES.join(', ')})`],
    [['--scopes', ' , '], '--scopes: choose at least one scope'],
    [['--env', 'moon'], `--env: must be one of ${ENVIRONMENTS.join(', ')}`],
    [
      ['--env', 'custom', '--base-url', 'api.example.com'],
      '--base-url: must be an absolute URL such as https://api.example.com',
    ],
    [['--env', 'custom', '--auth-url', 'ftp://auth.example.com'], '--auth-url: must start with http:// or https://'],
    [['--env', 'custom', '--ws-url', 'https://ws.example.com'], '--ws-url: must start with ws:// or wss://'],
    [['--env', 'custom', '--ws-url', 'ws'], '--ws-url: must be an absolute URL such as wss://ws.example.com/'],
    [
      ['--env', 'local', '--base-url', 'https://api.example.com'],
      '--base-url/--auth-url/--ws-url: not with --env local (use --env custom for another server)',
    ],
    [
      ['--env', 'sandbox', '--base-url', 'http://api.example.com'],
      "--base-url: a sandbox context's addresses must start with https:// (its secret goes only over https)",
    ],
    [
      ['--env', 'production', '--ws-url', 'ws://ws.example.com'],
      "--ws-url: a production context's addresses must start with wss:// (its secret goes only over https)",
    ],
    [['--name', 'my context'], '--name: use letters, digits, dot, dash and underscore (at most 64)'],
    [['--name', 'x'.repeat(65)], '--name: use letters, digits, dot, dash and underscore (at most 64)'],
    [['--profile', 'a/b'], '--name: use letters, digits, dot, dash and underscore (at most 64)'],
    [['--name', 'constructor'], '--name: "constructor" is reserved; choose another name'],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => parse(argv))).toBe(message);
  });
});
