// A batch row may carry the Travel Rule's beneficiary: in CSV as beneficiary.first_name, beneficiary.last_name or
// beneficiary.institution columns (CSV has no objects), in JSON as those keys or the beneficiary object itself. The
// columns become the request's beneficiary, spelled once; a half-named person, a person and an institution, or the
// columns beside the object are the row's issues. The beneficiary is part of what a derived ref_id hashes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchFormat } from '../../src/batch/reader.js';
import { formatRowIssue, type RowIssue } from '../../src/batch/rows.js';
import { scanFile } from '../../src/batch/scan.js';
import { Stage } from '../../src/batch/stage.js';
import { BTC_ADDRESS as BTC } from '../support/addresses.js';

const dir = mkdtempSync(join(tmpdir(), 'coinop-batch-beneficiary-'));

async function scan(name: string, text: string, format: BatchFormat = 'csv') {
  const f = join(dir, name);
  writeFileSync(f, text);
  const issues: RowIssue[] = [];
  const stage = Stage.create(dir);
  const rows: { body: Record<string, unknown> }[] = [];
  await scanFile(f, {
    format,
    defaultProfileId: 'prof-1',
    onIssue: (i) => issues.push(i),
    onRow: (row) => {
      rows.push(row);
      stage.addValid(row);
    },
  });
  return { issues: issues.map(formatRowIssue), rows, stage };
}

const HEAD = 'destination_address,asset,crypto_network,amount';

describe('beneficiary columns of a batch', () => {
  it('CSV columns make the beneficiary (a person, an institution), names trimmed and spaces single', async () => {
    const { issues, rows } = await scan(
      'people.csv',
      [
        `${HEAD},Beneficiary.First_Name,beneficiary.last_name,beneficiary.institution`,
        `${BTC},BTC,BITCOIN,0.01, Ada ,King  Lovelace,`,
        `${BTC},BTC,BITCOIN,0.02,,,Acme Ltd`,
        `${BTC},BTC,BITCOIN,0.03,,,`,
      ].join('\n'),
    );
    expect(issues).toEqual([]);
    expect(rows.map((r) => r.body.beneficiary)).toEqual([
      { person_details: { first_name: 'Ada', last_name: 'King Lovelace' } },
      { institution_details: { name: 'Acme Ltd' } },
      undefined,
    ]);
  });

  it('refuses half a person, a person and an institution, and the columns beside the object', async () => {
    const { issues } = await scan(
      'bad.jsonl',
      [
        { 'beneficiary.first_name': 'Ada' },
        { 'beneficiary.first_name': 'Ada', 'beneficiary.last_name': 'L', 'beneficiary.institution': 'Acme' },
        { 'beneficiary.institution': 'Acme', beneficiary: { institution_details: { name: 'Acme' } } },
        { 'beneficiary.institution': 7 },
      ]
        .map((b) =>
          JSON.stringify({ destination_address: BTC, asset: 'BTC', crypto_network: 'BITCOIN', amount: '0.01', ...b }),
        )
        .join('\n'),
      'jsonl',
    );
    expect(issues).toEqual([
      'row 1: beneficiary.last_name: a person needs both names (beneficiary.first_name and beneficiary.last_name)',
      'row 2: beneficiary.institution: a person or an institution, not both (beneficiary.first_name, last_name)',
      'row 3: beneficiary: give the beneficiary object or the beneficiary.* columns, not both',
      'row 4: beneficiary.institution: must be a name (text)',
    ]);
  });

  it('the beneficiary is part of what a derived ref_id hashes: the same payment to another beneficiary is another row', async () => {
    const { stage } = await scan(
      'two.csv',
      [
        `${HEAD},beneficiary.institution`,
        `${BTC},BTC,BITCOIN,0.01,Acme Ltd`,
        `${BTC},BTC,BITCOIN,0.01,Other Ltd`,
        `${BTC},BTC,BITCOIN,0.01,Acme Ltd`,
      ].join('\n'),
    );
    expect(stage.finish()).toEqual([]);
    const refs = [...stage.valid()].map((r) => r.ref_id);
    stage.remove();
    expect(refs[0]).toMatch(/-1$/);
    expect(refs[2]).toBe(refs[0].replace(/-1$/, '-2'));
    expect(refs[1].replace(/-\d+$/, '')).not.toBe(refs[0].replace(/-\d+$/, ''));
  });
});
