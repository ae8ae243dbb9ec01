// transfers list's filters the hosted ListTransfers has no parameter for (asset, network, destination, metadata):
// applied by coinop to each page, never sent; --from/--to sent as created_at.gte/lt; metadata.<key> as columns.
import { beforeAll, describe, expect, it } from 'vitest';
import * as transfers from '../../src/commands/transfers/run.js';
import { parseTransfersListOptions } from '../../src/commands/transfers/options.js';
import { declareTransfersList } from '../../src/commands/transfers/flags.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS } from '../support/addresses.js';
import { parseArgv } from '../support/argv.js';
import { NOW, readPorts, sharedLocalFixture } from './ports.js';
import { usageMessage } from './support.js';
import { requestViolations } from '../support/openapi.js';

const local = sharedLocalFixture();

beforeAll(async () => {
  const conn = await local.connector().connect();
  const pay = (ref: string, asset: string, network: string, address: string, metadata: Record<string, string>) =>
    conn.client.call('createCryptoWithdrawal', {
      body: {
        profile_id: DEMO.profileId,
        asset,
        crypto_network: network,
        destination_address: address,
        amount: asset === 'USDP' ? '5' : '0.01',
        ref_id: ref,
        metadata,
      },
    });
  await pay('flt-1', 'BTC', 'BITCOIN', BTC_ADDRESS, { invoice: 'INV-1', team: 'ops' });
  await pay('flt-2', 'ETH', 'ETHEREUM', ETH_ADDRESS, { invoice: 'INV-2' });
  await pay('flt-3', 'USDP', 'ETHEREUM', ETH_ADDRESS, { invoice: 'INV-3', team: 'ops' });
});

/** The local service's journal of requests, oldest first. */
async function journal(): Promise<{ url: string }[]> {
  const res = await fetch(`${new URL(local.svc.baseUrl).origin}/_local/journal`);
  return ((await res.json()) as { items: { url: string }[] }).items;
}

/** The ref_ids transfers list shows (JSON) for these flags, and the query strings it sent. */
async function listed(argv: string[]): Promise<{ refs: string[]; sent: string[] }> {
  const before = (await journal()).length;
  const d = readPorts(local, { format: 'json' });
  await transfers.list(d, parseArgv(declareTransfersList, [...argv, '--ref-id', 'flt-1,flt-2,flt-3']));
  const refs = (JSON.parse(d.display.stdout) as { ref_id: string }[]).map((t) => t.ref_id).sort();
  const sent = (await journal())
    .slice(before)
    .map((e) => e.url)
    .filter((u) => u.includes('/transfer/transfers'));
  return { refs, sent };
}

describe('transfers list filters', () => {
  it.each([
    { argv: ['--asset', 'eth'], want: ['flt-2'] },
    { argv: ['--network', 'ethereum'], want: ['flt-2', 'flt-3'] },
    { argv: ['--destination', ETH_ADDRESS.toLowerCase()], want: ['flt-2', 'flt-3'] },
    { argv: ['--metadata', 'team=ops'], want: ['flt-1', 'flt-3'] },
    { argv: ['--metadata', 'team'], want: ['flt-1', 'flt-3'] },
    { argv: ['--metadata', 'team=ops', '--metadata', 'invoice=INV-3'], want: ['flt-3'] },
    { argv: ['--asset', 'BTC,USDP', '--network', 'ETHEREUM'], want: ['flt-3'] },
  ])('$argv: only the matching transfers, and the filter is never sent', async ({ argv, want }) => {
    const { refs, sent } = await listed(argv);
    expect(refs).toEqual(want);
    expect(sent.length).toBeGreaterThan(0);
    for (const url of sent) expect(url).not.toMatch(/asset|network|destination|metadata/);
  });

  it('--from and --to go to the service as created_at.gte and created_at.lt', async () => {
    const { refs, sent } = await listed(['--from', '2000-01-01', '--to', '2000-01-02']);
    expect(refs).toEqual([]);
    expect(decodeURIComponent(sent[0])).toContain('created_at.gte=2000-01-01T00:00:00Z');
    expect(decodeURIComponent(sent[0])).toContain('created_at.lt=2000-01-02T00:00:00Z');
    expect((await listed(['--from', '1d'])).refs).toEqual(['flt-1', 'flt-2', 'flt-3']);
  });

  it('metadata.<key> is a column of its own, in CSV and the table; the whole metadata a last CSV column', async () => {
    const csv = readPorts(local, { format: 'csv' });
    await transfers.list(
      csv,
      parseArgv(declareTransfersList, [
        '--ref-id',
        'flt-1,flt-2',
        '--order',
        'ASC',
        '--columns',
        'ref_id,metadata.invoice,metadata.team',
      ]),
    );
    expect(csv.display.stdout.split('\r\n').filter(Boolean).sort()).toEqual(
      ['ref_id,metadata.invoice,metadata.team', 'flt-1,INV-1,ops', 'flt-2,INV-2,'].sort(),
    );
    const all = readPorts(local, { format: 'csv' });
    await transfers.list(all, parseArgv(declareTransfersList, ['--ref-id', 'flt-2']));
    const [head, row] = all.display.stdout.split('\r\n');
    expect(head.split(',').at(-1)).toBe('metadata');
    expect(row.endsWith('"{""invoice"":""INV-2""}"')).toBe(true);
    const table = readPorts(local, { format: 'table' });
    await transfers.list(
      table,
      parseArgv(declareTransfersList, ['--ref-id', 'flt-1', '--columns', 'ref_id,metadata.team']),
    );
    expect(table.display.stdout).toMatch(/REF ID\s+METADATA\.TEAM\nflt-1\s+ops\n/);
  });
});

describe("the API's filters the service does not take together", () => {
  /** What transfers list shows and sends for these flags (no --ref-id added), and its debug lines. */
  async function run(argv: string[]): Promise<{ refs: string[]; sent: string[]; debug: string }> {
    const before = (await journal()).length;
    const d = readPorts(local, { format: 'json', debug: true });
    await transfers.list(d, parseArgv(declareTransfersList, argv));
    const refs = (JSON.parse(d.display.stdout) as { ref_id: string }[]).map((t) => t.ref_id).sort();
    const sent = (await journal())
      .slice(before)
      .map((e) => e.url)
      .filter((u) => u.includes('/transfer/transfers'));
    return { refs, sent, debug: d.display.stderr };
  }
  const REFS = ['--ref-id', 'flt-1,flt-2,flt-3'];

  it.each([
    {
      argv: [...REFS, '--profile-id', DEMO.profileId, '--status', 'pending,completed'],
      want: ['flt-1', 'flt-2', 'flt-3'],
    },
    { argv: [...REFS, '--profile-id', 'empty'], want: [] },
    { argv: [...REFS, '--status', 'failed'], want: [] },
    { argv: [...REFS, '--type', 'crypto_withdrawal', '--account-id', 'none'], want: [] },
    { argv: [...REFS, '--type', 'PLATFORM_TRANSFER_DEBIT,CRYPTO_WITHDRAWAL', '--asset', 'ETH'], want: ['flt-2'] },
    { argv: [...REFS, '--type', 'PLATFORM_TRANSFER_DEBIT'], want: [] },
    {
      argv: ['--profile-id', 'demo', '--type', 'crypto_withdrawal', '--metadata', 'team=ops'],
      want: ['flt-1', 'flt-3'],
    },
  ])('$argv: the right transfers, each request one the OpenAPI allows', async ({ argv, want }) => {
    const { refs, sent, debug } = await run(argv);
    expect(refs).toEqual(want);
    expect(sent.length).toBeGreaterThan(0);
    // Held to the OpenAPI by its own text, "can be combined with created_at.* or updated_at.* filtering options only"
    // included, and to its enumeration of types (no PLATFORM_TRANSFER_* there).
    for (const url of sent) expect(requestViolations('GET', url)).toEqual([]);
    expect(debug).toMatch(
      /\[debug\] transfers list: the OpenAPI's ListTransfers takes ids, ref_ids, account_ids, identity_ids, profile_ids, type each with the time filters only: --\S+ sent, --.* applied here to each page/,
    );
  });

  it('sends the ref_ids (or ids) with the time filters, and the rest are applied here', async () => {
    const { sent, debug } = await run([
      ...REFS,
      '--profile-id',
      DEMO.profileId,
      '--status',
      'pending',
      '--created-from',
      '1d',
    ]);
    expect(sent.map((u) => decodeURIComponent(u))).toEqual([
      '/v2/transfer/transfers?ref_ids=flt-1&ref_ids=flt-2&ref_ids=flt-3&created_at.gte=2026-02-28T12:00:00Z',
    ]);
    expect(debug).toContain('--ref-id sent, --profile-id, --status applied here to each page');
  });

  it('a lone filter with the time filters only, or filters that go together, are sent as they are, said nowhere', async () => {
    const lone = await run(['--type', 'PLATFORM_TRANSFER_DEBIT', '--created-from', '1d']);
    expect(lone.sent.map((u) => decodeURIComponent(u))).toEqual([
      '/v2/transfer/transfers?type=PAXOS_TRANSFER_DEBIT&created_at.gte=2026-02-28T12:00:00Z',
    ]);
    const shared = await run(['--status', 'pending', '--group-id', 'g-1']);
    expect(shared.sent.map((u) => decodeURIComponent(u))).toEqual([
      '/v2/transfer/transfers?statuses=PENDING&group_ids=g-1',
    ]);
    expect(lone.debug + shared.debug).not.toContain('applied here');
  });
});

describe('transfers list filter options', () => {
  const parse = (argv: string[]) => parseTransfersListOptions(parseArgv(declareTransfersList, argv), NOW);
  it('reads the filters into what coinop applies, never into the query', () => {
    const o = parse(['--asset', 'btc', '--network', 'bitcoin', '--destination', BTC_ADDRESS, '--metadata', 'a=b=c']);
    expect(o.query).toEqual({});
    expect(o.filter).toEqual({
      assets: ['BTC'],
      networks: ['BITCOIN'],
      destinations: [BTC_ADDRESS],
      metadata: [{ key: 'a', value: 'b=c' }],
    });
  });
  it.each([
    { argv: ['--metadata', '=x'], want: '--metadata: "=x" has no key; give KEY=VALUE or KEY' },
    { argv: ['--network', 'moon'], want: expect.stringMatching(/^--network: must be one of BITCOIN, /) },
    { argv: ['--from', '2026-02-02', '--to', '2026-02-01'], want: '--from: must be before --to' },
    {
      argv: ['--from', '1d', '--created-after', '2d'],
      want: '--from and --to: give them or the --created-* flags, not both (--created-after given)',
    },
    { argv: ['--columns', 'metadata.'], want: expect.stringMatching(/^--columns: "metadata\." is not a column/) },
  ])('$argv: $want', ({ argv, want }) => {
    expect(usageMessage(() => parse(argv))).toEqual(want);
  });
});
