// The one table rule on a terminal of 80, 120 and 200 columns, for every kind of table command: no line wider than
// the terminal, no id split across lines, the column that says what a row is always there, and one note on stderr
// naming what was left out or shortened (and how to see it). Piped and with --columns nothing is left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTC_ADDRESS, type Sandbox, sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
  for (const n of [1, 2, 3]) {
    const r = await sb.runIn([
      ...['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', `0.00${n}`],
      ...['--ref-id', `fit-${n}`, '--yes', '-o', 'json'],
    ]);
    expect(r.code).toBe(0);
  }
}, 60_000);
afterAll(() => sb.close());

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const onTerminal = (args: string[], width: number) =>
  sb.runIn(args, { env: { COINOP_PAGER: 'cat' }, terminal: { stdout: width } });

/** The ids the JSON output holds (whole), from the same command piped. */
async function idsOf(args: string[]): Promise<string[]> {
  const r = await sb.runIn([...args, '-o', 'json']);
  expect(r.code).toBe(0);
  return [...new Set(r.stdout.match(UUID) ?? [])];
}

const TABLES: { name: string; args: string[]; identity: string }[] = [
  { name: 'events list', args: ['events', 'list', '--limit', '20'], identity: 'TYPE' },
  { name: 'audit list', args: ['audit', 'list'], identity: 'KIND' },
  { name: 'transfers list', args: ['transfers', 'list', '--limit', '20'], identity: 'TYPE' },
  { name: 'profiles list', args: ['profiles', 'list'], identity: 'NICKNAME' },
  { name: 'balances --all-profiles', args: ['balances', '--all-profiles'], identity: 'PROFILE' },
  { name: 'addresses list', args: ['addresses', 'list'], identity: 'ADDRESS' },
  { name: 'trades', args: ['trades', 'BTCUSD', '--limit', '10'], identity: 'PRICE' },
];

describe.each(TABLES)('$name', ({ args, identity }) => {
  it.each([80, 120, 200])('fits %i columns, never splits an id, keeps its identity column', async (width) => {
    const r = await onTerminal(args, width);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(width);
    expect(lines[0]).toMatch(new RegExp(`(^|\\s)${identity}(\\s|$)`));
    // Every id-looking thing in a cell is a whole id or its first 8 characters, and never broken over two lines.
    const whole = await idsOf(args);
    for (const cell of r.stdout.split(/\s{2,}|\n/)) {
      if (/^[0-9a-f]{8}-[0-9a-f-]*$/.test(cell)) expect(whole, cell).toContain(cell);
    }
    for (const l of r.stderr.split('\n')) expect(l.length, l).toBeLessThanOrEqual(width);
    const note = r.stderr.split('\n').filter((l) => /left out to fit|first 8 characters/.test(l));
    expect(note.length).toBeLessThanOrEqual(1);
    const shown = r.stdout.split(/\s{2,}|\n/);
    const shortened = whole.filter((id) => shown.includes(id.slice(0, 8)));
    if (shortened.length) expect(note[0]).toContain('ids shown by their first 8 characters');
    if (note[0]) expect(r.stderr).toContain('(see all: --wide, --columns, -o json or a wider terminal)');
  });
});

describe('readable values in tables', () => {
  it('trades show their time of day to the second, not "just now"; large amounts grouped by thousands', async () => {
    const t = await onTerminal(['trades', 'BTCUSD', '--limit', '10'], 120);
    expect(t.code, t.stderr).toBe(0);
    const rows = t.stdout.trimEnd().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatch(/^\d\d:\d\d:\d\d\s/);
    const b = await onTerminal(['balances', 'SOL'], 120);
    expect(b.stdout).toMatch(/^SOL\s+\d{1,3}(,\d{3})+(\.\d+)?\s/m);
    const piped = JSON.parse((await sb.runIn(['balances', 'SOL'])).stdout);
    expect(JSON.stringify(piped)).not.toMatch(/\d,\d{3}/);
  });
});
