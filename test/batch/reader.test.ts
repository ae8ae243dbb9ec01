// CSV, JSON Lines and JSON array readers: quoting, CRLF, chunk boundaries (property test), broken records, format detection.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  CsvParser,
  JsonArrayParser,
  FileError,
  readRecords,
  detectFormat,
  jsonShape,
  repeatedKey,
  type RawRecord,
} from '../../src/batch/reader.js';

function parseCsv(chunks: string[]) {
  const p = new CsvParser();
  const out: any[] = [];
  for (const c of chunks) out.push(...p.push(c));
  out.push(...p.end());
  return out;
}

function csvQuote(text: string): string {
  return /[",\r\n]/.test(text) || text === '' ? `"${text.replace(/"/g, '""')}"` : text;
}

describe('CSV reader', () => {
  it('reads RFC 4180 quoting, CRLF and embedded newlines', () => {
    const out = parseCsv(['a,b,c\r\n1,"x, ""y""",3\r\n', '"multi\nline",,z\n\n']);
    expect(out[0]).toEqual({ header: ['a', 'b', 'c'], line: 1 });
    expect(out[1]).toEqual({ row: 1, line: 2, cells: ['1', 'x, "y"', '3'] });
    expect(out[2]).toEqual({ row: 2, line: 3, cells: ['multi\nline', '', 'z'] });
    expect(out).toHaveLength(3);
  });

  it('gives the same records however the text is cut into chunks', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', '1', ',', '"', '\n', '\r\n', ' ', 'é') });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(200), { maxLength: 6 }),
        (rows, cuts) => {
          const text = `h1,h2\r\n${rows.map((r) => r.map(csvQuote).join(',')).join('\r\n')}\r\n`;
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let prev = 0;
          for (const p of points) {
            chunks.push(text.slice(prev, p));
            prev = p;
          }
          chunks.push(text.slice(prev));
          const recs = parseCsv(chunks).slice(1) as RawRecord[];
          expect(recs.map((r) => r.cells)).toEqual(rows);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reports broken quoting with its row and keeps reading', () => {
    const out = parseCsv(['a,b\n1,x"y\n"2"z,3\nok,4\n']);
    expect(out[1]).toMatchObject({ row: 1, line: 2, error: expect.stringMatching(/quote inside an unquoted field 2/) });
    expect(out[2]).toMatchObject({
      row: 2,
      line: 3,
      error: expect.stringMatching(/text after a closing quote in field 1/),
    });
    expect(out[3]).toMatchObject({ row: 3, cells: ['ok', '4'] });
  });

  it('stops at an unterminated quote, naming the line it opened on', () => {
    expect(() => parseCsv(['a,b\n1,2\n3,"never closed\n4,5\n'])).toThrowError(/quote opened on line 3 is never closed/);
  });

  it('reports a row with the wrong number of fields', () => {
    expect(parseCsv(['a,b\n1,2,3\n'])[1]).toMatchObject({ row: 1, error: 'has 3 fields, the header has 2' });
  });
});

describe('JSON readers', () => {
  it('streams a JSON array element by element, across chunk cuts', () => {
    const text = '[ {"a":"1","s":"x],{\\"y"}, {"b":[1,{"c":2}]} ,\n{"d":"4"}]';
    for (let cut = 0; cut <= text.length; cut++) {
      const p = new JsonArrayParser();
      const out = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut)), ...p.end()];
      expect(out.map((r) => r.value)).toEqual([{ a: '1', s: 'x],{"y' }, { b: [1, { c: 2 }] }, { d: '4' }]);
    }
  });

  it('ends a string at a quote after an even run of backslashes, however the text is cut, and counts lines', () => {
    // Strings ending in an escaped backslash, an escaped quote after one, a key spelled with escapes.
    const text = '[\n{"a":"x\\\\","b":"\\\\\\"]"},\n\n  {"c\\"":"2",\n"d":"}"},{"e":"\\\\\\\\"}\n]\n';
    const want = [{ a: 'x\\', b: '\\"]' }, { 'c"': '2', d: '}' }, { e: '\\\\' }];
    for (let cut = 0; cut <= text.length; cut++) {
      for (const second of [cut, cut + 1, cut + 2]) {
        const p = new JsonArrayParser();
        const parts = [text.slice(0, cut), text.slice(cut, second), text.slice(second)];
        const out = [...parts.flatMap((t) => [...p.push(t)]), ...p.end()];
        expect(out.map((r) => [r.value, r.line, r.error])).toEqual([
          [want[0], 2, undefined],
          [want[1], 4, undefined],
          [want[2], 5, undefined],
        ]);
      }
    }
  });

  it('names bad elements and refuses a truncated array', () => {
    const p = new JsonArrayParser();
    const out = [...p.push('[{"a":1},{bad},,{"c":3}]'), ...p.end()];
    expect(out.map((r) => (r.error ? `${r.row}:err` : `${r.row}:ok`))).toEqual(['1:ok', '2:err', '3:err', '4:ok']);
    const q = new JsonArrayParser();
    expect(() => [...q.push('[{"a":1},{"b"'), ...q.end()]).toThrowError(FileError);
  });

  it('finds a key an object gives twice: the top level in any case, deeper ones exactly; strings are no keys', () => {
    expect(jsonShape('{"a":"1","b":{"c":[{"d":1}]}}')).toEqual({ depth: 4, keys: 4 });
    expect(jsonShape('{"a":"x:","b":["c",":"]}')).toEqual({ depth: 2, keys: 2 });
    expect(repeatedKey('{"a":"1","b":{"c":[{"d":1}]}}')).toBeUndefined();
    expect(repeatedKey('{"amount":"0.01","amount":"7"}')).toEqual({
      first: 'amount',
      key: 'amount',
      path: 'amount',
    });
    expect(repeatedKey('{"amount":"0.01","Amount":"7"}')).toEqual({
      first: 'amount',
      key: 'Amount',
      path: 'Amount',
    });
    // Metadata keys keep their case; under metadata keys compare exactly.
    expect(repeatedKey('{"meta.K":"1","meta.k":"2","metadata":{"x":"1","X":"2"}}')).toBeUndefined();
    expect(repeatedKey('{"b":{"n":{"x":1,"x":2}}}')?.path).toBe('b.n.x');
    // Keys of sibling objects, strings that look like keys, escapes.
    expect(repeatedKey('[{"a":1},{"a":2}]')).toBeUndefined();
    expect(repeatedKey('{"s":"\\"a\\":1,","a":["a","a"],"t":{"a":1}}')).toBeUndefined();
    expect(repeatedKey('{"a":1,"\\u0061":2}')).toEqual({ first: 'a', key: 'a', path: 'a' });
    const p = new JsonArrayParser();
    const [rec] = [...p.push('[{"asset":"BTC","ASSET":"ETH"}]'), ...p.end()];
    expect(rec).toMatchObject({ row: 1, field: 'ASSET', error: expect.stringMatching(/^is given twice in the row/) });
  });

  it('reads JSON Lines and a file with a BOM, detecting the format', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-batch-'));
    const f = join(dir, 'rows');
    writeFileSync(f, '\uFEFF{"a":"1"}\n\n{"a":2\n{"a":"3"}');
    expect(await detectFormat(f)).toBe('jsonl');
    const recs: any[] = [];
    for await (const r of readRecords(f, 'jsonl')) recs.push(r);
    expect(recs.map((r) => [r.row, r.line, r.value ?? 'error'])).toEqual([
      [1, 1, { a: '1' }],
      [2, 3, 'error'],
      [3, 4, { a: '3' }],
    ]);
    const c = join(dir, 'rows.txt');
    writeFileSync(c, '\uFEFFasset,amount\r\nBTC,1\r\n');
    expect(await detectFormat(c)).toBe('csv');
    const crecs: any[] = [];
    for await (const r of readRecords(c, 'csv')) crecs.push(r);
    expect(crecs[0]).toEqual({ header: ['asset', 'amount'], line: 1 });
  });
});
