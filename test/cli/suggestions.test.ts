// "Did you mean": the one helper (src/contract/suggest.ts), the unknown command searched across every group
// (src/cli/command-suggest.ts), and each closed choice of the command line naming a close value in its one line.
// Also the hint of a value not asked for, fit to why nothing was asked (src/cli/prompt.ts).
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeNames, didYouMean, editDistance, oneOfRule } from '../../src/contract/suggest.js';
import { commandPaths, commandSuggestions } from '../../src/cli/command-suggest.js';
import { makeProgram } from '../../src/commands/program.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import { Prompter } from '../../src/cli/prompt.js';
import { ASSETS, CRYPTO_NETWORKS, TRANSFER_STATUSES } from '../../src/contract/index.js';
import { BTC_ADDRESS, sandbox, type Sandbox } from './helpers.js';

describe('the suggestion helper', () => {
  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('BTX', 'BTC')).toBe(1);
    expect(editDistance('PENDNG', 'PENDING')).toBe(1);
    expect(editDistance('ETHEREMU', 'ETHEREUM')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('names the closest only, in any case and with - _ or a space alike', () => {
    expect(closeNames('BTX', Object.keys(ASSETS))).toEqual(['BTC']);
    expect(closeNames('pendng', TRANSFER_STATUSES)).toEqual(['PENDING']);
    expect(closeNames('bitcoin-cash', CRYPTO_NETWORKS)).toEqual(['BITCOIN_CASH']);
    expect(closeNames('PEN', Object.keys(ASSETS))).toEqual(['PENGU']);
    // Nothing close: nothing said, rather than a guess.
    expect(closeNames('MOON', Object.keys(ASSETS))).toEqual([]);
    expect(closeNames('', Object.keys(ASSETS))).toEqual([]);
    expect(closeNames('x', ['a', 'b'])).toEqual(['a', 'b']);
    expect(closeNames('x', ['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'c']);
  });

  it('says it in one clause; a long list is left out when a close name is found', () => {
    expect(didYouMean('BTX', ['BTC', 'ETH'])).toBe(' (did you mean BTC?)');
    expect(didYouMean('ab', ['aa', 'bb'])).toBe(' (did you mean aa or bb?)');
    expect(didYouMean('zzz', ['BTC'])).toBe('');
    expect(oneOfRule('PENDNG', TRANSFER_STATUSES)).toBe(
      'must be one of PENDING, COMPLETED, FAILED (did you mean PENDING?)',
    );
    expect(oneOfRule('NOPE', TRANSFER_STATUSES)).toBe('must be one of PENDING, COMPLETED, FAILED');
    expect(oneOfRule('BITCOIM', CRYPTO_NETWORKS)).toBe(
      `"BITCOIM" is not one of the ${CRYPTO_NETWORKS.length} choices (did you mean BITCOIN?)`,
    );
    expect(oneOfRule('NOPE', CRYPTO_NETWORKS)).toBe(`must be one of ${CRYPTO_NETWORKS.join(', ')}`);
  });
});

describe('an unknown command, across the groups', () => {
  const io = makeIO({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() }, { env: {} });
  const program = makeProgram(createContext(io, {}, '0.0.0'));

  it("knows every visible command's path, hidden ones left out", () => {
    const paths = commandPaths(program).map((p) => p.join(' '));
    expect(paths).toContain('transfers list');
    expect(paths).toContain('withdraw batch');
    expect(paths).not.toContain('__complete');
  });

  it.each([
    [['transfer', 'list'], ['transfers list']],
    [['withdraw-batch'], ['withdraw batch']],
    [['batch'], ['withdraw batch']],
    [['transfers', 'lst'], ['transfers list']],
    [['ticker-'], ['ticker']],
    [['xyzzy'], []],
    // A subcommand's name that many groups share is no suggestion.
    [['list'], []],
  ])('%j → %j', (typed, expected) => {
    expect(commandSuggestions(program, typed)).toEqual(expected);
  });
});

describe('the hint of a value not asked for', () => {
  const prompter = (tty: boolean, noInput: boolean) => {
    const stream = () => Object.assign(new PassThrough(), { isTTY: tty });
    return new Prompter(makeIO({ stdin: stream(), stdout: stream(), stderr: stream() }, { env: {}, noInput }));
  };

  it('off a terminal: a terminal would ask', () => {
    expect(prompter(false, false).hint('MARKET')).toBe('give MARKET, or run on a terminal to be asked');
    expect(prompter(false, true).hint('ID', 'pick one')).toBe('give ID, or run on a terminal to pick one');
  });

  it('on a terminal with --no-input: says that is why, not to run on a terminal', () => {
    const p = prompter(true, true);
    expect(p.allowed).toBe(false);
    expect(p.hint('MARKET')).toBe('give MARKET (with --no-input or COINOP_NO_INPUT nothing is asked)');
  });

  it('with --yes: says --yes', () => {
    const p = prompter(true, false);
    p.askNothing('--yes');
    expect(p.hint('--asset')).toBe('give --asset (with --yes nothing is asked)');
  });
});

describe('every closed choice of the command line names a close value', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
    writeFileSync(
      join(sb.dir, 'rows.csv'),
      `asset,crypto_network,destination_address,amount\nBTC,BITCOIM,${BTC_ADDRESS},0.001\n`,
    );
  });
  afterAll(async () => sb?.close());

  it.each([
    [['transfer', 'list'], "error: unknown command 'transfer list' (did you mean transfers list?)"],
    [['withdraw-batch', 'rows.csv'], "error: unknown command 'withdraw-batch' (did you mean withdraw batch?)"],
    [['batch'], "error: unknown command 'batch' (did you mean withdraw batch?)"],
    // A subcommand mistyped under a command that runs itself: not "too many arguments", and never the command itself.
    [['withdraw', 'bach', 'rows.csv'], "error: unknown command 'withdraw bach' (did you mean withdraw batch?)"],
    [['withdraw', 'fait'], "error: unknown command 'withdraw fait' (did you mean withdraw fiat?)"],
    [['nosuchcommand'], "error: unknown command 'nosuchcommand'"],
    [
      ['transfers', 'list', '--status', 'PENDNG'],
      '--status: must be one of PENDING, COMPLETED, FAILED (did you mean PENDING?)',
    ],
    [['transfers', 'list', '--type', 'CRYPTO_DEPOSTI'], '(did you mean CRYPTO_DEPOSIT?)'],
    [['transfers', 'list', '--asset', 'BTX'], '--asset: BTX is not an asset of this service (did you mean BTC?)'],
    [['transfers', 'list', '--network', 'SOLAN'], '(did you mean SOLANA?)'],
    [['balances', 'BTX'], 'ASSET: BTX is not an asset of this service (did you mean BTC?)'],
    [
      ['withdraw', '--asset', 'BTX', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.01', '--yes'],
      '--asset: BTX is not a crypto asset this service withdraws (did you mean BTC?)',
    ],
    [
      ['withdraw', '--asset', 'BTC', '--network', 'BITCOIM', '--address', BTC_ADDRESS, '--amount', '0.01', '--yes'],
      '(did you mean BITCOIN?)',
    ],
    [['prices', 'BTCUSX'], 'MARKET: "BTCUSX" is not a market (did you mean BTCUSD?)'],
    [['prices', 'BTCUSD', '--increment', 'ONE_DYA'], '(did you mean ONE_DAY?)'],
    [['-o', 'tabel', 'balances'], '--output: must be one of table, json, ndjson, csv (did you mean table?)'],
    [['withdraw', 'batch', 'ROWS', '--dry-run'], '(did you mean BITCOIN?)'],
  ])('%j', async (args, message) => {
    const r = await sb.runIn(args.map((a) => (a === 'ROWS' ? join(sb.dir, 'rows.csv') : a)));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    // One line, and never the whole list of assets when a close one was found.
    if (message.includes('did you mean')) expect(r.stderr).not.toMatch(/ETH, BCH, LTC/);
    if (!args.includes('batch')) expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect((await sb.sent()).map((s) => `${s.method} ${s.url}`)).toEqual([]);
  });

  it("withdraw --to: a close nickname of the book; the book's nicknames kept for completion, no request", async () => {
    const put = await sb.runIn([
      'destinations',
      'put',
      '--network',
      'BITCOIN',
      '--address',
      BTC_ADDRESS,
      '--nickname',
      'treasury',
    ]);
    expect(put.code, put.stderr).toBe(0);
    const words = async () => (await sb.runIn(['__complete', 'destinations'])).stdout;
    expect(await words()).toBe('treasury\n');
    await sb.sent();
    const r = await sb.runIn(['withdraw', '--to', 'tresury', '--amount', '0.001', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to: no address in the address book is called "tresury" (did you mean treasury?)');
    // Asking for the words sends nothing.
    await sb.sent();
    await words();
    expect(await sb.sent()).toEqual([]);
  });

  it('a context name close to a saved one', async () => {
    const r = await sb.runIn(['--context', 'loacl', 'balances']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no context named "loacl" (did you mean local?)');
  });
});
