// The committed completion scripts run in the real shells: bash calls _coinop as readline would, fish answers
// `complete -C`, and zsh runs _coinop with compadd and _files standing in for its completion system (which needs an
// interactive shell). .ci/run installs zsh and fish; where they are missing outside CI, their cases are skipped.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DIR = resolve(__dirname, '../../completions');
const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const inCI = !!process.env.CI;

let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'coinop-completion-'));
  writeFileSync(join(cwd, 'rows.csv'), 'asset,amount\n');
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** What bash offers for the words typed so far (the last one is being completed). */
function bash(...words: string[]): string[] {
  const script = `source ${JSON.stringify(join(DIR, 'coinop.bash'))}
COMP_WORDS=("$@"); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
_coinop
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return lines(execFileSync('bash', ['-c', script, 'bash', ...words], { encoding: 'utf8', cwd }));
}

/** What zsh's _coinop hands to compadd (zsh itself then keeps those matching the typed prefix), or <files>. */
function zsh(...words: string[]): string[] {
  const script = `compdef() { : }
compadd() { [[ $1 == -a ]] && print -rl -- \${(P)2} }
_files() { print -r -- '<files>' }
source ${JSON.stringify(join(DIR, '_coinop'))}
words=("$@"); CURRENT=$#
_coinop`;
  const prefix = words[words.length - 1];
  return lines(execFileSync('zsh', ['-f', '-c', script, 'zsh', ...words], { encoding: 'utf8', cwd })).filter(
    (w) => w === '<files>' || w.startsWith(prefix),
  );
}

/** What fish offers for a command line (`complete -C`), without descriptions. */
function fish(line: string): string[] {
  const out = execFileSync(
    'fish',
    ['--no-config', '-c', `source ${JSON.stringify(join(DIR, 'coinop.fish'))}; complete -C${JSON.stringify(line)}`],
    { encoding: 'utf8', cwd },
  );
  return lines(out).map((l) => l.split('\t')[0]);
}

function lines(s: string): string[] {
  return s.split('\n').filter(Boolean).sort();
}

const MISSING = (shell: string) => `${shell} is not installed (.ci/run installs it: apt-get install ${shell})`;

describe('completion scripts in real shells', () => {
  it('bash: commands, inherited options, markets, option values, files', () => {
    expect(bash('coinop', 'wi')).toEqual(['withdraw']);
    expect(bash('coinop', 'addresses', '')).toEqual(['create', 'list']);
    // --count belongs to `stream`; commander reads it after `stream book` too.
    expect(bash('coinop', 'stream', 'book', '--co')).toEqual(['--count']);
    expect(bash('coinop', 'stream', 'book', 'BTCU')).toEqual(['BTCUSD']);
    expect(bash('coinop', 'stream', 'trades', 'ETHU')).toEqual(['ETHUSD']);
    expect(bash('coinop', 'prices', '--increment', 'ONE_')).toEqual(['ONE_DAY', 'ONE_HOUR', 'ONE_MINUTE', 'ONE_WEEK']);
    expect(bash('coinop', 'withdraw', '--network', 'ETH')).toEqual(['ETHEREUM']);
    expect(bash('coinop', '-o', 'nd')).toEqual(['ndjson']);
    // The desk's commands; an option's values follow the command it belongs to.
    expect(bash('coinop', 'de')).toEqual(['deposit-instructions', 'destinations']);
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
    // transfers list takes both names of platform transfers (SERVICE.md's PLATFORM_, the OpenAPI's PAXOS_).
    expect(bash('coinop', 'transfers', 'list', '--type', 'PAXOS_')).toEqual([
      'PAXOS_TRANSFER_CREDIT',
      'PAXOS_TRANSFER_DEBIT',
    ]);
    expect(bash('coinop', 'transfers', 'list', '--type', 'PLATFORM_TRANSFER_C')).toEqual(['PLATFORM_TRANSFER_CREDIT']);
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
    expect(zsh('coinop', 'addresses', '')).toEqual(['create', 'list']);
    expect(zsh('coinop', 'stream', 'book', '--co')).toEqual(['--count']);
    expect(zsh('coinop', 'stream', 'book', 'BTCU')).toEqual(['BTCUSD']);
    expect(zsh('coinop', 'withdraw', '--network', 'ETH')).toEqual(['ETHEREUM']);
    expect(zsh('coinop', '-o', 'nd')).toEqual(['ndjson']);
    expect(zsh('coinop', 'de')).toEqual(['deposit-instructions', 'destinations']);
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
    expect(fish('coinop addresses ')).toEqual(['create', 'list']);
    expect(fish('coinop stream book --co')).toEqual(['--count']);
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
});
