// coinop reconcile against differences planted in the local service: a fee changed, a transfer failed after its batch
// ended, a payment made with `coinop api` on another machine, a deposit from outside, a row paid twice under a salted
// ref_id; a conversion made with `coinop api` on another machine, a conversion cancelled, a transfer whose failure the
// event feed never said. Each is found and classed as planted; everything else coinop sent (a fiat withdrawal, a
// conversion settled) is matched, a conversion still CREATED in flight; exit 11. In process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS, type Sandbox, sandbox } from '../cli/helpers.js';
import { FIAT_ACCOUNT_CREATE, transferFlags } from '../support/command-lines.js';

const SOL = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
let sb: Sandbox;
/** The batch's rows by their invoice: ref_id and transfer id. */
const rows = new Map<string, { ref_id: string; transfer_id: string }>();
let depositId = '';
/** The conversions by ref_id: their ids. */
const conversions = new Map<string, string>();
let result: { code: number; json: Record<string, any> };

const batchFile = (name: string, lines: string[]) => {
  const f = join(sb.dir, name);
  writeFileSync(f, ['destination_address,asset,crypto_network,amount,meta.invoice', ...lines].join('\n'));
  return f;
};
const ROWS = [
  `${BTC_ADDRESS},BTC,BITCOIN,0.01,INV-1`,
  `${BTC_ADDRESS},BTC,BITCOIN,0.02,INV-2`,
  `${ETH_ADDRESS},ETH,ETHEREUM,0.5,INV-3`,
  `${SOL},SOL,SOLANA,2,INV-4`,
];

async function ok(args: string[], env?: Record<string, string>): Promise<string> {
  const r = await sb.runIn(args, env ? { env } : {});
  if (r.code !== 0) throw new Error(`${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  sb = await sandbox();
  const sent = JSON.parse(
    await ok([
      'withdraw',
      'batch',
      batchFile('payroll.csv', ROWS),
      '--profile-id',
      DEMO.profileId,
      '--yes',
      '-o',
      'json',
    ]),
  ) as { row: number; ref_id: string; transfer_id: string }[];
  for (const r of sent) rows.set(`INV-${r.row}`, r);
  await ok([
    'withdraw',
    ...transferFlags('BTC', '0.003'),
    '--ref-id',
    'single-1',
    '--profile-id',
    DEMO.profileId,
    '--yes',
  ]);
  await ok(
    ['transfer', 'internal', '--from-profile-id', DEMO.profileId, '--to-profile-id', DEMO.emptyProfileId].concat([
      '--asset',
      'USD',
      '--amount',
      '10',
      '--ref-id',
      'internal-1',
      '--yes',
    ]),
  );
  const raw = (ref: string, amount = '0.25') =>
    ['api', 'POST', '/transfer/crypto-withdrawals', '-f', 'asset=ETH', '-f', 'crypto_network=ETHEREUM']
      .concat([
        '-f',
        `destination_address=${ETH_ADDRESS}`,
        '-f',
        `profile_id=${DEMO.profileId}`,
        '-f',
        `amount=${amount}`,
      ])
      .concat(['-f', `ref_id=${ref}`, '--yes']);
  // coinop api on this machine: gated and recorded like any payment.
  await ok(raw('api-here-1'));
  await convert('conv-1', 'USDP', '100');
  const account = JSON.parse(await ok([...FIAT_ACCOUNT_CREATE, '-o', 'json'])) as { id: string };
  await ok(['withdraw', 'fiat', '--fiat-account-id', account.id, '--amount', '25', '--ref-id', 'fiat-1', '--yes']);
  await convert('conv-cancelled', 'PYUSD', '5');
  await ok(['conversions', 'cancel', conversions.get('conv-cancelled')!, '--yes']);
  await ok([
    'withdraw',
    ...transferFlags('BTC', '0.004'),
    '--ref-id',
    'single-2',
    '--profile-id',
    DEMO.profileId,
    '--yes',
  ]);
  await sb.control('POST', '/_local/clock/advance', { seconds: 60 });

  // The planted differences.
  await sb.control('POST', `/_local/transfers/${rows.get('INV-1')!.transfer_id}/amend`, { fee: '0.0009' });
  await sb.control('POST', `/_local/transfers/${rows.get('INV-2')!.transfer_id}/amend`, {
    status: 'FAILED',
    reason: 'the chain reorganised; the payment was reverted',
  });
  await ok(raw('elsewhere-1', '0.3'), { COINOP_DATA_DIR: join(sb.dir, 'another-machine') });
  depositId = (await sb.control('POST', '/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.5' })).id;
  await ok([
    'withdraw',
    'batch',
    batchFile('again.csv', [ROWS[2]]),
    '--profile-id',
    DEMO.profileId,
    '--yes',
    '--allow-repeat',
  ]);
  // A conversion made with coinop api on another machine; one cancelled here; a failure the event feed never said.
  await ok(
    ['api', 'POST', '/conversion/stablecoins', '-f', `profile_id=${DEMO.profileId}`, '-f', 'amount=7'].concat([
      '-f',
      'source_asset=USD',
      '-f',
      'target_asset=USDP',
      '-f',
      'ref_id=conv-elsewhere',
      '--yes',
    ]),
    { COINOP_DATA_DIR: join(sb.dir, 'another-machine') },
  );
  const single2 = JSON.parse(await ok(['transfers', 'list', '--ref-id', 'single-2', '-o', 'json'])) as { id: string }[];
  await sb.control('POST', `/_local/transfers/${single2[0].id}/amend`, { status: 'FAILED', event: false });
  await sb.control('POST', '/_local/clock/advance', { seconds: 60 });
  // Made last: still CREATED when reconciled (in flight).
  await convert('conv-late', 'USDP', '3');

  // The service's clock ran 2 minutes ahead of this machine's: the period ends after both.
  const to = new Date(Date.now() + 3_600_000).toISOString();
  const r = await sb.runIn(['reconcile', '--from', '1d', '--to', to, '-o', 'json']);
  result = { code: r.code, json: r.stdout ? JSON.parse(r.stdout) : { stderr: r.stderr } };
  if (!r.stdout) throw new Error(r.stderr);
}, 60_000);

afterAll(() => sb?.close());

/** A conversion of USD through coinop convert, its id kept. */
async function convert(ref: string, to: string, amount: string): Promise<void> {
  const c = JSON.parse(
    await ok([
      'convert',
      '--to',
      to,
      '--amount',
      amount,
      '--ref-id',
      ref,
      '--profile-id',
      DEMO.profileId,
      '--yes',
      '-o',
      'json',
    ]),
  ) as { id: string };
  conversions.set(ref, c.id);
}

/** The lines' classes by ref_id (or transfer id when a line has no ref_id). */
const classes = () =>
  Object.fromEntries(
    (result.json.lines as { class: string; ref_id?: string; transfer_id?: string; type?: string }[]).map((l) => [
      l.type === 'INTERNAL_TRANSFER_CREDIT' ? `credit of ${l.transfer_id}` : (l.ref_id ?? l.transfer_id),
      l.class,
    ]),
  );

describe('reconcile: planted differences', () => {
  it('classes each planted difference as planted, everything else matched, and exits 11', () => {
    const c = classes();
    const salted = Object.keys(c).find((k) => k.startsWith(`${rows.get('INV-3')!.ref_id}-`));
    const credit = Object.keys(c).find((k) => k.startsWith('credit of '));
    expect(c).toEqual({
      [rows.get('INV-1')!.ref_id]: 'mismatch',
      [rows.get('INV-2')!.ref_id]: 'failed',
      [rows.get('INV-3')!.ref_id]: 'matched',
      [rows.get('INV-4')!.ref_id]: 'matched',
      [salted!]: 'paid_twice',
      'single-1': 'matched',
      'internal-1': 'matched',
      [credit!]: 'matched',
      'api-here-1': 'matched',
      'elsewhere-1': 'unintended',
      [depositId]: 'unintended',
      'conv-1': 'matched',
      'fiat-1': 'matched',
      'conv-late': 'in_flight',
      'conv-cancelled': 'failed',
      'conv-elsewhere': 'unintended',
      'single-2': 'feed_disagrees',
    });
    expect(result.code).toBe(11);
    expect(result.json.unexplained).toBe(8);
    expect(result.json.conversions).toBe(4);
  });

  it('says why of conversions: the cancel, the one made elsewhere, the target; and what the feed said', () => {
    const by = (ref: string) => (result.json.lines as any[]).find((l) => l.ref_id === ref);
    expect(by('conv-cancelled')).toMatchObject({
      type: 'STABLECOIN_CONVERSION',
      status: 'CANCELLED',
      asset: 'USD',
      target_asset: 'PYUSD',
      transfer_id: conversions.get('conv-cancelled'),
    });
    expect(by('conv-cancelled').reason).toMatch(/^cancelled: cancelled at .*; its 5 USD given back$/);
    expect(by('conv-elsewhere').reason).toMatch(/^made elsewhere/);
    expect(by('conv-1')).toMatchObject({ status: 'SETTLED', target_asset: 'USDP', kind: 'conversion' });
    expect(by('single-2')).toMatchObject({ status: 'FAILED', event_status: 'COMPLETED' });
    expect(by('single-2').reason).toContain(
      "says COMPLETED, the service's record says FAILED (the match alone: failed)",
    );
  });

  it('says why: the fee that changed, the failure, the deposit, the payment made elsewhere, the repeat', () => {
    const by = (ref: string) => (result.json.lines as any[]).find((l) => (l.ref_id ?? l.transfer_id) === ref);
    expect(by(rows.get('INV-1')!.ref_id).differences).toEqual(['fee: 0.00002 recorded, 0.0009 now']);
    expect(by(rows.get('INV-2')!.ref_id).reason).toBe('failed_after: the chain reorganised; the payment was reverted');
    expect(by(depositId).reason).toMatch(/^a deposit/);
    expect(by('elsewhere-1').reason).toMatch(/^made elsewhere/);
    const salted = (result.json.lines as any[]).find((l) => l.class === 'paid_twice');
    expect(salted.reason).toContain(`pays ${rows.get('INV-3')!.ref_id} again`);
  });

  it('sums per asset and class', () => {
    expect(result.json.summary).toContainEqual({
      asset: 'BTC',
      class: 'unintended',
      lines: 1,
      amount: '0.5',
      explained: false,
    });
    expect(result.json.summary).toContainEqual({
      asset: 'ETH',
      class: 'paid_twice',
      lines: 1,
      amount: '0.5',
      explained: false,
    });
  });
});
