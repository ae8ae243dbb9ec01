// coinop api drives the local service's control API: its writes go out as JSON, bodiless ones too, which is what the
// control API requires of every write (src/local/browser-guard.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';
import { apiWithdrawal } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

describe('coinop api against the control API', () => {
  it('POST /_local/reset without a body resets (sent as JSON), and a write with fields works', async () => {
    const made = await sb.run(apiWithdrawal('0.01', 'api-local-1'));
    expect(made.code, made.stderr).toBe(0);
    const reset = await sb.run(['api', 'POST', '/_local/reset']);
    expect(reset.code, reset.stdout + reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toEqual({ status: 'ok' });
    const state = await sb.control('GET', '/_local/state');
    expect(state.tables.transfers).toEqual([]);
    const advance = await sb.run(['api', 'POST', '/_local/clock/advance', '--input', '-'], { input: '{"seconds": 5}' });
    expect(advance.code, advance.stderr).toBe(0);
    expect(JSON.parse(advance.stdout).clock_offset_ms).toBe(5000);
  });
});
