// `coinop mcp` as an MCP client runs it: the built bin/coinop.js as a child process on stdio, driven by the SDK's
// client (StdioClientTransport), against a real local service. Tools, reads, a preview, a send refused by each of
// the server's gates (--allow-writes; --allow-production for a production profile), sends through them, a retry with
// the same ref_id making one transfer; and, with raw JSON-RPC, that stdout carries the protocol alone and that the
// server answers a call in flight before it exits (0) on the end of its stdin.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogPath } from '../../src/audit/log.js';
import { BIN, type Sandbox, sandbox } from '../cli/helpers.js';
import { saveContext } from '../support/contexts.js';
import { TLS_ENV, tlsFront } from '../support/tls.js';
import { answerOf, CLIENT, errorOf, BTC, withdrawalPosts } from './support.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb?.close();
});

interface Child {
  client: Client;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** `coinop mcp ARGS` started by the SDK's stdio client transport, connected. */
async function coinopMcp(args: string[], env: Record<string, string | undefined> = sb.env): Promise<Child> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client(CLIENT);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name, a = {}) => (await client.callTool({ name, arguments: a })) as CallToolResult,
    close: () => client.close(),
  };
}

describe('coinop mcp over stdio', () => {
  it('lists the tools, reads balances, previews a withdrawal and refuses to send it without --allow-writes', async () => {
    const c = await coinopMcp([]);
    try {
      expect(c.client.getServerVersion()).toMatchObject({ name: 'coinop' });
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['balances', 'withdraw', 'batch_dry_run']));
      const b = answerOf(await c.call('balances', { assets: ['BTC'] }));
      expect(b.items).toEqual([expect.objectContaining({ asset: 'BTC' })]);
      await sb.sent();
      const p = answerOf(await c.call('withdraw', { ...BTC, amount: '0.01' }));
      expect(p).toMatchObject({ status: 'preview', sent: false, gates: { allow_writes: false, open: false } });
      expect(p.fee_quote).toMatchObject({ fee: '0.00002' });
      const refused = errorOf(await c.call('withdraw', { ...BTC, amount: '0.01', ref_id: p.ref_id, confirm: true }));
      expect(refused).toMatchObject({ category: 'usage' });
      expect(refused.message).toMatch(/started without --allow-writes; nothing was sent/);
      expect(await withdrawalPosts(sb)).toEqual([]);
      expect(c.stderr()).toMatch(
        /coinop mcp: serving context local \(local\) on stdio: \d+ tools, writes preview only/,
      );
    } finally {
      await c.close();
    }
  });

  it('with --allow-writes and confirm: true sends once; a retry with the same ref_id sends nothing more', async () => {
    const c = await coinopMcp(['--allow-writes']);
    try {
      const p = answerOf(await c.call('withdraw', { ...BTC, amount: '0.02' }));
      expect(p.gates).toMatchObject({ allow_writes: true, open: true });
      await sb.sent();
      const args = { ...BTC, amount: '0.02', ref_id: p.ref_id, confirm: true };
      const sent = answerOf(await c.call('withdraw', args));
      expect(sent).toMatchObject({ status: 'sent', sent: true, transfer: { amount: '0.02', ref_id: p.ref_id } });
      const again = answerOf(await c.call('withdraw', args));
      expect(again).toMatchObject({ status: 'already_submitted', sent: false, transfer: { id: sent.transfer.id } });
      expect((await withdrawalPosts(sb)).map((r) => r.status)).toEqual([200, 409]);
      const held = answerOf(await c.call('transfers_list', { ref_ids: [p.ref_id] }));
      expect(held.items).toHaveLength(1);
      // In the audit trail: the withdrawal, once, and each call, naming the agent.
      const trail = readFileSync(auditLogPath(sb.env.COINOP_DATA_DIR), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((e) => e.ref_id === p.ref_id);
      expect(trail.map((e) => [e.kind, e.outcome.result, e.outcome.already_submitted ?? false])).toEqual([
        ['quote', 'sent', false],
        ['mcp_call', 'answered', false],
        ['withdrawal', 'attempt', false],
        ['withdrawal', 'sent', false],
        ['mcp_call', 'sent', false],
        ['withdrawal', 'attempt', false],
        ['withdrawal', 'sent', true],
        ['mcp_call', 'sent', true],
      ]);
      for (const e of trail) expect(e.who.agent).toBe('vitest-agent 1.2.3');
    } finally {
      await c.close();
    }
  });

  it('a production profile sends only with --allow-production as well', async () => {
    const front = await tlsFront(sb.svc.baseUrl);
    try {
      await saveContext(sb.env, 'prodlike', { environment: 'production', baseUrl: front.url });
      const env = { ...sb.env, ...TLS_ENV, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined };
      const args = { ...BTC, amount: '0.03', ref_id: 'mcp-prod-1', confirm: true };
      const writesOnly = await coinopMcp(['--profile', 'prodlike', '--allow-writes'], env);
      try {
        await sb.sent();
        const p = answerOf(await writesOnly.call('withdraw', { ...args, confirm: false }));
        expect(p).toMatchObject({
          environment: 'production',
          gates: { production: true, allow_production: false, open: false },
        });
        const e = errorOf(await writesOnly.call('withdraw', args));
        expect(e.message).toMatch(/^refusing to send in production: .*--allow-production.*; nothing was sent$/);
        expect(await withdrawalPosts(sb)).toEqual([]);
      } finally {
        await writesOnly.close();
      }
      const both = await coinopMcp(['--profile', 'prodlike', '--allow-writes', '--allow-production'], env);
      try {
        expect(answerOf(await both.call('withdraw', args))).toMatchObject({
          status: 'sent',
          environment: 'production',
        });
        expect((await withdrawalPosts(sb)).map((r) => r.status)).toEqual([200]);
      } finally {
        await both.close();
      }
    } finally {
      await front.close();
    }
  });
});

describe('the protocol on stdout, and the end of stdin', () => {
  it('writes nothing but JSON-RPC to stdout, and answers a withdrawal in flight before exiting 0 when stdin ends', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--allow-writes'], {
      env: sb.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT },
    });
    send({ method: 'notifications/initialized' });
    send({
      id: 2,
      method: 'tools/call',
      params: { name: 'withdraw', arguments: { ...BTC, amount: '0.04', ref_id: 'mcp-eof-1', confirm: true } },
    });
    // The client goes away at once: the call already read is answered first.
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(lines.map((m) => m.id)).toEqual([1, 2]);
    expect(lines[1].result.structuredContent).toMatchObject({ status: 'sent', transfer: { ref_id: 'mcp-eof-1' } });
  });
});
