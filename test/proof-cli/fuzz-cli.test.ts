// Fuzzing the CLI: seeded, generated command lines for every command, run through the real program against a
// local service. Invalid ones must exit 2 with one clear line and send nothing; random ones must end with a
// documented exit code and a reason, never a stack trace, and never write after a usage error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BTC_ADDRESS, ETH_ADDRESS, runInProcess, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { Rng, INTERNAL, tooMany } from './support.js';
import { transferFlags } from '../support/command-lines.js';

const SEED = Number(process.env.COINOP_FUZZ_SEED ?? 20261121);
const INVALID_RUNS = Number(process.env.COINOP_FUZZ_INVALID ?? 5000);
const CHAOS_RUNS = Number(process.env.COINOP_FUZZ_CHAOS ?? 600);
const CHILD_RUNS = Number(process.env.COINOP_FUZZ_CHILD ?? 36);
const BATCH_RUNS = Number(process.env.COINOP_FUZZ_BATCH ?? 400);

let sb: Sandbox;
let files: { badJson: string; emptyCsv: string; badCsv: string };
beforeAll(async () => {
  sb = await sandbox();
  files = { badJson: join(sb.dir, 'bad.json'), emptyCsv: join(sb.dir, 'empty.csv'), badCsv: join(sb.dir, 'bad.csv') };
  writeFileSync(files.badJson, '{"wire": ');
  writeFileSync(files.emptyCsv, '');
  writeFileSync(files.badCsv, 'destination_address,asset,crypto_network,amount\n"unterminated,BTC,BITCOIN,1\n');
});
afterAll(async () => sb?.close());

// ---------------------------------------------------------------------------------------------------------
// What a value of each kind may not be: every generator here yields values the contract refuses.

type Kind =
  | { t: 'amount'; decimals: number; max2?: boolean }
  | { t: 'enum'; list?: boolean }
  | { t: 'date' }
  | { t: 'int'; min: number; max: number; decimals?: boolean }
  | { t: 'kv' }
  | { t: 'list'; max: number }
  | { t: 'len'; max: number }
  | { t: 'meta' }
  | { t: 'json' }
  | { t: 'url' }
  | { t: 'market' }
  | { t: 'address' }
  | { t: 'file' }
  | { t: 'channel' };

function badValue(rng: Rng, kind: Kind): string {
  switch (kind.t) {
    case 'amount':
      return rng.pick([
        () => `-${rng.decimal(6)}`,
        () => `${rng.int(1, 9)}e${rng.int(-9, 9)}`,
        () => `${rng.int(1, 9)}E+${rng.int(1, 9)}`,
        () => `+${rng.decimal(4)}`,
        () => '0',
        () => `0.${'0'.repeat(rng.int(1, 6))}`,
        () => `${rng.int(0, 99)}.${'1'.repeat(kind.decimals + rng.int(1, 30))}`,
        () =>
          rng.pick([
            '',
            ' ',
            '.',
            '..',
            '1.',
            '1.2.3',
            '1,5',
            '1 000',
            '1_000',
            '0x10',
            '0b1',
            'Infinity',
            '-Infinity',
            'NaN',
            'null',
            'true',
          ]),
        () => rng.pick(['١٢٣', '１２', '1\u00a0000', '\u200b1', '1\u200b', '²', '½', '𝟙']),
        () => rng.pick(['abc', 'ten', '$5', '5 BTC', '5BTC', '--1', '−1']),
        () => '9'.repeat(rng.int(80, 400)),
        () => `1.${'0'.repeat(rng.int(40, 5000))}1`,
      ])();
    case 'enum': {
      const v = rng.pick([
        () => rng.word().toUpperCase(),
        () => rng.odd(),
        // Any case and spaces around are taken (`bitcoin `): a space inside is not.
        () => 'BIT COIN',
        () => 'MOON',
        () => rng.pick(['', ' ', '*', '%', 'null']),
      ])();
      // A repeatable filter drops blank entries (`--status ""` is no filter), so a blank is no fault there.
      // Entries of a list are trimmed (`--network "BITCOIN, ETHEREUM"`).
      return kind.list && ['', 'BITCOIN'].includes(v.replace(/,/g, '').trim()) ? 'MOON' : v;
    }
    case 'date':
      return rng.pick([
        'yesterday',
        'last tuesday',
        '2026-13-01T00:00:00Z',
        '2026-02-30T00:00:00Z',
        '2026-01-01T25:00:00Z',
        '2026-01-01T00:61:00Z',
        '1e9',
        '-1h',
        '1yr',
        '10x',
        '99999999h',
        '2026/01/01',
        '01-01-2026',
        'T00:00:00Z',
        '',
        ' ',
        '٢٠٢٦-01-01T00:00:00Z',
        '2026-01-01T00:00:00+25:00',
        '0000-00-00T00:00:00Z',
        'now now',
        'NaN',
      ]);
    case 'int':
      return rng.pick([
        () => String(kind.min - rng.int(1, 1000)),
        () => String(kind.max + rng.int(1, 10 ** 6)),
        () =>
          rng.pick([
            ...(kind.decimals ? [] : ['1.5']),
            '1e3',
            'ten',
            '',
            ' ',
            '0x10',
            '-0',
            '+5',
            '99999999999999999999999',
            'Infinity',
            'NaN',
            '٣',
            '1..2',
          ]),
      ])();
    case 'kv':
      return rng.pick(['novalue', '=v', '=', '']);
    case 'list':
      return rng.bool() ? tooMany(kind.max + rng.int(1, 400)) : rng.pick([',', ' , ,']) + tooMany(kind.max + 1);
    case 'len':
      return 'x'.repeat(kind.max + rng.int(1, 20_000));
    case 'meta':
      return rng.pick([
        () => 'novalue',
        () => '=v',
        () => '=',
        () => `k=${'v'.repeat(101 + rng.int(0, 5000))}`,
        () => `${'k'.repeat(101 + rng.int(0, 500))}=v`,
      ])();
    case 'json':
      return rng.pick(['{oops', '[]', '"text"', '42', 'null', '{"a":', '', '{}}', '\u0000']);
    case 'url':
      return rng.pick([
        'not a url',
        'ftp://x.example',
        'x.example',
        '//x.example',
        'file:///etc/passwd',
        'http//broken',
        '',
        'javascript:alert(1)',
      ]);
    case 'market':
      return rng.pick([
        () => 'MOONUSD',
        () => 'BTC-USD',
        () => 'BTC/USD',
        () => rng.odd(),
        () => 'BTCUSDX',
        () => '',
      ])();
    case 'address':
      return rng.pick([
        () => '0xnope',
        () => '1BvB',
        () => rng.odd(),
        () => `${BTC_ADDRESS.slice(0, 20)}0OIl`,
        () => ` ${ETH_ADDRESS}`,
        () => '',
      ])();
    case 'file':
      return rng.pick(['/nonexistent/x.json', join(sb.dir, 'missing.csv'), files.badJson, sb.dir]);
    case 'channel':
      return rng.pick([
        'nope',
        'market_data',
        'market_data:MOON',
        'heartbeat:BTCUSD',
        ':BTCUSD',
        '',
        'execution_data:',
      ]);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Every command: a valid invocation (base), the kinds of its flags, which flags are required, and combinations
// it refuses. A generated invalid invocation is a base with one or more of these broken.

interface Spec {
  path: string[];
  base: () => string[];
  flags: Record<string, Kind>;
  /** Flags (or `#n` for the n-th positional) whose removal is a usage error under --no-input. */
  required?: string[];
  exclusive?: [string[], string[]][];
  /** How many positional arguments the command takes at most (extra ones are refused). */
  maxArgs: number;
  /** Never run this base as is (it would not end: a server or a stream). */
  noValidBase?: boolean;
}

const W = [...transferFlags('BTC', '0.0001'), '--yes'];
const FQ = ['--asset', 'ETH', '--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--amount', '0.01'];
const filters = (names: string[], max = 100) => Object.fromEntries(names.map((n) => [n, { t: 'list', max } as Kind]));
const dates = (names: string[]) => Object.fromEntries(names.map((n) => [n, { t: 'date' } as Kind]));

function specs(): Spec[] {
  return [
    {
      path: ['withdraw'],
      base: () => [...W],
      flags: {
        '--asset': { t: 'enum' },
        '--network': { t: 'enum' },
        '--address': { t: 'address' },
        '--amount': { t: 'amount', decimals: 8 },
        '--total': { t: 'amount', decimals: 8 },
        '--meta': { t: 'meta' },
        '--beneficiary': { t: 'json' },
        '--wait-timeout': { t: 'int', min: 1, max: 86_400, decimals: true },
        '--balance-asset': { t: 'enum' },
        '--memo': { t: 'len', max: 1000 },
        '--profile-id': { t: 'len', max: 128 },
        '--ref-id': { t: 'len', max: 128 },
      },
      required: ['--asset', '--network', '--address', '--amount'],
      exclusive: [
        [
          ['--amount', '0.1'],
          ['--total', '0.2'],
        ],
        [['--fee-id', 'f1'], ['--quote']],
        [
          ['--to', 'treasury'],
          ['--address', BTC_ADDRESS],
        ],
      ],
      maxArgs: 0,
    },
    {
      path: ['withdraw', 'batch'],
      base: () => [files.emptyCsv, '--dry-run'],
      flags: {
        '--format': { t: 'enum' },
        '--concurrency': { t: 'int', min: 1, max: 64 },
        '--rate': { t: 'int', min: 0, max: 10_000, decimals: true },
        '--wait-timeout': { t: 'int', min: 1, max: 7 * 86_400, decimals: true },
      },
      required: ['#0'],
      maxArgs: 1,
      noValidBase: true,
    },
    {
      path: ['fee', 'quote'],
      base: () => [...FQ],
      flags: {
        '--asset': { t: 'enum' },
        '--network': { t: 'enum' },
        '--address': { t: 'address' },
        '--amount': { t: 'amount', decimals: 18 },
        '--total': { t: 'amount', decimals: 18 },
      },
      required: ['--asset', '--network', '--address', '--amount'],
      exclusive: [
        [
          ['--amount', '1'],
          ['--total', '1'],
        ],
      ],
      maxArgs: 0,
    },
    {
      path: ['addresses', 'list'],
      base: () => ['--limit', '5'],
      flags: {
        ...filters(['--profile-id', '--identity-id', '--account-id', '--id', '--ref-id']),
        '--network': { t: 'enum', list: true },
        ...dates(['--created-before', '--created-until', '--created-at', '--created-from', '--created-after']),
        '--limit': { t: 'int', min: 1, max: 1000 },
        '--order': { t: 'enum' },
        '--order-by': { t: 'enum' },
      },
      maxArgs: 0,
    },
    {
      path: ['addresses', 'create'],
      base: () => ['--network', 'ETHEREUM'],
      flags: {
        '--network': { t: 'enum' },
        '--conversion': { t: 'enum' },
        '--meta': { t: 'meta' },
        '--ref-id': { t: 'len', max: 128 },
      },
      required: ['--network'],
      maxArgs: 0,
    },
    {
      path: ['transfers', 'list'],
      base: () => ['--limit', '3'],
      flags: {
        ...filters(['--id', '--ref-id', '--profile-id', '--tx-hash', '--group-id']),
        '--type': { t: 'enum', list: true },
        '--status': { t: 'enum', list: true },
        ...dates([
          '--created-before',
          '--created-until',
          '--created-at',
          '--created-from',
          '--created-after',
          '--updated-before',
          '--updated-until',
          '--updated-at',
          '--updated-from',
          '--updated-after',
        ]),
        '--limit': { t: 'int', min: 1, max: 1000 },
        '--order': { t: 'enum' },
        '--order-by': { t: 'enum' },
      },
      maxArgs: 0,
    },
    {
      path: ['transfers', 'get'],
      base: () => ['--ref-id', 'no-such-ref'],
      flags: {},
      exclusive: [[['00000000-0000-4000-8000-000000000000'], ['--ref-id', 'x']]],
      maxArgs: 1,
      noValidBase: true,
    },
    {
      path: ['transfers', 'watch'],
      base: () => ['00000000-0000-4000-8000-000000000000', '--wait-timeout', '1'],
      // A duration (1.5 is a second and a half); --timeout is its old name, with a note.
      flags: { '--wait-timeout': { t: 'int', min: 1, max: 86_400, decimals: true } },
      required: ['#0'],
      maxArgs: Infinity,
      noValidBase: true,
    },
    {
      path: ['sandbox', 'deposit'],
      base: () => ['--amount', '10.00'],
      flags: {
        '--amount': { t: 'amount', decimals: 2 },
        '--asset': { t: 'enum' },
        '--file': { t: 'file' },
        '--memo-id': { t: 'len', max: 128 },
        '--instructions': { t: 'len', max: 128 },
      },
      required: ['--amount'],
      exclusive: [
        [
          ['--memo-id', 'M'],
          ['--instructions', 'I'],
        ],
      ],
      maxArgs: 0,
    },
    {
      path: ['destinations', 'list'],
      base: () => ['--limit', '5'],
      flags: {
        ...filters(['--id', '--identity-id', '--address', '--nickname']),
        '--network': { t: 'enum', list: true },
        ...dates(['--created-before', '--created-until', '--created-at', '--created-from', '--created-after']),
        '--limit': { t: 'int', min: 1, max: 1000 },
        '--order': { t: 'enum' },
        '--order-by': { t: 'enum' },
      },
      exclusive: [[['--bookmarked'], ['--not-bookmarked']]],
      maxArgs: 0,
    },
    {
      path: ['destinations', 'put'],
      base: () => ['--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--nickname', 'fuzzed'],
      flags: {
        '--network': { t: 'enum' },
        '--address': { t: 'address' },
        '--nickname': { t: 'len', max: 100 },
        '--identity-id': { t: 'len', max: 128 },
        '--travel-rule': { t: 'json' },
      },
      required: ['--network', '--address'],
      exclusive: [
        [
          ['--id', 'f190b163-208f-4d73-8deb-4fb8b24add00'],
          ['--network', 'BITCOIN'],
        ],
      ],
      maxArgs: 0,
    },
    { path: ['limits'], base: () => [], flags: { '--type': { t: 'enum' } }, maxArgs: 0 },
    {
      path: ['audit', 'list'],
      base: () => ['--limit', '5'],
      flags: {
        '--kind': { t: 'enum', list: true },
        '--outcome': { t: 'enum', list: true },
        ...dates(['--from', '--to']),
        '--limit': { t: 'int', min: 1, max: 100_000 },
      },
      exclusive: [
        [
          ['--from', '2026-02-01T00:00:00Z'],
          ['--to', '2026-01-01T00:00:00Z'],
        ],
        [['--limit', '5'], ['--all']],
      ],
      maxArgs: 0,
    },
    { path: ['audit', 'verify'], base: () => [], flags: { '--head': { t: 'len', max: 80 } }, maxArgs: 0 },
    {
      path: ['audit', 'export'],
      base: () => ['--from', '7d', '-o', 'csv'],
      flags: dates(['--from', '--to']),
      exclusive: [
        [
          ['--from', '2026-02-01T00:00:00Z'],
          ['--to', '2026-01-01T00:00:00Z'],
        ],
      ],
      maxArgs: 0,
    },
    {
      path: ['deposit-instructions', 'create'],
      base: () => ['--network', 'WIRE'],
      flags: {
        '--network': { t: 'enum' },
        '--routing-type': { t: 'enum' },
        '--meta': { t: 'meta' },
        '--ref-id': { t: 'len', max: 128 },
        '--profile-id': { t: 'len', max: 128 },
        '--identity-id': { t: 'len', max: 128 },
      },
      required: ['--network'],
      maxArgs: 0,
    },
    {
      path: ['deposit-instructions', 'list'],
      base: () => ['--limit', '5'],
      flags: {
        ...filters(['--id', '--ref-id']),
        ...dates(['--created-before', '--created-until', '--created-at', '--created-from', '--created-after']),
        '--limit': { t: 'int', min: 1, max: 1000 },
        '--order': { t: 'enum' },
      },
      maxArgs: 0,
    },
    {
      path: ['deposit-instructions', 'get'],
      base: () => ['00000000-0000-4000-8000-000000000000'],
      flags: { '#0': { t: 'len', max: 128 } },
      required: ['#0'],
      maxArgs: 1,
      noValidBase: true,
    },
    {
      path: ['prices'],
      base: () => ['BTCUSD', '--limit', '3'],
      flags: {
        '--increment': { t: 'enum' },
        '--max-points': { t: 'int', min: 1, max: 1_000_000 },
        '--from': { t: 'date' },
        '--to': { t: 'date' },
        '--limit': { t: 'int', min: 1, max: 1000 },
        '--offset': { t: 'int', min: 0, max: 100_000_000 },
        '#0': { t: 'market' },
      },
      required: ['#0'],
      exclusive: [
        [
          ['--increment', 'ONE_DAY'],
          ['--max-points', '5'],
        ],
        [
          ['--from', '2026-02-01T00:00:00Z'],
          ['--to', '2026-01-01T00:00:00Z'],
        ],
      ],
      maxArgs: 1,
    },
    {
      path: ['api'],
      base: () => ['GET', '/v2/transfer/transfers', '-f', 'limit=1'],
      flags: { '--input': { t: 'file' }, '#0': { t: 'enum' }, '-f': { t: 'kv' } },
      required: ['#0', '#1'],
      exclusive: [[['POST', '/v2/transfer/transfers'], ['--paginate']]],
      maxArgs: 2,
    },
    {
      path: ['stream', 'book'],
      base: () => ['BTCUSD', '-o', 'ndjson', '--count', '1'],
      flags: {
        '#0': { t: 'market' },
        '--count': { t: 'int', min: 1, max: Number.MAX_SAFE_INTEGER },
        '--interval': { t: 'int', min: 10, max: 3_600_000 },
        '--depth': { t: 'int', min: 1, max: 100_000 },
        '--duration': { t: 'date' },
      },
      required: ['#0'],
      maxArgs: 1,
      noValidBase: true,
    },
    {
      path: ['stream', 'trades'],
      base: () => ['BTCUSD', '-o', 'ndjson', '--count', '1'],
      flags: { '#0': { t: 'market' }, '--count': { t: 'int', min: 1, max: Number.MAX_SAFE_INTEGER } },
      required: ['#0'],
      maxArgs: Infinity,
      noValidBase: true,
    },
    {
      path: ['stream', 'top'],
      base: () => ['BTCUSD', '-o', 'ndjson', '--count', '1'],
      flags: { '#0': { t: 'market' }, '--count': { t: 'int', min: 1, max: Number.MAX_SAFE_INTEGER } },
      maxArgs: Infinity,
      noValidBase: true,
    },
    {
      path: ['stream'],
      base: () => ['-c', 'heartbeat', '-o', 'ndjson', '--count', '1'],
      flags: { '-c': { t: 'channel' }, '--count': { t: 'int', min: 1, max: Number.MAX_SAFE_INTEGER } },
      maxArgs: 0,
      noValidBase: true,
    },
    {
      path: ['local', 'start'],
      base: () => ['--port', '0', '--memory'],
      flags: { '--port': { t: 'int', min: 0, max: 65_535 }, '--seed': { t: 'int', min: 0, max: 2 ** 31 - 1 } },
      maxArgs: 0,
      noValidBase: true,
    },
    {
      path: ['login'],
      base: () => ['--env', 'local', '--name', 'fuzzed'],
      flags: {
        '--env': { t: 'enum' },
        '--scopes': { t: 'enum' },
        '--base-url': { t: 'url' },
        '--auth-url': { t: 'url' },
        '--name': { t: 'len', max: 64 },
      },
      exclusive: [
        [
          ['--env', 'sandbox', '--client-id', 'c'],
          ['--base-url', 'http://x.example'],
        ],
      ],
      maxArgs: 0,
      noValidBase: true,
    },
    // Its standard input ends at once here: the server starts, reads nothing, and ends (exit 0).
    { path: ['mcp'], base: () => ['--allow-writes'], flags: {}, maxArgs: 0 },
    { path: ['auth', 'status'], base: () => [], flags: {}, maxArgs: 0 },
    { path: ['context', 'list'], base: () => [], flags: {}, maxArgs: 0 },
    { path: ['context', 'show'], base: () => [], flags: {}, maxArgs: 1 },
    { path: ['completion'], base: () => ['bash'], flags: { '#0': { t: 'enum' } }, required: ['#0'], maxArgs: 1 },
  ];
}

/** One broken invocation: the base of a command with 1 to 3 faults, each of which alone is a usage error. */
function invalidInvocation(rng: Rng, spec: Spec): { args: string[]; why: string[]; kinds: string[] } {
  let args = spec.base();
  const why: string[] = [];
  const applied: string[] = [];
  const positional = Object.keys(spec.flags).filter((f) => f.startsWith('#'));
  const valued = Object.keys(spec.flags).filter((f) => !f.startsWith('#'));
  const kinds = [
    'unknown-flag',
    'missing-value',
    'extra-arg',
    'bad-global',
    ...(valued.length ? ['bad-value', 'bad-value', 'bad-value', 'bad-value'] : []),
    ...(positional.length ? ['bad-positional', 'bad-positional'] : []),
    ...(spec.required?.length ? ['drop-required'] : []),
    ...(spec.exclusive?.length ? ['exclusive', 'exclusive'] : []),
  ].filter((k) => k !== 'extra-arg' || spec.maxArgs !== Infinity);
  // A removal first (so it cannot remove a fault), a flag left without its value last (it would take the next
  // word as its value, as every getopt-style parser does), and only one of each.
  const order = (k: string) => (k === 'drop-required' ? 0 : k === 'missing-value' ? 2 : 1);
  const chosen = Array.from({ length: rng.int(1, 3) }, () => rng.pick(kinds))
    .filter((k, i, a) => (k !== 'drop-required' && k !== 'missing-value') || a.indexOf(k) === i)
    .sort((a, b) => order(a) - order(b));
  for (const kind of chosen) {
    const before = why.length;
    applyFault(kind);
    if (why.length > before) applied.push(kind);
  }
  if (!why.length) return invalidInvocation(rng, spec);
  return { args: [...spec.path, ...args], why, kinds: applied };

  function applyFault(kind: string): void {
    switch (kind) {
      case 'unknown-flag': {
        const f = rng.pick([
          () => `--${rng.word()}`,
          () => `-${rng.pick(['Z', 'Q', 'X', 'k'])}`,
          () => '--amountx',
          () => '--no-such',
          () => '---x',
          () => `--${rng.odd().replace(/^-+/, '')}`,
        ])();
        if (!f.startsWith('-') || f === '--' || f === '-') return;
        if (f.startsWith('--no-') && ['input', 'color'].includes(f.slice(5))) return;
        args.splice(rng.int(0, args.length), 0, f);
        why.push(`unknown flag ${f.slice(0, 30)}`);
        break;
      }
      case 'missing-value': {
        const f = rng.pick([...valued, '--context', '-o']);
        args = [...args, f];
        why.push(`no value for ${f}`);
        break;
      }
      case 'extra-arg': {
        const extra = rng.odd();
        if (extra.startsWith('-') || extra === '') return;
        args = [
          ...args.slice(0, 0),
          ...args,
          ...Array.from({ length: spec.maxArgs + 1 }, (_, j) => (j === 0 ? 'x' : extra)),
        ];
        // Positionals come first for the commands that take them, so the extras are over the count.
        why.push(`${spec.maxArgs + 1} positional args`);
        break;
      }
      case 'bad-global': {
        const contextless = [
          'completion',
          'context',
          'profile',
          'config',
          'doctor',
          'login',
          'local',
          'audit',
        ].includes(spec.path[0]);
        const g = rng.pick([
          ['--output', rng.pick(['xml', 'yaml', 'JSONX', '', 'table,json'])],
          ['--context', `no-such-${rng.word()}`],
          ['-o', rng.odd()],
        ]);
        if (g[0] === '-o' && ['table', 'json', 'ndjson', 'csv'].includes(g[1])) return;
        // A profile that does not exist matters only to commands that use one.
        if (g[0] === '--context' && contextless) return;
        args.splice(rng.int(0, args.length), 0, ...g);
        why.push(`global ${g[0]} ${g[1].slice(0, 20)}`);
        break;
      }
      case 'bad-value': {
        const f = rng.pick(valued);
        const v = badValue(rng, spec.flags[f]);
        const eq = rng.bool() && f.startsWith('--');
        // Value flags that start with '-' must be given with '=' to be read as values.
        args = [...args, ...(eq || v.startsWith('-') ? [`${f}=${v}`] : [f, v])];
        if (v.startsWith('-') && !f.startsWith('--')) args = args.slice(0, -1).concat([f + v]);
        why.push(`${f} ${JSON.stringify(v.slice(0, 40))}`);
        break;
      }
      case 'bad-positional': {
        const f = rng.pick(positional);
        const n = Number(f.slice(1));
        const v = badValue(rng, spec.flags[f]);
        if (v.startsWith('-')) return;
        const posIdx = positionalIndex(args, n);
        if (posIdx < 0) return;
        args[posIdx] = v;
        why.push(`arg ${n} ${JSON.stringify(v.slice(0, 40))}`);
        break;
      }
      case 'drop-required': {
        const f = rng.pick(spec.required!);
        if (f.startsWith('#')) {
          const idx = positionalIndex(args, Number(f.slice(1)));
          if (idx < 0) return;
          args = args.filter((_, j) => j !== idx);
          // Later positionals move down; for api that leaves one positional, still a usage error.
        } else {
          const idx = args.indexOf(f);
          if (idx < 0) return;
          args.splice(idx, 2);
          // Without --amount, --total is the alternative; drop both.
          if (f === '--amount') args = args.filter((a, j) => !(a === '--total' || args[j - 1] === '--total'));
        }
        why.push(`without ${f}`);
        break;
      }
      case 'exclusive': {
        const [a, b] = rng.pick(spec.exclusive!);
        args = [
          ...a.filter((x) => (x.startsWith('-') ? true : !args.includes(x))),
          ...args.filter((x) => !a.includes(x) || x.startsWith('-')),
          ...b,
        ];
        if (spec.path[0] === 'transfers' && spec.path[1] === 'get') args = [...a, ...b];
        if (spec.path[0] === 'api') args = [...a, ...b];
        why.push(`${a[0]} with ${b[0]}`);
        break;
      }
    }
  }
}

/** Index in args of the n-th positional (values of flags are skipped). */
function positionalIndex(args: string[], count: number): number {
  let seen = 0;
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('-')) {
      if (
        !['--dry-run', '--memory', '--yes', '--quote', '--paginate', '--all'].includes(args[i]) &&
        !args[i].includes('=')
      )
        i++;
      continue;
    }
    if (seen === count) return i;
    seen++;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------

const DOCUMENTED = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
const isWrite = (e: { method: string; url: string }) => e.method !== 'GET' && e.url.startsWith('/v2/');

function problems(label: string, run: Run): string[] {
  const out: string[] = [];
  if (INTERNAL.test(run.stderr)) out.push(`${label}: internal error or stack on stderr: ${run.stderr.slice(0, 300)}`);
  if (!DOCUMENTED.has(run.code)) out.push(`${label}: undocumented exit ${run.code}`);
  // A reason: coinop's one-line error (or its JSON form), or the batch's own account of what was not sent.
  if (run.code !== 0 && !/(^|\n)error:|"error":\{|nothing (was )?sent|\bno rows?\b/i.test(run.stderr)) {
    out.push(`${label}: exit ${run.code} without a reason: ${JSON.stringify(run.stderr.slice(0, 200))}`);
  }
  return out;
}

/** An invocation that has not ended after this long is reported as hung (and left behind). */
async function bounded(args: string[], ms = 8000, lane?: number): Promise<Run> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<Run>(
    (res) => (timer = setTimeout(() => res({ code: -2, stdout: '', stderr: `hung for ${ms} ms` }), ms)),
  );
  try {
    return await Promise.race([runInProcess(args, env(lane)), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The sandbox's environment; a lane of the concurrent runs writes its own data folder (audit log, journals), as each
 * operator's machine does: lanes of one process sharing one audit log's lock waited on each other, not on coinop.
 */
function env(lane?: number): Record<string, string> {
  const data: Record<string, string> = lane === undefined ? {} : { COINOP_DATA_DIR: join(sb.dir, `data-lane-${lane}`) };
  return { ...sb.env, COINOP_NO_INPUT: '1', COINOP_TIMEOUT_MS: '5000', ...data };
}

const label = (args: string[]) =>
  `coinop ${args.map((a) => (a.length > 40 ? `${a.slice(0, 37)}…(${a.length})` : a)).join(' ')}`;

describe('fuzzing the CLI', () => {
  it('the valid base of every command works, so a refused mutation is refused for its fault', async () => {
    await sb.control('POST', '/_local/reset');
    const failures: string[] = [];
    for (const s of specs()) {
      if (s.noValidBase) continue;
      const args = [...s.path, ...s.base()];
      const r = await runInProcess(args, env());
      if (r.code !== 0) failures.push(`${label(args)}: exit ${r.code}: ${r.stderr.trim()}`);
    }
    expect(failures).toEqual([]);
  });

  it(`${INVALID_RUNS} generated invalid invocations in process: exit 2, one line, no stack, nothing sent`, async () => {
    const r = new Rng(SEED);
    const all = specs();
    const failures: string[] = [];
    await sb.sent();
    const byKind = new Map<string, number>();
    let done = 0;
    const lanes = 4;
    const work = Array.from({ length: INVALID_RUNS }, () => invalidInvocation(r, r.pick(all)));
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; i < work.length; i += lanes) {
          const { why } = work[i];
          // Every fifth asks for JSON: the usage error is then one JSON object on stderr.
          const json = i % 5 === 0;
          const args = json ? [...work[i].args.slice(0, 0), '--json', ...work[i].args] : work[i].args;
          // A hang is what the bound catches, not slowness: on a loaded machine (CI with CPU hogs) one in-process run
          // once took more than 8 s; 30 s still tells a command waiting for ever from a slow one.
          const res = await bounded(args, 30_000, lane);
          if (json && res.code === 2) {
            let e: { error?: { category?: string; exit_code?: number; message?: string } } | undefined;
            try {
              e = JSON.parse(res.stderr);
            } catch {
              /* reported below */
            }
            if (e?.error?.exit_code !== 2 || e.error.category !== 'usage' || !e.error.message)
              failures.push(`${label(args)}: --json usage error is not one JSON object: ${res.stderr.slice(0, 200)}`);
          }
          done++;
          for (const k of work[i].kinds) byKind.set(k, (byKind.get(k) ?? 0) + 1);
          const l = `${label(args)} [${why.join('; ')}]`;
          failures.push(...problems(l, res));
          const lines = res.stderr.trim().split('\n');
          if (res.code !== 2) failures.push(`${l}: exit ${res.code}, not 2: ${res.stderr.trim().slice(0, 300)}`);
          else if (lines.length !== 1)
            failures.push(`${l}: ${lines.length} lines on stderr: ${res.stderr.slice(0, 300)}`);
          if (res.stdout) failures.push(`${l}: printed data ${JSON.stringify(res.stdout.slice(0, 80))}`);
        }
      }),
    );
    const sent = await sb.sent();
    expect(failures.slice(0, 30)).toEqual([]);
    expect(done).toBe(INVALID_RUNS);
    // Nothing at all reached the service: not a write, not even a token request.
    expect(sent.filter(isWrite)).toEqual([]);
    expect(sent).toEqual([]);
    console.log(
      `fuzz-cli: ${done} invalid invocations in process, faults ${JSON.stringify(Object.fromEntries(byKind))}`,
    );
  }, 300_000);

  it('found by fuzzing: values a command used to take for something else are refused', async () => {
    // --duration 1000h overflowed the timer and ended the stream at once; --to "" was taken as "now".
    for (const args of [
      ['stream', 'heartbeat', '-o', 'ndjson', '--duration', '1000h'],
      ['prices', 'BTCUSD', '--to', ''],
    ]) {
      const r = await bounded(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^error: --(duration|to): /);
    }
    expect(await sb.sent()).toEqual([]);
  });

  it('found by fuzzing: names of Object.prototype are no command, asset, network or profile', async () => {
    // `coinop constructor` threw inside the command table; `--asset constructor` threw in the contract's rules (a
    // 500 from the local service too); `profile use toString` made a profile active that did not exist.
    const failures: string[] = [];
    for (const n of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      for (const args of [
        [n],
        ['withdraw', n],
        ['withdraw', '--asset', n, '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '1'],
        ['withdraw', '--asset', 'BTC', '--network', n, '--address', BTC_ADDRESS, '--amount', '1'],
        ['fee', 'quote', '--asset', n, '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '1'],
        ['prices', n],
        ['stream', 'book', n],
        ['context', 'use', n],
        ['context', 'show', n],
        ['--context', n, 'prices', 'BTCUSD'],
        ['withdraw', ...transferFlags('BTC', '1'), '--meta', '__proto__=x'],
        ...(n === '__proto__' || n === 'constructor' ? [['login', '--env', 'local', '--name', n]] : []),
      ]) {
        const r = await bounded([...args, '--no-input']);
        if (r.code !== 2 || INTERNAL.test(r.stderr) || r.stderr.trim().split('\n').length !== 1)
          failures.push(`${r.code} ${label(args)}: ${r.stderr.trim()}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await sb.sent()).toEqual([]);
  });

  it(`${CHAOS_RUNS} random command lines: a documented exit code with a reason, and no write after a usage error`, async () => {
    const r = new Rng(SEED + 1);
    const failures: string[] = [];
    const codes = new Map<number, number>();
    const vocab = vocabulary();
    for (let i = 0; i < CHAOS_RUNS; i++) {
      const args = chaos(r, vocab);
      await sb.sent();
      const res = await bounded(args);
      const sent = await sb.sent();
      codes.set(res.code, (codes.get(res.code) ?? 0) + 1);
      if (process.env.COINOP_FUZZ_SHOW && res.code !== 2)
        console.log(res.code, label(args).slice(0, 150), '->', res.stderr.trim().slice(0, 200));
      const l = label(args);
      failures.push(...problems(l, res));
      if (res.code === 2 && sent.some(isWrite))
        failures.push(`${l}: usage error after a write: ${JSON.stringify(sent.filter(isWrite))}`);
      if ((res.code === 2 || res.code === 7) && sent.some(isWrite)) failures.push(`${l}: exit ${res.code} yet wrote`);
    }
    expect(failures.slice(0, 30)).toEqual([]);
    console.log(
      `fuzz-cli: ${CHAOS_RUNS} random command lines, exit codes ${JSON.stringify(Object.fromEntries([...codes].sort()))}`,
    );
  });

  it(`${BATCH_RUNS} damaged batch files: no crash, exit 2 with every problem and nothing sent, or a dry run that never withdraws`, async () => {
    const r = new Rng(SEED + 3);
    const failures: string[] = [];
    const codes = new Map<string, number>();
    const rows = [
      `${BTC_ADDRESS},BTC,BITCOIN,0.0001,INV-1`,
      `${ETH_ADDRESS},ETH,ETHEREUM,0.001,INV-2`,
      `${ETH_ADDRESS},ETH,BASE,0.25,INV-3`,
    ];
    const header = 'destination_address,asset,crypto_network,amount,meta.invoice';
    for (let i = 0; i < BATCH_RUNS; i++) {
      const { text, broken } = damagedBatch(r, header, rows);
      const ext = r.pick(['csv', 'jsonl', 'json', 'txt']);
      const f = join(sb.dir, `batch-${i}.${ext}`);
      writeFileSync(f, text);
      // A file that is certainly broken is sent for real: it must be refused whole. Any other only as a dry run.
      const args = [
        'withdraw',
        'batch',
        f,
        ...(broken ? ['--yes'] : ['--dry-run']),
        ...(r.bool() ? ['-o', r.pick(['json', 'csv', 'ndjson', 'table'])] : []),
      ];
      await sb.sent();
      const res = await bounded(args, 20_000);
      const sent = await sb.sent();
      const key = `${broken ? 'broken' : 'dry-run'}:${res.code}`;
      codes.set(key, (codes.get(key) ?? 0) + 1);
      const l = `${label(args)} <<${JSON.stringify(text.slice(0, 160))}>>`;
      failures.push(...problems(l, res));
      if (sent.some((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals')))
        failures.push(`${l}: a withdrawal was sent`);
      if (broken && res.code !== 2) failures.push(`${l}: broken file, exit ${res.code}: ${res.stderr.slice(0, 300)}`);
      if (broken && sent.length) failures.push(`${l}: broken file, yet ${sent.length} requests`);
      if (!broken && ![0, 2, 6, 7].includes(res.code))
        failures.push(`${l}: dry run exit ${res.code}: ${res.stderr.slice(0, 300)}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
    console.log(
      `fuzz-cli: ${BATCH_RUNS} damaged batch files, outcomes ${JSON.stringify(Object.fromEntries([...codes].sort()))}`,
    );
  });

  it(`${CHILD_RUNS} generated invalid invocations as child processes through bin/coinop.js`, async () => {
    const r = new Rng(SEED + 2);
    const all = specs();
    const failures: string[] = [];
    await sb.sent();
    const work: { args: string[]; why: string[] }[] = [];
    while (work.length < CHILD_RUNS) {
      const w = invalidInvocation(r, all[work.length % all.length]);
      // argv cannot carry NUL bytes; E2BIG would be the kernel's, not coinop's.
      if (w.args.some((a) => a.includes('\u0000')) || w.args.join(' ').length > 100_000) continue;
      work.push(w);
    }
    for (let i = 0; i < work.length; i += 6) {
      const results = await Promise.all(
        work.slice(i, i + 6).map((w) => sb.run(w.args, { env: { COINOP_NO_INPUT: '1' } })),
      );
      results.forEach((res, index) => {
        const { args, why } = work[i + index];
        const l = `${label(args)} [${why.join('; ')}]`;
        failures.push(...problems(l, res));
        if (res.code !== 2) failures.push(`${l}: exit ${res.code}, not 2: ${res.stderr.trim().slice(0, 300)}`);
        else if (res.stderr.trim().split('\n').length !== 1)
          failures.push(`${l}: not one line: ${res.stderr.slice(0, 300)}`);
        if (res.stdout) failures.push(`${l}: printed data`);
      });
    }
    expect(failures).toEqual([]);
    expect(await sb.sent()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Random command lines: words of the real tree in random order and number, valid and invalid values mixed.

interface Vocab {
  paths: string[][];
  flags: string[];
  values: string[];
}

function vocabulary(): Vocab {
  const all = specs();
  const flags = new Set<string>([
    '--context',
    '-o',
    '--json',
    '--debug',
    '--no-color',
    '--dry-run',
    '--quote',
    '--all',
    '--cursor',
    '--fee-id',
    '--memo',
    '--identity-id',
    '--account-id',
    '--client-id',
    '--include',
    '-i',
    '--paginate',
    '--resume',
    '--skip-invalid',
    '--book',
    '--depth',
    '--interval',
    '--count',
    '--duration',
  ]);
  for (const s of all) for (const f of Object.keys(s.flags)) if (!f.startsWith('#')) flags.add(f);
  return {
    paths: [
      ...all.map((s) => s.path),
      ['logout'],
      ['context', 'use'],
      ['withdraw', 'bogus'],
      ['help'],
      [],
      ['transfers'],
      ['stream', 'heartbeat'],
    ],
    flags: [...flags],
    values: [
      'BTC',
      'ETH',
      'USD',
      'BITCOIN',
      'ETHEREUM',
      'BASE',
      BTC_ADDRESS,
      ETH_ADDRESS,
      '0.01',
      '1',
      '10.00',
      '0.000000001',
      'BTCUSD',
      'ETHEUR',
      'ONE_DAY',
      'GET',
      'POST',
      '/v2/transfer/transfers',
      'transfer/deposit-addresses',
      'local',
      'sandbox',
      'json',
      'csv',
      'ndjson',
      'table',
      '24h',
      'now',
      '2026-01-01T00:00:00Z',
      'k=v',
      'PENDING',
      'CRYPTO_WITHDRAWAL',
      'ASC',
      'DESC',
      'CREATED_AT',
      'bash',
      '5',
      '0',
      '-1',
      '1e3',
      '',
    ],
  };
}

function chaos(rng: Rng, vocab: Vocab): string[] {
  const path = rng.pick(vocab.paths);
  const args = [...path];
  const n = rng.int(0, 8);
  for (let i = 0; i < n; i++) {
    const roll = rng.int(0, 9);
    if (roll < 5) {
      const f = rng.pick(vocab.flags);
      args.push(f);
      if (rng.int(0, 4) > 0) args.push(rng.int(0, 3) === 0 ? rng.odd() : rng.pick(vocab.values));
    } else if (roll < 8) args.push(rng.pick(vocab.values));
    else args.push(rng.odd());
  }
  // Nothing that would not end by itself: a foreground server, a transfer followed for minutes, a live stream.
  if (path[0] === 'local') args.push('--port', 'bad');
  if (path[0] === 'stream') args.push('--duration', '1', '--count', '1', '-o', 'ndjson');
  const out = args.filter(
    (a, i) =>
      !['--wait', '--timeout', '--wait-timeout'].includes(a) && a !== '--help' && args[i - 1] !== '--wait-timeout',
  );
  if (path[0] === 'transfers' && path[1] === 'watch') out.push('--wait-timeout', '1');
  // Interactive login needs a terminal; --no-input makes any missing value a usage error.
  return [...out, '--no-input'];
}

/**
 * A batch file damaged at random. `broken` is true only when the damage certainly makes the file invalid (a row
 * with a bad amount, an unknown network, a broken quote or a cut JSON array); other damage may leave it valid.
 */
function damagedBatch(rng: Rng, header: string, rows: string[]): { text: string; broken: boolean } {
  const csv = `${[header, ...rows].join('\n')}\n`;
  const objs = rows.map((row) => {
    const [destination_address, asset, crypto_network, amount, inv] = row.split(',');
    return { destination_address, asset, crypto_network, amount, metadata: { invoice: inv } };
  });
  const jsonl = `${objs.map((o) => JSON.stringify(o)).join('\n')}\n`;
  const json = JSON.stringify(objs, null, 1);
  switch (rng.int(0, 11)) {
    case 0: // a certainly bad value in a random row
      return {
        text: [
          header,
          ...rows.map((x, i) =>
            i === 1
              ? x.replace(/,[0-9.]+,/, `,${rng.pick(['-1', '1e3', 'abc', '0', '1.0000000000000000001', '', '١'])},`)
              : x,
          ),
        ].join('\n'),
        broken: true,
      };
    case 1:
      return {
        text: [
          header,
          ...rows.map((x, i) => (i === 0 ? x.replace('BITCOIN', rng.pick(['MOON', 'BIT-COIN', 'ETHEREUM', ''])) : x)),
        ].join('\n'),
        broken: true,
      };
    case 2: // an unterminated quote
      return { text: csv.replace('INV-2', '"INV-2'), broken: true };
    case 3: // a JSON array cut short
      return { text: json.slice(0, rng.int(1, json.length - 2)), broken: true };
    case 4: // a JSON Lines row cut short
      return { text: `${jsonl.slice(0, jsonl.indexOf('\n') + rng.int(2, 40))}\n${jsonl}`, broken: true };
    case 5: // too many metadata pairs
      return {
        text: [
          'destination_address,asset,crypto_network,amount,' +
            Array.from({ length: 7 }, (_, i) => `meta.k${i}`).join(','),
          `${rows[0].split(',').slice(0, 4).join(',')},${'v,'.repeat(7).slice(0, -1)}`,
        ].join('\n'),
        broken: true,
      };
    case 6: // both amount and total
      return {
        text: `destination_address,asset,crypto_network,amount,total\n${BTC_ADDRESS},BTC,BITCOIN,0.001,0.002\n`,
        broken: true,
      };
    case 7: {
      // random bytes spliced in anywhere
      const at = rng.int(0, csv.length);
      return { text: csv.slice(0, at) + rng.odd().slice(0, 200) + csv.slice(at), broken: false };
    }
    case 8: {
      // truncated anywhere
      return { text: rng.pick([csv, jsonl, json]).slice(0, rng.int(0, csv.length)), broken: false };
    }
    case 9: // binary garbage
      return {
        text: Array.from({ length: rng.int(1, 3000) }, () => String.fromCharCode(rng.int(0, 255))).join(''),
        broken: false,
      };
    case 10: // a header of odd names, repeated or missing columns
      return {
        text: [
          rng.pick([
            '',
            'a,b,c',
            `${header},asset`,
            header.replace('asset', ''),
            `\ufeff${header}`,
            header.toUpperCase(),
            ',,,,',
          ]),
          ...rows,
        ].join(rng.pick(['\n', '\r\n', '\r'])),
        broken: false,
      };
    default: {
      // lines shuffled, duplicated, emptied
      const lines = csv.split('\n');
      return {
        text: Array.from({ length: rng.int(1, 8) }, () =>
          rng.pick([...lines, '', ' ', ',,,,', '"', rng.odd().slice(0, 100)]),
        ).join('\n'),
        broken: false,
      };
    }
  }
}
