// coinop api METHOD PATH: arguments and a real argv, parsed by the command's declared flags, to checked options, and to the usage error, in process.
import { describe, expect, it } from 'vitest';
import { parseApiOptions } from '../../src/commands/api/options.js';
import { API_FLAG_TABLE } from '../../src/commands/api/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

describe('api options', () => {
  const parse = (args: string[], argv: string[]) => parseApiOptions(args[0], args[1], parseArgv(API_FLAG_TABLE, argv));

  it.each([
    {
      args: ['get', 'transfer/transfers'],
      argv: ['-f', 'limit=5', '--field', 'a.b=1', '--field=a.b=2', '-f', 'q=x=y', '--paginate'],
      want: {
        method: 'GET',
        path: '/v2/transfer/transfers',
        fields: { limit: '5', a: { b: ['1', '2'] }, q: 'x=y' },
        sendsQuery: true,
        paginate: true,
        include: false,
        yes: false,
      },
    },
    {
      args: ['POST', '/_local/reset'],
      argv: ['-i', '--input', 'body.json'],
      want: {
        method: 'POST',
        path: '/_local/reset',
        fields: {},
        sendsQuery: false,
        input: 'body.json',
        paginate: false,
        include: true,
        yes: false,
      },
    },
    {
      args: ['delete', '/v2/transfer/x'],
      argv: [],
      want: {
        method: 'DELETE',
        path: '/v2/transfer/x',
        fields: {},
        sendsQuery: true,
        paginate: false,
        include: false,
        yes: false,
      },
    },
    {
      args: ['PUT', '/oauth2'],
      argv: [],
      want: {
        method: 'PUT',
        path: '/oauth2',
        fields: {},
        sendsQuery: false,
        paginate: false,
        include: false,
        yes: false,
      },
    },
    {
      args: ['POST', '/v2/transfer/crypto-withdrawals'],
      argv: ['-y'],
      want: {
        method: 'POST',
        path: '/v2/transfer/crypto-withdrawals',
        fields: {},
        sendsQuery: false,
        paginate: false,
        include: false,
        yes: true,
      },
    },
  ])('$args $argv', ({ args, argv, want }) => {
    expect(JSON.parse(JSON.stringify(parse(args, argv)))).toEqual(want);
  });

  it('keeps "constructor" and "__proto__" as ordinary fields', () => {
    const o = parse(['GET', '/v2/x'], ['-f', 'constructor=1', '-f', '__proto__=2']);
    expect(Object.keys(o.fields)).toEqual(['constructor', '__proto__']);
  });

  it.each([
    [['FETCH', '/v2/x'], [], 'METHOD: must be one of GET, POST, PUT, PATCH, DELETE'],
    [
      ['GET', 'https://api.example.com/v2/x'],
      [],
      'PATH: give a path such as /v2/transfer/transfers, not a URL (set COINOP_BASE_URL for another server)',
    ],
    [['GET', '/v2/a b'], [], 'PATH: must not contain spaces'],
    [['GET', '/v2/x'], ['-f', 'limit'], '--field: "limit" must be key=value'],
    [['GET', '/v2/x'], ['-f', '=5'], '--field: "=5" must be key=value'],
    [['POST', '/v2/x'], ['--paginate'], '--paginate: only with GET'],
    [['GET', '/v2/x'], ['--input', 'body.json'], '--input: a GET request has no body'],
  ])('%o %o: %s', (args, argv, message) => {
    expect(usageMessage(() => parse(args, argv))).toBe(message);
  });
});
