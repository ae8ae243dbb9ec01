import { describe, expect, it } from 'vitest';
import { cancel, convert, get, list } from '../../src/commands/conversions/run.js';
import {
  type ConvertOptions,
  parseConversionCancelOptions,
  parseConversionListOptions,
  parseConvertOptions,
} from '../../src/commands/conversions/options.js';
import { DEMO } from '../../src/embedded/demo.js';
import { auditSince, moneyPortsOf, NOW, readPorts, sharedLocalFixture, usdOf, writeContextPolicy } from './ports.js';

const local = sharedLocalFixture();
const deps = moneyPortsOf(local);

const conversion = (refId: string, more: Partial<ConvertOptions> = {}): ConvertOptions => ({
  ...parseConvertOptions({ to: 'USDP', amount: '250.25', waitTimeout: '30' }),
  refId,
  ...more,
});

/** Writes the context's policy file; undefined removes it. */
const writePolicy = (text: string | undefined) => writeContextPolicy(local, text);

/** The conversions the service holds, newest first. */
async function conversions(): Promise<{ id: string; ref_id?: string; status: string }[]> {
  const conn = await local.connector().connect();
  const { data } = await conn.client.call('listStablecoinConversions', { query: {} });
  return data.items ?? [];
}

let sentId = '';

describe('convert run', () => {
  it('confirmed: both balances before and after shown, the amount typed, sent once, debited, audited', async () => {
    const d = deps({ format: 'json' });
    const [before, from] = [await usdOf(local, DEMO.profileId), local.audit().entries().length];
    await convert(d, conversion('conv-sent'));
    expect(d.confirmer.shown.map((c) => [c.title, c.question, c.typed])).toEqual([
      ['Convert 250.25 USD to USDP', 'Send this conversion?', [{ label: 'the amount (USD)', value: '250.25' }]],
    ]);
    const rows = Object.fromEntries(d.confirmer.shown[0].rows);
    expect(rows.convert).toBe('250.25 USD to 250.25 USDP (one to one)');
    expect(rows['USD balance']).toBe(`${before} USD → ${Number(before) - 250.25} USD`);
    expect(rows['USDP balance']).toMatch(/^10000000 USDP → 10000250\.25 USDP once SETTLED$/);
    const made = JSON.parse(d.display.stdout);
    expect(made).toMatchObject({ ref_id: 'conv-sent', status: 'CREATED', source_asset: 'USD', target_asset: 'USDP' });
    sentId = made.id;
    expect(Number(before) - Number(await usdOf(local, DEMO.profileId))).toBeCloseTo(250.25, 2);
    expect(auditSince(local, from)).toEqual([
      ['conversion', 'attempt', 'conv-sent'],
      ['conversion', 'sent', 'conv-sent'],
    ]);
    expect(local.audit().entries().at(-1)?.what).toMatchObject({
      asset: 'USD',
      target_asset: 'USDP',
      amount: '250.25',
    });
  });

  it('the same ref_id again: said to be sent before, no money moved', async () => {
    const d = deps({ tty: true });
    const before = await usdOf(local, DEMO.profileId);
    await convert(d, conversion('conv-sent'));
    expect(d.display.stderr).toMatch(/^already submitted: ref_id conv-sent was sent before; no money moved this time/m);
    expect(d.display.stderr).toContain('The existing conversion:');
    expect(await usdOf(local, DEMO.profileId)).toBe(before);
  });

  it("the policy's assets hold both sides and its maxima count the source: refused, exit 8, audited", async () => {
    writePolicy('assets: [USD]\n');
    try {
      const d = deps({ format: 'json' });
      const from = local.audit().entries().length;
      const refused = convert(d, conversion('conv-usdp-refused'));
      await expect(refused).rejects.toMatchObject({ category: 'policy' });
      await expect(refused).rejects.toThrow("USDP (the conversion's target) is not an asset the policy allows");
      expect(d.confirmer.shown).toEqual([]);
      expect(auditSince(local, from)).toEqual([['conversion', 'refused', 'conv-usdp-refused']]);
      writePolicy('max_per_withdrawal:\n  USD: 100\n');
      await expect(convert(deps(), conversion('conv-too-big'))).rejects.toThrow(
        /rule max_per_withdrawal: 250\.25 USD is over the most one withdrawal may send, 100 USD/,
      );
      // 250.25 converted today already: 800 more is over 1000 in 24 hours.
      writePolicy('max_per_24h:\n  USD: 1000\n');
      await expect(convert(deps(), conversion('conv-over-day', { amount: '800' }))).rejects.toThrow(
        /rule max_per_24h: USD: 250\.25 sent since .* \+ 800 in this run = 1050\.25, over the 24-hour limit of 1000 USD/,
      );
      await convert(deps({ format: 'json' }), conversion('conv-within', { amount: '700' }));
      expect((await conversions()).map((c) => c.ref_id).sort()).toEqual(['conv-sent', 'conv-within']);
    } finally {
      writePolicy(undefined);
    }
  });

  it('more than the profile has: refused before sending by the funds preflight, never confirmed', async () => {
    const d = deps({ format: 'json' });
    const from = local.audit().entries().length;
    await expect(
      convert(d, conversion('conv-poor', { profileId: DEMO.emptyProfileId, amount: '5.00' })),
    ).rejects.toThrow(/insufficient funds: the amount 5 USD is more than the available 0 USD/);
    expect(d.confirmer.shown).toEqual([]);
    expect(auditSince(local, from)).toEqual([['conversion', 'refused', 'conv-poor']]);
  });

  it('declined at the confirmation: cancelled, nothing sent; a dry run sends nothing either', async () => {
    await expect(convert(deps({ tty: true }, 'no'), conversion('conv-declined'))).rejects.toThrow(
      'cancelled: nothing was sent',
    );
    const dry = deps({ format: 'json' });
    await convert(dry, conversion('conv-dry', { dryRun: true, from: 'PYUSD', to: 'USD' }));
    expect(JSON.parse(dry.display.stdout)).toMatchObject({
      dry_run: true,
      method: 'POST',
      path: '/v2/conversion/stablecoins',
      body: { source_asset: 'PYUSD', target_asset: 'USD', amount: '250.25', ref_id: 'conv-dry' },
      policy: { allowed: true },
    });
    const refs = (await conversions()).map((c) => c.ref_id);
    expect(refs).not.toContain('conv-declined');
    expect(refs).not.toContain('conv-dry');
  });

  it('--wait follows it to SETTLED on the service clock; --from a stablecoin converts back to USD', async () => {
    local.svc.config.conversionSettleSeconds = 0;
    try {
      const d = deps({ tty: true });
      const before = await usdOf(local, DEMO.profileId);
      await convert(d, { ...parseConvertOptions({ from: 'pyusd', amount: '10', waitTimeout: '30' }), wait: true });
      expect(d.display.stdout).toMatch(/status\s+SETTLED/);
      expect(d.display.stderr).toMatch(/conversion \S+ SETTLED/);
      expect(Number(await usdOf(local, DEMO.profileId)) - Number(before)).toBeCloseTo(10, 2);
    } finally {
      local.svc.config.conversionSettleSeconds = 30;
    }
  });

  it('bad input is a usage error naming the flag, before anything is asked or sent', async () => {
    expect(() => parseConvertOptions({ to: 'USDP', amount: '1e3', waitTimeout: '30' })).toThrow(/--amount/);
    expect(() => parseConvertOptions({ from: 'usd', to: 'USD', waitTimeout: '30' })).toThrow(/both are USD/);
    const d = deps();
    await expect(convert(d, conversion('conv-btc', { to: 'BTC' }))).rejects.toThrow(
      /--to: a conversion is USD to USDP or USDP to USD, USD to PYUSD or PYUSD to USD/,
    );
    await expect(convert(d, conversion('conv-cents', { amount: '1.001' }))).rejects.toThrow(/--amount/);
    await expect(convert(deps(), { ...conversion('x'), to: undefined })).rejects.toThrow('missing --to');
  });
});

describe('conversions list, get and cancel', () => {
  it('list in a table, CSV, JSON and NDJSON; by ref_id; the strict time comparisons refused', async () => {
    const table = readPorts(local, { format: 'table' });
    await list(table, parseConversionListOptions({}, NOW));
    expect(table.display.stdout).toMatch(/^ID\s+STATUS\s+FROM\s+TO\s+AMOUNT/);
    expect(table.display.stdout).toContain(sentId);
    const csv = readPorts(local, { format: 'csv' });
    await list(csv, parseConversionListOptions({ refId: 'conv-sent' }, NOW));
    expect(csv.display.stdout.split(/\r?\n/)[0]).toBe(
      'id,status,source_asset,target_asset,amount,created_at,ref_id,profile_id,updated_at',
    );
    expect(csv.display.stdout).toContain(`${sentId},CREATED,USD,USDP,250.25,`);
    const json = readPorts(local, { format: 'json' });
    await list(json, parseConversionListOptions({ refId: 'conv-sent' }, NOW));
    expect(JSON.parse(json.display.stdout).map((c: { id: string }) => c.id)).toEqual([sentId]);
    const ndjson = readPorts(local, { format: 'ndjson' });
    await list(ndjson, parseConversionListOptions({ order: 'ASC', limit: '1' }, NOW));
    expect(JSON.parse(ndjson.display.stdout.trim().split('\n')[0])).toMatchObject({ id: sentId });
    expect(() => parseConversionListOptions({ createdAfter: '1d' }, NOW)).toThrow(
      /--created-after: conversions are filtered by --created-from and --created-until only/,
    );
    expect(parseConversionListOptions({ createdFrom: '2026-02-01T00:00:00Z' }, NOW).query).toEqual({
      'created_at.begin': '2026-02-01T00:00:00Z',
    });
  });

  it('get shows one; without an ID and nobody to ask it is a usage error', async () => {
    const g = readPorts(local, { format: 'json' });
    await get(g, sentId);
    expect(JSON.parse(g.display.stdout)).toMatchObject({ id: sentId, ref_id: 'conv-sent' });
    await expect(get(readPorts(local), undefined)).rejects.toThrow('missing ID');
  });

  it('cancel: asked first, CANCELLED, the source given back, audited; a second cancel is refused', async () => {
    const d = deps({ format: 'json' });
    const [before, from] = [await usdOf(local, DEMO.profileId), local.audit().entries().length];
    await cancel(d, parseConversionCancelOptions(sentId, {}));
    expect(d.confirmer.shown.map((c) => c.title)).toEqual(['Cancel a stablecoin conversion']);
    expect(Object.fromEntries(d.confirmer.shown[0].rows)['gives back']).toBe(
      `250.25 USD to service profile ${DEMO.profileId}`,
    );
    expect(JSON.parse(d.display.stdout)).toMatchObject({ id: sentId, status: 'CANCELLED' });
    expect(Number(await usdOf(local, DEMO.profileId)) - Number(before)).toBeCloseTo(250.25, 2);
    expect(auditSince(local, from)).toEqual([
      ['conversion_cancel', 'attempt', 'conv-sent'],
      ['conversion_cancel', 'sent', 'conv-sent'],
    ]);
    const again = deps({ format: 'json' });
    await expect(cancel(again, parseConversionCancelOptions(sentId, { yes: true }))).rejects.toThrow(
      `conversion ${sentId} is CANCELLED: only a CREATED conversion can be cancelled`,
    );
    expect(again.confirmer.shown).toEqual([]);
  });
});
