// The committed completion scripts run in the real shells: bash calls _coinop as readline would, fish answers
// `complete -C`, and zsh runs _coinop with compadd, _describe and _files standing in for its completion system (which
// needs an interactive shell); one zsh case runs the real completion system on a pseudo-terminal, to see the
// descriptions it lists. The scripts ask coinop itself for the saved profiles: a `coinop` on PATH runs this build.
// .ci/run installs zsh and fish; where they are missing outside CI, their cases are skipped.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as pty from 'node-pty';
import xterm from '@xterm/headless';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers.js';
import { until } from '../support/wait.js';

const DIR = resolve(__dirname, '../../completions');
const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const inCI = !!process.env.CI;

let cwd: string;
let env: Record<string, string>;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'coinop-completion-'));
  writeFileSync(join(cwd, 'rows.csv'), 'asset,amount\n');
  // `coinop` on PATH is this build; its configuration holds two saved profiles besides the built-in local one.
  const bin = join(cwd, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'coinop'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`,
  );
  chmodSync(join(bin, 'coinop'), 0o755);
  const config = join(cwd, 'config');
  mkdirSync(config, { mode: 0o700 });
  const saved = (environment: string, url: string) => ({
    environment,
    baseUrl: `${url}/v2`,
    authUrl: url,
    wsUrl: url.replace(/^http/, 'ws'),
    clientId: 'c',
    scopes: [],
  });
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({
      profiles: {
        'desk-eu': saved('sandbox', 'https://api.sandbox.paxos.com'),
        prod: saved('production', 'https://api.paxos.com'),
      },
    }),
    { mode: 0o600 },
  );
  // The address book's nicknames the local context's commands saw (destinations list and put keep them).
  mkdirSync(join(cwd, 'data'), { mode: 0o700 });
  writeFileSync(
    join(cwd, 'data', 'completion-words.json'),
    JSON.stringify({
      local: { destinations: ['cold', 'treasury'] },
      prod: { destinations: ['prod-only'], 'service-profiles': ['prod-desk'] },
    }),
  );
  env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: join(cwd, 'home'),
    COINOP_CONFIG_DIR: config,
    COINOP_DATA_DIR: join(cwd, 'data'),
    NO_COLOR: '1',
  };
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** What bash offers for the words typed so far (the last one is being completed). */
function bash(...words: string[]): string[] {
  const script = `source ${JSON.stringify(join(DIR, 'coinop.bash'))}
COMP_WORDS=("$@"); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
_coinop
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return lines(execFileSync('bash', ['-c', script, 'bash', ...words], { encoding: 'utf8', cwd, env }));
}

/**
 * What zsh's _coinop hands to compadd and _describe (zsh itself then keeps those matching the typed prefix), or
 * <files>; `described`: the "name:description" entries _describe gets, not only the names.
 */
function zshEntries(words: string[], described: boolean): string[] {
  // Each entry whole, or its name alone (what comes before its first colon).
  const entry = described ? '$e' : '$' + '{e%%:*}';
  const script = `compdef() { : }
compadd() { [[ $1 == -a ]] && print -rl -- \${(P)2} }
_describe() { local e; for e in \${(P)\${@[-1]}}; do print -r -- ${entry}; done }
_files() { print -r -- '<files>' }
source ${JSON.stringify(join(DIR, '_coinop'))}
words=("$@"); CURRENT=$#
_coinop`;
  const prefix = words[words.length - 1];
  return lines(execFileSync('zsh', ['-f', '-c', script, 'zsh', ...words], { encoding: 'utf8', cwd, env })).filter(
    (w) => w === '<files>' || w.startsWith(prefix),
  );
}
const zsh = (...words: string[]) => zshEntries(words, false);

/** What fish offers for a command line (`complete -C`), without descriptions, or with them (`name\tdescription`). */
function fishEntries(line: string): string[] {
  const out = execFileSync(
    'fish',
    ['--no-config', '-c', `source ${JSON.stringify(join(DIR, 'coinop.fish'))}; complete -C${JSON.stringify(line)}`],
    { encoding: 'utf8', cwd, env },
  );
  return lines(out);
}
const fish = (line: string) => fishEntries(line).map((l) => l.split('\t')[0]);

function lines(text: string): string[] {
  return text.split('\n').filter(Boolean).sort();
}

const MISSING = (shell: string) => `${shell} is not installed (.ci/run installs it: apt-get install ${shell})`;
const ETH_NETWORKS = ['ARBITRUM_ONE', 'BASE', 'ETHEREUM', 'INK', 'ROBINHOOD', 'XLAYER'];
const PROFILES = ['desk-eu', 'local', 'prod'];
const NICKNAMES = ['cold', 'treasury'];

describe('completion scripts in real shells', () => {
  it('bash: commands, inherited options, markets, option values, files', () => {
    expect(bash('coinop', 'wi')).toEqual(['withdraw']);
    expect(bash('coinop', 'addresses', '')).toEqual(['create', 'list', 'verifications', 'verify']);
    // --count belongs to `stream`; commander reads it after `stream book` too.
    expect(bash('coinop', 'stream', 'book', '--co')).toEqual(['--context', '--count']);
    expect(bash('coinop', 'stream', 'book', 'BTCU')).toEqual(['BTCUSD']);
    expect(bash('coinop', 'stream', 'trades', 'ETHU')).toEqual(['ETHUSD']);
    expect(bash('coinop', 'prices', '--increment', 'ONE_')).toEqual(['ONE_DAY', 'ONE_HOUR', 'ONE_MINUTE', 'ONE_WEEK']);
    expect(bash('coinop', 'withdraw', '--network', 'ETH')).toEqual(['ETHEREUM']);
    expect(bash('coinop', '-o', 'nd')).toEqual(['ndjson']);
    // The desk's commands; an option's values follow the command it belongs to.
    expect(bash('coinop', 'de')).toEqual(['deposit-instructions', 'deposits', 'destinations']);
    expect(bash('coinop', 'destinations', '')).toEqual(['list', 'put']);
    expect(bash('coinop', 'destinations', 'put', '--no-b')).toEqual(['--no-bookmark']);
    expect(bash('coinop', 'deposit-instructions', 'create', '--network', '')).toEqual([
      'CUBIX',
      'DBS_ACT',
      'RTP',
      'SCB',
      'WIRE',
    ]);
    expect(bash('coinop', 'destinations', 'put', '--network', 'BITCOIN_')).toEqual(['BITCOIN_CASH']);
    expect(bash('coinop', 'limits', '--type', 'PAXOS_TRANSFER_D')).toEqual(['PAXOS_TRANSFER_DEBIT']);
    // transfers list takes both names of platform transfers (spec/SERVICE.md's PLATFORM_, the OpenAPI's PAXOS_).
    expect(bash('coinop', 'transfers', 'list', '--type', 'PAXOS_')).toEqual([
      'PAXOS_TRANSFER_CREDIT',
      'PAXOS_TRANSFER_DEBIT',
    ]);
    expect(bash('coinop', 'transfers', 'list', '--type', 'PLATFORM_TRANSFER_C')).toEqual(['PLATFORM_TRANSFER_CREDIT']);
    // A flag's values are its own command's: events' --type takes event types, statements' --status their statuses.
    expect(bash('coinop', 'events', 'list', '--type', 'transfer.crypto_withdrawal.c')).toEqual([
      'transfer.crypto_withdrawal.completed',
    ]);
    expect(bash('coinop', 'events', 'watch', '--type', 'CRYPTO_')).toEqual([]);
    expect(bash('coinop', 'events', 'listen', '--type', '')).toContain('transfer.crypto_deposit.completed');
    expect(bash('coinop', 'statements', 'payments', '--status', '')).toEqual([
      'PAYMENT_STATUS_COMPLETED',
      'PAYMENT_STATUS_FAILED',
      'PAYMENT_STATUS_PENDING',
    ]);
    expect(bash('coinop', 'statements', 'list', '--status', 'STATEMENT_STATUS_P')).toEqual(['STATEMENT_STATUS_PAID']);
    expect(bash('coinop', 'sandbox', 'deposit', '--asset', '')).toEqual(['USD']);
    expect(bash('coinop', 'transfer', 'internal', '--asset', 'US')).toEqual(['USD', 'USDP']);
    // A single withdrawal's flags count only before `batch` (withdraw has positional options): not offered after it.
    expect(bash('coinop', 'withdraw', 'batch', '--am')).toEqual([]);
    expect(bash('coinop', 'withdraw', 'batch', '--dr')).toEqual(['--dry-run']);
    // Nothing offered: bash falls back to file names (complete -o default), even where words would be (api's methods).
    expect(bash('coinop', 'withdraw', 'batch', 'ro')).toEqual([]);
    expect(bash('coinop', 'local', 'start', '--db', 'ro')).toEqual([]);
    expect(bash('coinop', 'api', '--input', 'G')).toEqual([]);
    expect(
      execFileSync('bash', ['-c', `source ${JSON.stringify(join(DIR, 'coinop.bash'))}; complete -p coinop`], {
        encoding: 'utf8',
      }),
    ).toMatch(/-o default -F _coinop coinop/);
  });

  it('bash: the market data commands, their flags and markets', () => {
    expect(bash('coinop', 'ti')).toEqual(['ticker']);
    expect(bash('coinop', 'tr')).toEqual(['trades', 'transfer', 'transfers']);
    expect(bash('coinop', 'ma')).toEqual(['markets']);
    expect(bash('coinop', 'book', 'BTCU')).toEqual(['BTCUSD']);
    expect(bash('coinop', 'trades', 'SOL')).toEqual(['SOLEUR']);
    expect(bash('coinop', 'ticker', 'PAXG')).toEqual(['PAXGEUR', 'PAXGUSD']);
    expect(bash('coinop', 'book', '--dep')).toEqual(['--depth']);
    expect(bash('coinop', 'markets', '--re')).toEqual(['--refresh']);
  });

  it.skipIf(!inCI && !has('zsh'))('zsh: the same answers from _coinop', () => {
    expect(has('zsh'), MISSING('zsh')).toBe(true);
    expect(zsh('coinop', 'wi')).toEqual(['withdraw']);
    expect(zsh('coinop', 'addresses', '')).toEqual(['create', 'list', 'verifications', 'verify']);
    expect(zsh('coinop', 'stream', 'book', '--co')).toEqual(['--context', '--count']);
    expect(zsh('coinop', 'stream', 'book', 'BTCU')).toEqual(['BTCUSD']);
    expect(zsh('coinop', 'withdraw', '--network', 'ETH')).toEqual(['ETHEREUM']);
    expect(zsh('coinop', '-o', 'nd')).toEqual(['ndjson']);
    expect(zsh('coinop', 'de')).toEqual(['deposit-instructions', 'deposits', 'destinations']);
    expect(zsh('coinop', 'deposit-instructions', 'create', '--network', 'W')).toEqual(['WIRE']);
    expect(zsh('coinop', 'limits', '--type', 'PAXOS_TRANSFER_D')).toEqual(['PAXOS_TRANSFER_DEBIT']);
    expect(zsh('coinop', 'transfers', 'list', '--type', 'PAXOS_')).toEqual([
      'PAXOS_TRANSFER_CREDIT',
      'PAXOS_TRANSFER_DEBIT',
    ]);
    expect(zsh('coinop', 'withdraw', 'batch', 'ro')).toEqual(['<files>']);
    expect(zsh('coinop', 'api', '--input', 'ro')).toEqual(['<files>']);
  });

  it.skipIf(!inCI && !has('fish'))('fish: the same answers from complete -C, files where a file is asked for', () => {
    expect(has('fish'), MISSING('fish')).toBe(true);
    expect(fish('coinop wi')).toEqual(['withdraw']);
    expect(fish('coinop addresses ')).toEqual(['create', 'list', 'verifications', 'verify']);
    expect(fish('coinop stream book --co')).toEqual(['--context', '--count']);
    expect(fish('coinop stream book BTCU')).toEqual(['BTCUSD']);
    expect(fish('coinop withdraw --network ETH')).toEqual(['ETHEREUM']);
    expect(fish('coinop deposit-instructions create --network W')).toEqual(['WIRE']);
    expect(fish('coinop limits --type PAXOS_TRANSFER_D')).toEqual(['PAXOS_TRANSFER_DEBIT']);
    expect(fish('coinop destinations ')).toEqual(['list', 'put']);
    expect(fish('coinop withdraw batch ro')).toEqual(['rows.csv']);
    expect(fish('coinop withdraw batch --am')).toEqual([]);
    expect(fish('coinop local start --db ro')).toEqual(['rows.csv']);
    // Elsewhere no file names: coinop's words only.
    expect(fish('coinop prices ro')).toEqual([]);
  });

  describe("after the program's options, their values, and the values coinop knows", () => {
    it('bash', () => {
      // A global option's value is no command: `local` here is a profile, not coinop local.
      expect(bash('coinop', '--context', 'local', 'withdraw', '--am')).toEqual(['--amount']);
      expect(bash('coinop', '-o', 'json', '--context', 'local', 'str')).toEqual(['stream']);
      expect(bash('coinop', '--context', 'local', '')).not.toContain('start');
      expect(bash('coinop', '--context', 'local', '')).toContain('withdraw');
      expect(bash('coinop', 'withdraw', '--asset', 'BTC', 'batch', '--dr')).toEqual(['--dry-run']);
      expect(bash('coinop', 'transfers', 'watch', '--timeout', '30', '--wait')).toEqual(['--wait-timeout']);
      // The saved profiles, asked of coinop itself.
      expect(bash('coinop', '--context', '')).toEqual(PROFILES);
      // --profile, the old name of --context: not offered, its value still completed and skipped.
      expect(bash('coinop', '--profile', '')).toEqual(PROFILES);
      expect(bash('coinop', '--profile', 'local', 'withdraw', '--am')).toEqual(['--amount']);
      expect(bash('coinop', '--pro')).toEqual([]);
      expect(bash('coinop', 'prices', '--context', 'de')).toEqual(['desk-eu']);
      // --network after --asset: that asset's networks (in any case); without one, every network.
      expect(bash('coinop', 'withdraw', '--asset', 'ETH', '--network', '')).toEqual(ETH_NETWORKS);
      expect(bash('coinop', 'fee', 'quote', '--asset', 'usdp', '--amount', '1', '--network', '')).toEqual([
        'ETHEREUM',
        'SOLANA',
      ]);
      expect(bash('coinop', 'withdraw', '--network', 'S')).toEqual(['SOLANA', 'STELLAR', 'SUI']);
      expect(bash('coinop', 'withdraw', '--asset', 'BTC', '--network', '')).toEqual(['BITCOIN']);
      // After a flag that takes a value: its values, never a subcommand (withdraw --to once offered batch and fiat).
      expect(bash('coinop', 'withdraw', '--to', '')).toEqual(NICKNAMES);
      expect(bash('coinop', 'withdraw', '--to', 'tr')).toEqual(['treasury']);
      expect(bash('coinop', 'withdraw', '--amount', '')).toEqual([]);
      // --to of another command is a time: not the address book.
      expect(bash('coinop', 'audit', 'list', '--to', '')).toEqual([]);
      // The address book and the service profiles of the context named on the line, however it is named (readline
      // splits --context=prod into three words).
      expect(bash('coinop', '--context', 'prod', 'withdraw', '--to', '')).toEqual(['prod-only']);
      expect(bash('coinop', 'withdraw', '--context', '=', 'prod', '--to', '')).toEqual(['prod-only']);
      expect(bash('coinop', '--profile', 'prod', 'withdraw', '--to', 'p')).toEqual(['prod-only']);
      expect(bash('coinop', '--context', 'prod', 'transfers', 'list', '--profile-id', '')).toEqual(['prod-desk']);
      expect(bash('coinop', '--context', 'local', 'withdraw', '--to', '')).toEqual(NICKNAMES);
      expect(bash('coinop', '--context', 'nowhere', 'withdraw', '--to', '')).toEqual([]);
    });

    it.skipIf(!inCI && !has('zsh'))('zsh, with a description for every command and option', () => {
      expect(has('zsh'), MISSING('zsh')).toBe(true);
      expect(zsh('coinop', '--context', 'local', 'withdraw', '--am')).toEqual(['--amount']);
      expect(zsh('coinop', '--context', 'local', '')).not.toContain('start');
      expect(zsh('coinop', '--context', '')).toEqual(PROFILES);
      expect(zsh('coinop', '--profile', '')).toEqual(PROFILES);
      expect(zsh('coinop', 'withdraw', '--asset', 'eth', '--network', '')).toEqual(ETH_NETWORKS);
      expect(zsh('coinop', 'withdraw', '--to', '')).toEqual(NICKNAMES);
      expect(zsh('coinop', '--context', 'prod', 'withdraw', '--to', '')).toEqual(['prod-only']);
      expect(zsh('coinop', 'withdraw', '--context=prod', '--to', '')).toEqual(['prod-only']);
      expect(zsh('coinop', '--profile', 'prod', 'transfers', 'list', '--profile-id', '')).toEqual(['prod-desk']);
      expect(zsh('coinop', 'withdraw', '--amount', '')).toEqual([]);
      expect(zshEntries(['coinop', 'wi'], true)).toEqual([
        'withdraw:send crypto from a profile balance to a blockchain address',
      ]);
      expect(zshEntries(['coinop', 'withdraw', '--am'], true)).toEqual(['--amount:amount to send']);
    });

    it.skipIf(!inCI && !has('fish'))('fish, with a description for every command and option', () => {
      expect(has('fish'), MISSING('fish')).toBe(true);
      expect(fish('coinop --context local withdraw --am')).toEqual(['--amount']);
      expect(fish('coinop --context local ')).not.toContain('start');
      expect(fish('coinop --context local ')).toContain('withdraw');
      expect(fish('coinop -o json local ')).toEqual(['deposit', 'start']);
      expect(fish('coinop --context ')).toEqual(PROFILES);
      // --profile, the old name: its value completed, and no command offered in its place.
      expect(fish('coinop --profile ')).toEqual(PROFILES);
      expect(fish('coinop --profile local withdraw --am')).toEqual(['--amount']);
      expect(fish('coinop withdraw --to ')).toEqual(NICKNAMES);
      expect(fish('coinop --context prod withdraw --to ')).toEqual(['prod-only']);
      expect(fish('coinop withdraw --context=prod --to ')).toEqual(['prod-only']);
      expect(fish('coinop --profile prod transfers list --profile-id ')).toEqual(['prod-desk']);
      expect(fish('coinop withdraw --amount ')).toEqual([]);
      expect(fish('coinop withdraw --asset eth --network ')).toEqual(ETH_NETWORKS);
      expect(fish('coinop fee quote --asset=PYUSD --network ')).toEqual([
        'ARBITRUM_ONE',
        'ETHEREUM',
        'SOLANA',
        'STELLAR',
      ]);
      expect(fishEntries('coinop wi')).toEqual([
        'withdraw\tsend crypto from a profile balance to a blockchain address',
      ]);
      expect(fishEntries('coinop withdraw --am')).toEqual(['--amount\tamount to send']);
      expect(fishEntries('coinop withdraw -')).toContainEqual('-y\tdo not ask for confirmation');
    });

    it.skipIf(!inCI && !has('zsh'))(
      "zsh's own completion system lists the descriptions and completes after --profile",
      async () => {
        expect(has('zsh'), MISSING('zsh')).toBe(true);
        const term = new xterm.Terminal({ cols: 160, rows: 60, allowProposedApi: true });
        const shell = pty.spawn('zsh', ['-f', '-i'], {
          name: 'xterm-256color',
          cols: 160,
          rows: 60,
          cwd,
          env: { ...env, PS1: '%% ', TERM: 'xterm-256color' },
        });
        shell.onData((d) => term.write(d));
        const screen = () => {
          const b = term.buffer.active;
          return Array.from({ length: b.length }, (_, i) => b.getLine(i)?.translateToString(true) ?? '').join('\n');
        };
        const waitFor = (what: RegExp) =>
          until(
            () => `${what}; screen:\n${screen()}`,
            () => what.test(screen()),
            { timeoutMs: 20_000 },
          );
        try {
          shell.write(
            `autoload -Uz compinit && compinit -u -D && source ${JSON.stringify(join(DIR, '_coinop'))} && echo READY\r`,
          );
          await waitFor(/^READY$/m);
          shell.write('coinop --context local withdraw --am\t');
          await waitFor(/coinop --context local withdraw --amount /);
          shell.write('\u0015coinop \t');
          await waitFor(/^withdraw +-- send crypto from a profile balance to a blockchain address/m);
          expect(screen()).toMatch(/^stream +-- live market data/m);
        } finally {
          shell.kill();
        }
      },
    );
  });
});
