// Running a batch that ended again sends nothing and reports its rows with their statuses now: the transfers the
// journal still had as PENDING are asked of the service (one list request per 100 rows, not one per row), in process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTC_ADDRESS, sandbox, type Sandbox } from '../cli/helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const statuses = (csv: string) =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[4]);

describe('a finished batch run again', () => {
  it('reports the statuses of now, asked in one list request, and sends nothing', async () => {
    const file = join(sb.dir, 'rerun.csv');
    const rows = [1, 2, 3].map((i) => `BTC,BITCOIN,${BTC_ADDRESS},0.00${i}`);
    writeFileSync(file, `asset,crypto_network,destination_address,amount\n${rows.join('\n')}\n`);
    const first = await sb.runIn(['withdraw', 'batch', file, '--yes', '-o', 'csv']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[0]).toMatch(/^row,ref_id,result,transfer_id,status,/);
    expect(statuses(first.stdout)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    // The withdrawals settle on the service (its clock moved past their settlement).
    await sb.control('POST', '/_local/clock/advance', { seconds: 120 });
    await sb.sent();
    const again = await sb.runIn(['withdraw', 'batch', file, '--yes', '-o', 'csv']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('this batch already ran to the end');
    expect(statuses(again.stdout)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    const sent = (await sb.sent()).filter((r) => !r.url.startsWith('/oauth') && !r.url.includes('/token'));
    expect(sent.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /v2/transfer/transfers']);
  });
});
