// coinop mcp's run with fakes of its ports (test/commands/ports.ts), in process: the server on the Display's stdin and
// stdout (raw JSON-RPC, one message a line) against a local service in this process. The handshake names the version
// given, the log goes to stderr only, a read answers; with --allow-writes a confirmed withdrawal is sent through the
// gate and recorded in the audit trail naming the agent, the context's policy refuses what it forbids, a confirmed
// batch goes to the batch port given; the end of stdin ends the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { auditPort } from '../../src/cli/audit.js';
import type { AgentPort } from '../../src/cli/ports.js';
import { mcp } from '../../src/commands/mcp/run.js';
import type { BatchPort } from '../../src/mcp/ports.js';
import { BTC_ADDRESS } from '../support/addresses.js';
import { until } from '../support/wait.js';
import { fakeDisplay, fixedClock, keptInterrupt, sharedLocalFixture, written } from './ports.js';

const local = sharedLocalFixture();

const BTC = { asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS };

/** The server run by mcp() over a fake Display, and a JSON-RPC client on its stdin and stdout. */
function served(options: { allowWrites: boolean }) {
  const display = fakeDisplay();
  const stdout = written(display.io.stdout);
  let agent: string | undefined;
  const agents: AgentPort = { actingFor: (name) => void (agent = name) };
  const cleanups: (() => unknown)[] = [];
  // The fixture's audit trail, each entry naming the agent the run says acts.
  const audit = auditPort({
    dataDir: () => local.dataDir,
    env: {},
    now: Date.now,
    context: () => undefined,
    agent: () => agent,
    warn: (line) => {
      throw new Error(`audit warning: ${line}`);
    },
    onCleanup: (fn) => void cleanups.push(fn),
  });
  const batches: Parameters<BatchPort['run']>[0][] = [];
  const interrupt = keptInterrupt();
  const running = mcp(
    {
      display,
      service: local.connector(),
      audit,
      agent: agents,
      clock: fixedClock(),
      interrupt,
      policy: local.policy,
      version: '9.9.9',
      batch: () => ({
        run: async (options) => {
          batches.push(options);
          return { rows: [], log: ['sent by the fake'], ranBefore: false };
        },
      }),
    },
    { ...options, allowProduction: false },
  );
  let id = 0;
  const answers = () =>
    stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: any; error?: unknown });
  const stdin = display.io.stdin as PassThrough;
  const send = (message: Record<string, unknown>) => stdin.write(`${JSON.stringify(message)}\n`);
  async function rpc(method: string, params: Record<string, unknown> = {}): Promise<any> {
    const mine = ++id;
    send({ jsonrpc: '2.0', id: mine, method, params });
    await until(`the answer to ${method}`, () => answers().some((a) => a.id === mine), { timeoutMs: 30_000 });
    const answer = answers().find((a) => a.id === mine)!;
    if (answer.error) throw new Error(JSON.stringify(answer.error));
    return answer.result;
  }
  return {
    display,
    interrupt,
    batches,
    rpc,
    async start() {
      const init = await rpc('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'run-test-agent', version: '4.5.6' },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return init;
    },
    call: (name: string, args: Record<string, unknown> = {}) => rpc('tools/call', { name, arguments: args }),
    async end() {
      stdin.end();
      await running;
      await interrupt.exit();
      for (const fn of cleanups.splice(0).reverse()) await fn();
    },
  };
}

const structured = (result: { structuredContent?: any; isError?: boolean; content: { text: string }[] }) =>
  result.isError ? JSON.parse(result.content[1].text).error : result.structuredContent;

describe('mcp run', () => {
  it('the handshake names the version; a read answers; stdout carries the protocol only; stdin ends the run', async () => {
    const s = served({ allowWrites: false });
    const init = await s.start();
    expect(init.serverInfo).toMatchObject({ name: 'coinop', version: '9.9.9' });
    const balances = structured(await s.call('balances', { assets: ['BTC'] }));
    expect(balances.items).toEqual([expect.objectContaining({ asset: 'BTC' })]);
    const preview = structured(await s.call('withdraw', { ...BTC, amount: '0.01' }));
    expect(preview).toMatchObject({ status: 'preview', sent: false, gates: { allow_writes: false } });
    await s.end();
    expect(s.display.stderr).toMatch(
      /^coinop mcp: serving context local \(local\) on stdio: \d+ tools, writes preview only \(no --allow-writes\)\n/,
    );
    expect(s.interrupt.note()).toBe('interrupted: the MCP server stopped (a call in flight may not have answered)');
  });

  it('--allow-writes: a confirmed withdrawal is sent through the gate, its audit entries naming the agent', async () => {
    const s = served({ allowWrites: true });
    await s.start();
    const from = local.audit().entries().length;
    const preview = structured(await s.call('withdraw', { ...BTC, amount: '0.01' }));
    const sent = structured(
      await s.call('withdraw', { ...BTC, amount: '0.01', ref_id: preview.ref_id, confirm: true }),
    );
    expect(sent).toMatchObject({ status: 'sent', sent: true, ref_id: preview.ref_id });
    await s.end();
    const entries = local.audit().entries().slice(from);
    const withdrawal = entries.filter((e) => e.ref_id === preview.ref_id);
    expect(withdrawal.length).toBeGreaterThanOrEqual(2);
    expect(withdrawal.every((e) => e.who.agent === 'run-test-agent 4.5.6')).toBe(true);
  });

  it("the context's policy (the policy port's directory) refuses a confirmed withdrawal over its cap", async () => {
    const dir = join(local.policy.configDir(), 'policies');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'local.yaml'), 'max_per_withdrawal:\n  BTC: 0.05\n');
    const s = served({ allowWrites: true });
    await s.start();
    const refused = structured(await s.call('withdraw', { ...BTC, amount: '0.5', confirm: true }));
    expect(refused).toMatchObject({ category: 'policy' });
    expect(refused.message).toMatch(/^refused by policy: rule max_per_withdrawal: 0\.5 BTC is over the most/);
    const batch = structured(await s.call('withdraw_batch', { rows: [{ ...BTC, amount: '0.01' }], confirm: true }));
    expect(batch.log).toEqual(['sent by the fake']);
    expect(s.batches).toEqual([expect.objectContaining({ agent: 'run-test-agent 4.5.6', skipInvalid: false })]);
    await s.end();
  });
});
