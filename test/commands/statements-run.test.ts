// coinop statements list and coinop statements payments, their runs with fakes of their ports (test/commands/ports.ts)
// against a local service in this process whose clock is moved past a month: the statement and its payment in a
// table, CSV, JSON and NDJSON; statuses by their last word; the rule of payments' ref_ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { listPayments, listStatements } from '../../src/commands/statements/run.js';
import { parsePaymentListOptions, parseStatementListOptions } from '../../src/commands/statements/options.js';
import { DEMO } from '../../src/embedded/demo.js';
import { NOW, readPorts, sharedLocalFixture } from './ports.js';

// Tokens that outlive the month the clock is moved by.
const local = sharedLocalFixture({ tokenLifetimeSeconds: 100 * 24 * 3600 });
let period = '';

/** The control API of the fixture's service. */
const control = (path: string, body?: unknown) =>
  fetch(`${new URL(local.svc.baseUrl).origin}/_local/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ now: string }>);

beforeAll(async () => {
  const at = new Date((await control('health')).now);
  period = at.toISOString().slice(0, 7);
  // To the 3rd of next month: this month's statement is generated (the 2nd) and paid (a day later).
  const target = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 3);
  await control('clock/advance', { seconds: Math.ceil((target - at.getTime()) / 1000) });
});

describe('statements list', () => {
  it('a table, CSV, JSON and NDJSON of the month stated', async () => {
    const table = readPorts(local, { format: 'table' });
    await listStatements(table, parseStatementListOptions({}, NOW));
    expect(table.display.stdout).toMatch(/PERIOD\s+STATUS\s+ASSET\s+OWED\s+PAID/);
    expect(table.display.stdout).toContain(period);
    const csv = readPorts(local, { format: 'csv' });
    await listStatements(csv, parseStatementListOptions({ status: ['paid'] }, NOW));
    const lines = csv.display.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'id,period,status,asset,owed,paid,customer_id,ref_id,period_start,period_end,generated_at,paid_at',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${period},STATEMENT_STATUS_PAID,USDG,`);
    const json = readPorts(local, { format: 'json' });
    await listStatements(json, parseStatementListOptions({ customerId: DEMO.customerId }, NOW));
    const [s] = JSON.parse(json.display.stdout);
    expect(s).toMatchObject({ customer_id: DEMO.customerId, product: 'USDG_REWARDS', status: 'STATEMENT_STATUS_PAID' });
    const ndjson = readPorts(local, { format: 'ndjson' });
    await listStatements(ndjson, parseStatementListOptions({ status: ['GENERATED'] }, NOW));
    expect(ndjson.display.stdout.trim()).toBe('');
    expect(() => parseStatementListOptions({ status: ['DONE'] }, NOW)).toThrow(/--status: must be one of/);
  });
});

describe('statements payments', () => {
  it("the statement's payment, COMPLETED; ref_ids go with no other filter", async () => {
    const json = readPorts(local, { format: 'json' });
    await listPayments(json, parsePaymentListOptions({ status: 'completed' }, NOW));
    const [p] = JSON.parse(json.display.stdout);
    expect(p).toMatchObject({ payment_status: 'PAYMENT_STATUS_COMPLETED', payment_asset: 'USDG' });
    const csv = readPorts(local, { format: 'csv' });
    await listPayments(csv, parsePaymentListOptions({ refId: [p.ref_id] }, NOW));
    expect(csv.display.stdout.trim().split(/\r?\n/)).toHaveLength(2);
    expect(() => parsePaymentListOptions({ refId: ['r'], customerId: 'c' }, NOW)).toThrow(
      /--customer-id: cannot be given with ref_ids/,
    );
  });
});
