// The one table mechanism: columns left out by rank on a narrow terminal (identity never), ids shortened, not split;
// --columns and --wide; objects read as words.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { makeIO } from '../../src/cli/io.js';
import { TRANSFER_LIST_COLUMNS } from '../../src/render/columns.js';
import { groupedAmount, Output } from '../../src/render/output.js';
import {
  checkColumnNames,
  type Column,
  fitTable,
  readable,
  tableLines,
  viewColumns,
  wrapText,
} from '../../src/render/table.js';
import { CoinopError } from '../../src/errors.js';
import { capturedStreams } from '../cli/helpers.js';

const COLS: Column[] = [
  { key: 'id', kind: 'id', identity: true },
  { key: 'a', rank: 2 },
  { key: 'b', rank: 3 },
  { key: 'c', rank: 3 },
  { key: 'note', kind: 'text', rank: 2 },
  { key: 'x', wide: true },
];

describe('fitTable', () => {
  const natural = [36, 10, 10, 10, 40, 5];

  it('leaves nothing out without a width (piped) or when it fits', () => {
    expect(fitTable(COLS, natural).shown).toEqual([0, 1, 2, 3, 4, 5]);
    expect(fitTable(COLS, natural, 200).dropped).toEqual([]);
  });

  it('leaves out the lowest ranked first (the rightmost among equals), rank 1 last, an identity column never', () => {
    // 36+10+10+10+40+5 + 5 gaps of 2 = 121.
    expect(fitTable(COLS, natural, 110).dropped.map((c) => c.key)).toEqual(['c']);
    expect(fitTable(COLS, natural, 100).dropped.map((c) => c.key)).toEqual(['b', 'c']);
    const narrow = fitTable(COLS, natural, 40);
    expect(narrow.shown.map((i) => COLS[i].key)).toEqual(['id']);
    // Below what the identity needs, the line is longer than asked: nothing is cut.
    const tiny = fitTable(COLS, natural, 20);
    expect(tiny.shown.map((i) => COLS[i].key)).toEqual(['id']);
    expect(tiny.widths[0]).toBe(36);
  });

  it('shortens ids before it leaves out a column ranked 1 or 2, and brings back what fits then', () => {
    const cols: Column[] = [
      { key: 'id', kind: 'id', identity: true, short: true },
      { key: 'status', rank: 1 },
      { key: 'type', identity: true },
      { key: 'created', rank: 2 },
      { key: 'ref', rank: 4 },
    ];
    // 36+9+17+8+20 + 8 = 98: at 80 the ref goes (76+... no: 36+9+17+8+6 = 76 fits).
    expect(fitTable(cols, [36, 9, 17, 8, 20], 90, { shortWidths: [8] }).dropped.map((c) => c.key)).toEqual(['ref']);
    const l = fitTable(cols, [36, 9, 17, 8, 20], 70, { shortWidths: [8] });
    // Without shortening, created would go; with it, the ref comes back too (8+9+17+8+20 + 8 = 70).
    expect(l.short[0]).toBe(true);
    expect(l.widths[0]).toBe(8);
    expect(l.dropped).toEqual([]);
    expect(l.shown).toEqual([0, 1, 2, 3, 4]);
    // --wide, --columns: never shortened.
    expect(fitTable(cols, [36, 9, 17, 8, 20], 70, { keepAll: true, shortWidths: [8] }).short[0]).toBe(false);
  });

  it('wraps free text before anything else is cut, and only free text, never below its longest id', () => {
    const cols: Column[] = [
      { key: 'id', kind: 'id', identity: true },
      { key: 'note', kind: 'text' },
    ];
    const l = fitTable(cols, [36, 60], 80, { floors: [0, 20] });
    expect(l.dropped).toEqual([]);
    expect(l.widths).toEqual([36, 42]);
    const lines = tableLines(cols, null, [['7f3c9a12-0000-4000-8000-000000000001', 'word '.repeat(20).trim()]], l);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0].startsWith('7f3c9a12-0000-4000-8000-000000000001  word')).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // The wrapped cell's later lines stay in its column.
    expect(lines[1].startsWith(`${' '.repeat(38)}word`)).toBe(true);
    // A text column is not wrapped narrower than its longest id: the id's column goes first.
    const floored = fitTable(
      [
        { key: 'id', kind: 'id', identity: true },
        { key: 'note', kind: 'text', rank: 2 },
      ],
      [36, 60],
      60,
      { floors: [0, 36] },
    );
    expect(floored.dropped.map((c) => c.key)).toEqual(['note']);
  });

  it('keeps every column with --wide or --columns (keepAll)', () => {
    expect(fitTable(COLS, natural, 40, { keepAll: true }).dropped).toEqual([]);
  });
});

describe('wrapText', () => {
  it('breaks at spaces, and breaks a word longer than the width', () => {
    expect(wrapText('short', 10)).toEqual(['short']);
    expect(wrapText('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
    expect(wrapText('abcdefghij k', 4)).toEqual(['abcd', 'efgh', 'ij k']);
    // An id, an address or a hash is never split, whatever the width.
    expect(wrapText('sent 7f3c9a12-0000-4000-8000-000000000001 ok', 10)).toEqual([
      'sent',
      '7f3c9a12-0000-4000-8000-000000000001',
      'ok',
    ]);
  });
});

describe('--columns and --wide', () => {
  it('names columns by header (spaces as _) or field, in any case; an unknown one lists them all', () => {
    expect(() => checkColumnNames(['ID', 'ref_id', 'crypto_network', 'tx_hash'], TRANSFER_LIST_COLUMNS)).not.toThrow();
    let err: unknown;
    try {
      checkColumnNames(['id', 'colour'], TRANSFER_LIST_COLUMNS);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CoinopError);
    expect((err as CoinopError).category).toBe('usage');
    expect((err as CoinopError).message).toMatch(
      /^--columns: "colour" is not a column of this table \(id, status, type, asset, amount, created, ref_id, fee, total, network, destination, tx_hash, /,
    );
    expect(() => checkColumnNames(['id', 'ID'], TRANSFER_LIST_COLUMNS)).toThrow(/id is named twice/);
    expect(() => checkColumnNames([], TRANSFER_LIST_COLUMNS)).toThrow(/name at least one column/);
  });

  it('the default table leaves out wide-only columns; CSV and --wide have every one; --columns its own order', () => {
    expect(viewColumns(COLS, {}, false).map((c) => c.key)).toEqual(['id', 'a', 'b', 'c', 'note']);
    expect(viewColumns(COLS, {}, true).map((c) => c.key)).toEqual(['id', 'a', 'b', 'c', 'note', 'x']);
    expect(viewColumns(COLS, { wide: true }, false).map((c) => c.key)).toEqual(['id', 'a', 'b', 'c', 'note', 'x']);
    expect(viewColumns(COLS, { names: ['x', 'id'] }, true).map((c) => c.key)).toEqual(['x', 'id']);
  });
});

describe('objects in a table', () => {
  it('read as words: a reason with a message is the message', () => {
    expect(
      readable({
        invalid_destination_address: { message: 'cannot receive this asset', destination_address: '0xdead' },
      }),
    ).toBe('invalid_destination_address: cannot receive this asset (destination_address: 0xdead)');
    expect(readable({ name: 'TRAVEL_RULE_INFO_REQUESTED', since: '2026-01-01' })).toBe(
      'name: TRAVEL_RULE_INFO_REQUESTED; since: 2026-01-01',
    );
    expect(readable(['a', 'b'])).toBe('a, b');
  });
});

function terminalOutput(width: number, view = {}) {
  const c = capturedStreams();
  Object.assign(c.out, { isTTY: true, columns: width });
  const io = makeIO({ stdin: new PassThrough(), stdout: c.out, stderr: c.err }, { env: { NO_COLOR: '1' } });
  return { out: new Output(io, 'table', () => Date.parse('2026-03-01T12:00:00Z'), view), c };
}

describe('a transfers table at 80 columns', () => {
  const transfers = Array.from({ length: 3 }, (_, i) => ({
    id: `0b8c6a4e-5f57-4c3e-9d2a-6c1e0f4d2a1${i}`,
    status: 'PENDING',
    type: 'CRYPTO_WITHDRAWAL',
    asset: 'BTC',
    amount: '0.25',
    fee: '0.00002',
    created_at: '2026-03-01T11:59:00Z',
    ref_id: `coinop-cba345f4-df16-4b58-9d62-4fe9c34bb89${i}`,
    destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  }));

  it('fits 80 columns: ids by their first 8 characters, the type kept, one note saying so', async () => {
    const { out, c } = terminalOutput(80);
    await out.list(transfers, TRANSFER_LIST_COLUMNS);
    const lines = c.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['ID', 'STATUS', 'TYPE', 'ASSET', 'AMOUNT', 'CREATED']);
    for (const t of transfers)
      expect(c.stdout).toMatch(new RegExp(`^${t.id.slice(0, 8)}  PENDING  CRYPTO_WITHDRAWAL`, 'm'));
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(c.stdout).not.toContain('…');
    expect(c.stderr).toBe(
      'left out to fit 80 columns: ref_id; ids shown by their first 8 characters\n(see all: -o json or a wider terminal)\n',
    );
  });

  it('at 120 columns every id is whole', async () => {
    const { out, c } = terminalOutput(120, { flags: true });
    await out.list(transfers, TRANSFER_LIST_COLUMNS);
    for (const t of transfers) expect(c.stdout).toContain(t.id);
    expect(c.stderr).toBe(
      'left out to fit 120 columns: ref_id (see all: --wide, --columns, -o json or a wider terminal)\n',
    );
  });

  it('--wide shows every column whatever the width; --columns exactly the ones named', async () => {
    const wide = terminalOutput(80, { wide: true });
    await wide.out.list(transfers, TRANSFER_LIST_COLUMNS);
    expect(wide.c.stdout.split('\n')[0]).toMatch(
      /^ID\s+STATUS\s+TYPE\s+ASSET\s+AMOUNT\s+CREATED\s+REF ID\s+FEE\s+TOTAL/,
    );
    for (const t of transfers) expect(wide.c.stdout).toContain(t.ref_id);
    expect(wide.c.stderr).toBe('');
    const named = terminalOutput(80, { names: ['ref_id', 'destination', 'fee'] });
    await named.out.list(transfers, TRANSFER_LIST_COLUMNS);
    expect(named.c.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['REF ID', 'DESTINATION', 'FEE']);
    expect(named.c.stdout).toContain(`${transfers[0].ref_id}  1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2  0.00002`);
  });
});

describe('amounts in a table', () => {
  it('group their whole part by thousands, digits unchanged; other text as it is', () => {
    expect(groupedAmount('50000000')).toBe('50,000,000');
    expect(groupedAmount('1000000000000.000001')).toBe('1,000,000,000,000.000001');
    expect(groupedAmount('-1234.5')).toBe('-1,234.5');
    expect(groupedAmount('999.99394')).toBe('999.99394');
    expect(groupedAmount('0.00002')).toBe('0.00002');
    expect(groupedAmount('1e21')).toBe('1e21');
  });

  it('in a table only: CSV and JSON keep the service string', async () => {
    const rows = [{ asset: 'PEPE', available: '1000000000000', trading: '0' }];
    const { out, c } = terminalOutput(80);
    await out.list(rows, [
      { key: 'asset', identity: true },
      { key: 'available', kind: 'amount' },
    ]);
    expect(c.stdout).toMatch(/^PEPE\s+1,000,000,000,000$/m);
    const k = capturedStreams();
    const csvOut = new Output(makeIO({ stdin: new PassThrough(), stdout: k.out, stderr: k.err }), 'csv');
    await csvOut.list(rows, [{ key: 'asset' }, { key: 'available', kind: 'amount' }]);
    expect(k.stdout).toContain('PEPE,1000000000000');
  });
});
