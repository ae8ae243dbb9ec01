// Ctrl-C (SIGINT) to a real coinop process says what is true for that command: a stream or a read was only
// interrupted, and a withdrawal interrupted while its request was out names its own ref_id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ withdrawalSettleSeconds: 3600 });
});
afterAll(async () => sb?.close());

interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs coinop, sends SIGINT once `ready` says so, and waits for it to end (killed outright if never ready). */
function interrupt(
  args: string[],
  env: Record<string, string>,
  ready: (o: { stdout: string; stderr: string }) => boolean,
): Promise<Interrupted> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const o = { stdout: '', stderr: '' };
    let sent = false;
    const poke = () => {
      if (!sent && ready(o)) {
        sent = true;
        child.kill('SIGINT');
      }
    };
    child.stdout.on('data', (chunk) => {
      o.stdout += chunk;
      poke();
    });
    child.stderr.on('data', (chunk) => {
      o.stderr += chunk;
      poke();
    });
    const poll = setInterval(poke, 20);
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(guard);
      resolve({ code, ...o });
    });
  });
}

/** A loopback server that takes every request and never answers it: a request stays in flight until the end. */
async function holdingServer(): Promise<{ url: string; arrived: string[]; close(): Promise<void> }> {
  const arrived: string[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    // The local profile asks which service instance it talks to first; that one question is answered.
    if (req.url === '/_local/health') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'ok', instance_id: 'held-instance' }));
      return;
    }
    // A service without the balances or limits endpoints: the withdrawal says "balance unknown" (and the limits
    // unknown) and goes on.
    if (req.url?.includes('/balances') || req.url?.startsWith('/v2/transfer/limits/')) {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }));
      return;
    }
    held.push(res);
    req.resume();
    req.on('end', () => arrived.push(`${req.method} ${req.url}`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    arrived,
    close: async () => {
      for (const r of held) r.socket?.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

const WITHDRAWAL = /withdrawal/i;

describe('Ctrl-C says what is true for the command', () => {
  it('a stream is interrupted, and nothing is said of a withdrawal', async () => {
    const r = await interrupt(['stream', 'trades', 'BTCUSD', '-o', 'ndjson'], sb.env, (o) => o.stdout.includes('\n'));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^stopped: the stream ended; nothing was changed/m);
    expect(r.stderr).not.toMatch(WITHDRAWAL);
  });

  it('transfers watch and transfers list are interrupted, and nothing is said of a withdrawal', async () => {
    const w = await sb.run(['withdraw', ...transferFlags('BTC', '0.01'), '--ref-id', 'int-watch-1']);
    expect(w.code, w.stderr).toBe(0);
    const id = JSON.parse(w.stdout).id as string;
    const watch = await interrupt(['transfers', 'watch', id], sb.env, (o) =>
      o.stderr.includes(`transfer ${id} PENDING`),
    );
    expect(watch.code, watch.stderr).toBe(3);
    expect(watch.stderr).toMatch(/^stopped watching; nothing was changed/m);
    expect(watch.stderr).not.toMatch(WITHDRAWAL);

    const hold = await holdingServer();
    try {
      const env = { ...sb.env, COINOP_BASE_URL: hold.url, COINOP_AUTH_URL: hold.url, COINOP_TOKEN: 'held' };
      const list = await interrupt(['transfers', 'list'], env, () => hold.arrived.length > 0);
      expect(hold.arrived).toEqual(['GET /v2/transfer/transfers']);
      expect(list.code, list.stderr).toBe(3);
      // A read says it stopped, from what it sent: nothing that changes anything.
      expect(list.stderr).toMatch(/^stopped: nothing was changed$/m);
      expect(list.stderr).not.toMatch(/interrupted/);
      expect(list.stderr).not.toMatch(WITHDRAWAL);
    } finally {
      await hold.close();
    }
  });

  it('the live view: Ctrl-C (a key in raw mode) says the same and exits 3, q exits 0', async () => {
    const t = new Term(['stream', 'trades', 'BTCUSD'], sb.env);
    await t.waitFor('BTCUSD');
    t.type(KEY.ctrlC);
    expect(await t.exit()).toBe(3);
    expect(t.screen()).toMatch(/stopped: the stream ended; nothing was changed/);
    const q = new Term(['stream', 'trades', 'BTCUSD'], sb.env);
    await q.waitFor('BTCUSD');
    q.type('q');
    expect(await q.exit()).toBe(0);
    expect(q.screen()).not.toMatch(/stopped/);
  });

  it('a command without a note of its own names the request that may have changed something', async () => {
    const hold = await holdingServer();
    try {
      const env = { ...sb.env, COINOP_BASE_URL: hold.url, COINOP_AUTH_URL: hold.url, COINOP_TOKEN: 'held' };
      const r = await interrupt(
        ['addresses', 'create', '--network', 'BITCOIN', '--ref-id', 'int-a-1'],
        env,
        () => hold.arrived.length > 0,
      );
      expect(hold.arrived).toEqual(['POST /v2/transfer/deposit-addresses']);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(
        /^interrupted: POST \/v2\/transfer\/deposit-addresses was sent and may have been carried out; check before running the command again$/m,
      );
    } finally {
      await hold.close();
    }
  });

  it('a withdrawal interrupted while its request is out names its ref_id', async () => {
    const hold = await holdingServer();
    try {
      const env = { ...sb.env, COINOP_BASE_URL: hold.url, COINOP_AUTH_URL: hold.url, COINOP_TOKEN: 'held' };
      const args = ['withdraw', ...transferFlags('BTC', '0.01'), '--ref-id', 'int-w-7', '--yes'];
      const r = await interrupt(args, env, () => hold.arrived.length > 0);
      expect(hold.arrived).toEqual(['POST /v2/transfer/crypto-withdrawals']);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(
        /interrupted: withdrawal ref_id int-w-7 was being sent and may have gone through: check with coinop transfers get --ref-id int-w-7/,
      );
      expect(r.stderr).not.toMatch(/--ref-id ID\b/);
    } finally {
      await hold.close();
    }
  });
});
