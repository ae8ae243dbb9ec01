// coinop reconcile in process over a sandbox: exit 0 when every line is explained; the intents of batch journals
// alone (no audit log); an intent the service holds no transfer for; --profile-id; the four formats; the options.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReconcileOptions } from '../../src/commands/reconcile/options.js';
import { declareReconcile } from '../../src/commands/reconcile/flags.js';
import { AuditLog } from '../../src/audit/log.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS, type Sandbox, sandbox } from '../cli/helpers.js';
import { parseArgv } from '../support/argv.js';
import { transferFlags } from '../support/command-lines.js';
import { NOW } from '../commands/ports.js';
import { usageMessage } from '../commands/support.js';

let sb: Sandbox;
let batchRefs: string[] = [];
const period = () => ['--from', '1d', '--to', new Date(Date.now() + 3_600_000).toISOString()];

async function ok(args: string[]): Promise<string> {
  const r = await sb.runIn(args);
  if (r.code !== 0) throw new Error(`${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  sb = await sandbox();
  const file = join(sb.dir, 'pay.csv');
  writeFileSync(
    file,
    [
      'destination_address,asset,crypto_network,amount',
      `${BTC_ADDRESS},BTC,BITCOIN,0.01`,
      `${ETH_ADDRESS},ETH,ETHEREUM,0.2`,
    ].join('\n'),
  );
  const rows = JSON.parse(await ok(['withdraw', 'batch', file, '--profile-id', DEMO.profileId, '--yes', '-o', 'json']));
  batchRefs = rows.map((r: { ref_id: string }) => r.ref_id);
  await ok([
    'withdraw',
    ...transferFlags('BTC', '0.004'),
    '--ref-id',
    'one-1',
    '--profile-id',
    DEMO.profileId,
    '--yes',
  ]);
}, 60_000);

afterAll(() => sb?.close());

describe('coinop reconcile', () => {
  it('exits 0 when every line is explained, in flight ones included; NDJSON: period, summary, then lines', async () => {
    const r = await sb.runIn(['reconcile', ...period(), '-o', 'ndjson']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const records = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({ record: 'period', unexplained: 0, explained_classes: ['matched', 'in_flight'] });
    const lines = records.filter((x) => x.record === 'line');
    // Withdrawals take 30 s on the service's clock: in flight now.
    expect(lines.map((l) => [l.ref_id, l.class]).sort()).toEqual(
      [...batchRefs.map((ref) => [ref, 'in_flight']), ['one-1', 'in_flight']].sort(),
    );
    expect(records.filter((x) => x.record === 'summary').map((x) => [x.asset, x.class, x.lines])).toEqual([
      ['BTC', 'in_flight', 2],
      ['ETH', 'in_flight', 1],
    ]);
    await sb.control('POST', '/_local/clock/advance', { seconds: 60 });
    const settled = await sb.runIn(['reconcile', ...period(), '-o', 'json']);
    expect(settled.code).toBe(0);
    expect(JSON.parse(settled.stdout).summary.map((x: { class: string }) => x.class)).toEqual(['matched', 'matched']);
  });

  it('CSV: summary rows, then the lines, one header; the table: the summary, then the lines', async () => {
    const csv = await sb.runIn(['reconcile', ...period(), '-o', 'csv']);
    const [head, ...rest] = csv.stdout.trim().split('\r\n');
    expect(head).toBe(
      'record,lines,class,asset,amount,ref_id,status,reason,transfer_id,intended_amount,fee,type,network,destination,profile_id,created_at,intent,kind,target_asset,status_at_end,event_status',
    );
    expect(rest.map((l) => l.split(',')[0])).toEqual(['summary', 'summary', 'line', 'line', 'line']);
    const table = await sb.runIn(['reconcile', ...period(), '-o', 'table']);
    expect(table.stdout).toMatch(/^ASSET\s+CLASS\s+LINES\s+AMOUNT\s+EXPLAINED\nBTC\s+matched\s+2\s+0\.014\s+true\n/);
    expect(table.stdout).toContain('\n\nCLASS');
  });

  it('reads the batch journals when the audit log is gone; an intent with no transfer is missing (exit 11)', async () => {
    const log = join(sb.dir, 'data', 'audit', 'audit.log');
    renameSync(log, `${log}.away`);
    try {
      const r = await sb.runIn(['reconcile', ...period(), '-o', 'json']);
      const out = JSON.parse(r.stdout);
      expect(out.lines.filter((l: { intent?: string }) => l.intent?.startsWith('journal ')).length).toBe(2);
      // one-1 has no journal: without the audit log it is a payment nobody here intended.
      expect(out.lines.find((l: { ref_id: string }) => l.ref_id === 'one-1').class).toBe('unintended');
      expect(r.code).toBe(11);
      expect(r.stderr).toContain('1 line(s) not explained (unintended); explained are matched and in_flight');
    } finally {
      renameSync(`${log}.away`, log);
    }
    // A withdrawal recorded as sent without an answer, which the service never got: intended but not found.
    await new AuditLog(log).append([
      {
        who: { os_user: 'test' },
        event: {
          kind: 'withdrawal',
          ref_id: 'ghost-1',
          what: {
            asset: 'ETH',
            network: 'ETHEREUM',
            amount: '1',
            destination: ETH_ADDRESS,
            profile_id: DEMO.profileId,
          },
          outcome: { result: 'unknown', error: { category: 'network', message: 'no answer' } },
        },
      },
    ]);
    const r = await sb.runIn(['reconcile', ...period(), '-o', 'json']);
    const ghost = JSON.parse(r.stdout).lines.find((l: { ref_id: string }) => l.ref_id === 'ghost-1');
    expect(ghost).toMatchObject({ class: 'missing', asset: 'ETH', amount: '1', kind: 'withdrawal' });
    expect(ghost.reason).toBe('recorded as sent without an answer; the service holds no transfer with its ref_id');
    expect(r.code).toBe(11);
  });

  it('--profile-id: only that profile, and it is sent as profile_ids', async () => {
    await sb.sent();
    const r = await sb.runIn(['reconcile', ...period(), '--profile-id', DEMO.emptyProfileId, '-o', 'json']);
    const out = JSON.parse(r.stdout);
    expect(out.intents).toBe(0);
    expect(r.code).toBe(0);
    const urls = (await sb.sent())
      .map((s) => decodeURIComponent(s.url))
      .filter((u) => u.includes('/transfer/transfers'));
    expect(urls[0]).toContain(`profile_ids=${DEMO.emptyProfileId}`);
    expect(urls[0]).toMatch(/created_at\.gte=.*created_at\.lt=/);
  });
});

describe('reconcile options', () => {
  const parse = (argv: string[]) => parseReconcileOptions(parseArgv(declareReconcile, argv), NOW);
  it('reads the period, the profiles and the journals', () => {
    expect(parse(['--from', '2026-02-01', '--to', '2026-03-01', '--profile-id', 'a,b', '--journals', 'j'])).toEqual({
      period: { from: '2026-02-01T00:00:00Z', to: '2026-03-01T00:00:00Z' },
      profileIds: ['a', 'b'],
      journals: 'j',
      view: undefined,
    });
    expect(parse(['--from', '1d']).period).toEqual({ from: '2026-02-28T12:00:00Z', to: '2026-03-01T12:00:00Z' });
  });
  it.each([
    { argv: [], want: '--from: give the start of the period (such as 2026-11-01, or 30d)' },
    { argv: ['--from', '2026-03-02'], want: '--from: must be before --to' },
    { argv: ['--from', 'soon'], want: expect.stringMatching(/^--from: "soon" is not a time/) },
    { argv: ['--from', '1d', '--columns', 'nope'], want: expect.stringMatching(/^--columns: "nope" is not a column/) },
  ])('$argv: $want', ({ argv, want }) => {
    expect(usageMessage(() => parse(argv))).toEqual(want);
  });
});
