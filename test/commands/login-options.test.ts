// coinop login: raw flags (with the global ones) to checked options, and raw flags to the usage error, in process.
import { describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/contract/enums.js';
import { parseLoginOptions } from '../../src/commands/auth/options.js';
import { ENVIRONMENTS } from '../../src/config/environments.js';
import { usageMessage } from './support.js';

describe('login options', () => {
  it.each([
    { raw: {}, want: { secretFromStdin: false } },
    {
      raw: {
        env: 'sandbox',
        clientId: '3f2a',
        clientSecretStdin: true,
        scopes: ` ${ALL_SCOPES[0]}, ${ALL_SCOPES[1]},`,
        name: 'sb',
        profileId: 'p1',
      },
      want: {
        env: 'sandbox',
        clientId: '3f2a',
        secretFromStdin: true,
        scopes: [ALL_SCOPES[0], ALL_SCOPES[1]],
        name: 'sb',
        profileId: 'p1',
      },
    },
    // --profile names the profile when --name does not; --name wins.
    { raw: { profile: 'work' }, want: { secretFromStdin: false, name: 'work' } },
    { raw: { profile: 'work', name: 'home' }, want: { secretFromStdin: false, name: 'home' } },
    { raw: { context: 'work' }, want: { secretFromStdin: false, name: 'work' } },
    { raw: { context: 'work', name: 'home' }, want: { secretFromStdin: false, name: 'home' } },
    {
      raw: {
        env: 'custom',
        baseUrl: 'https://api.example.com//',
        authUrl: 'http://auth.example.com',
        wsUrl: 'wss://ws.example.com/',
      },
      want: {
        env: 'custom',
        secretFromStdin: false,
        baseUrl: 'https://api.example.com',
        authUrl: 'http://auth.example.com',
        wsUrl: 'wss://ws.example.com',
      },
    },
    // A sandbox or production profile's addresses instead of the hosted ones: https and wss.
    {
      raw: { env: 'production', authUrl: 'https://auth.example.com/', wsUrl: 'wss://ws.example.com' },
      want: {
        env: 'production',
        secretFromStdin: false,
        authUrl: 'https://auth.example.com',
        wsUrl: 'wss://ws.example.com',
      },
    },
    // Without --env the addresses wait for the environment to be chosen.
    { raw: { baseUrl: 'http://127.0.0.1:9' }, want: { secretFromStdin: false, baseUrl: 'http://127.0.0.1:9' } },
  ])('$raw', ({ raw, want }) => {
    expect(JSON.parse(JSON.stringify(parseLoginOptions(raw)))).toEqual(want);
  });

  it.each([
    [{ scopes: 'everything' }, `--scopes: "everything" is not a scope (${ALL_SCOPES.join(', ')})`],
    [{ scopes: ' , ' }, '--scopes: choose at least one scope'],
    [{ env: 'moon' }, `--env: must be one of ${ENVIRONMENTS.join(', ')}`],
    [
      { env: 'custom', baseUrl: 'api.example.com' },
      '--base-url: must be an absolute URL such as https://api.example.com',
    ],
    [{ env: 'custom', authUrl: 'ftp://auth.example.com' }, '--auth-url: must start with http:// or https://'],
    [{ env: 'custom', wsUrl: 'https://ws.example.com' }, '--ws-url: must start with ws:// or wss://'],
    [{ env: 'custom', wsUrl: 'ws' }, '--ws-url: must be an absolute URL such as wss://ws.example.com/'],
    [
      { env: 'local', baseUrl: 'https://api.example.com' },
      '--base-url/--auth-url/--ws-url: not with --env local (use --env custom for another server)',
    ],
    [
      { env: 'sandbox', baseUrl: 'http://api.example.com' },
      "--base-url: a sandbox profile's addresses must start with https:// (its secret goes only over https)",
    ],
    [
      { env: 'production', wsUrl: 'ws://ws.example.com' },
      "--ws-url: a production profile's addresses must start with wss:// (its secret goes only over https)",
    ],
    [{ name: 'my profile' }, '--name: use letters, digits, dot, dash and underscore (at most 64)'],
    [{ name: 'x'.repeat(65) }, '--name: use letters, digits, dot, dash and underscore (at most 64)'],
    [{ profile: 'a/b' }, '--name: use letters, digits, dot, dash and underscore (at most 64)'],
    [{ name: 'constructor' }, '--name: "constructor" is reserved; choose another name'],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseLoginOptions(raw))).toBe(message);
  });
});
