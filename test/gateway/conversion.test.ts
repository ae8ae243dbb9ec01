// Stablecoin conversions at a gateway: judged by the gate there (no longer refused as unjudged). An initiator's coinop
// convert is refused by the gateway's policy when it does not allow the target asset (exit 8, nothing forwarded, the
// refusal in the chain with the operator's name), sent once it does; conversions list and get are forwarded reads,
// and a cancel is a forwarded write, in the chain as the gateway's request.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSql } from '../../src/gateway/sql.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { baseEnv, runInProcess } from '../cli/helpers.js';
import { chainOf, gatewayFixture, gatewayLogin, setGatewayPolicy } from './harness.js';
import { sqliteStore } from './support.js';

const up = gatewayFixture(sqliteStore);
let store: GatewayStore;
beforeAll(async () => {
  store = new GatewayStore(await openSql(up.storeUrl));
  await store.init();
});
afterAll(() => store?.sql.close());

const chain = (kind: string) => chainOf(store, kind);
const setPolicy = (text: string) => setGatewayPolicy(up.sb, up.storeUrl, text);

const CONVERSIONS = '/v2/conversion/stablecoins';

describe('stablecoin conversions at a gateway', () => {
  it('are judged by its gate: refused by its policy, sent once it allows them; read and cancelled through it', async () => {
    const creds = await store.addOperator('cora', 'initiator');
    const { sb, gw } = up;
    const env = baseEnv(join(sb.dir, 'cora'));
    expect((await gatewayLogin(gw, { client_id: creds.clientId, client_secret: creds.secret }, env)).code).toBe(0);
    const run = (args: string[]) => runInProcess([...args, '-o', 'json'], { ...env, COINOP_CONTEXT: 'gw' });
    const convert = (ref: string) => run(['convert', '--to', 'USDP', '--amount', '75', '--ref-id', ref, '--yes']);

    await setPolicy('assets: [USD]\n');
    await sb.sent();
    const refused = await convert('gw-conv-refused');
    expect(refused.code, refused.stderr).toBe(8);
    expect(refused.stderr).toContain("USDP (the conversion's target) is not an asset the policy allows");
    expect((await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith(CONVERSIONS))).toEqual([]);
    expect(await chain('conversion')).toEqual([['cora', 'refused']]);

    await setPolicy('assets: [USD, USDP]\n');
    const sent = await convert('gw-conv-sent');
    expect(sent.code, sent.stderr).toBe(0);
    const conversion = JSON.parse(sent.stdout);
    expect(conversion).toMatchObject({ ref_id: 'gw-conv-sent', status: 'CREATED', amount: '75' });
    const upstream = (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith(CONVERSIONS));
    expect(upstream.map((e) => [e.method, e.url, e.status])).toEqual([['POST', CONVERSIONS, 200]]);
    expect((await chain('conversion')).slice(1)).toEqual([
      ['cora', 'attempt'],
      ['cora', 'sent'],
    ]);

    const listed = await run(['conversions', 'list', '--ref-id', 'gw-conv-sent']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((c: { id: string }) => c.id)).toEqual([conversion.id]);
    const cancelled = await run(['conversions', 'cancel', conversion.id, '--yes']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ id: conversion.id, status: 'CANCELLED' });
    const deletes = (await sb.sent()).filter((e) => e.method === 'DELETE');
    expect(deletes.map((e) => [e.url, e.status])).toEqual([[`${CONVERSIONS}/${conversion.id}`, 200]]);
  });
});
