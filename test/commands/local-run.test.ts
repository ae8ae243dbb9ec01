// coinop local start and local deposit runs with fakes of their ports (test/commands/ports.ts), in process: start
// serves until its Foreground says stop (the signals are its own from the start) and names a port in use with the flag
// to change it; deposit sends crypto to a demo deposit address of a local service and refuses another context.
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LOCAL_START_FLAG_TABLE } from '../../src/commands/local/flags.js';
import { deposit, start } from '../../src/commands/local/run.js';
import { parseArgv } from '../support/argv.js';
import { until } from '../support/wait.js';
import { fakeDisplay, heldForeground, sharedLocalFixture, noPrompts, written } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();

describe('local start run', () => {
  it('serves on the port asked for, in memory, until stopped: the addresses on stdout, the signals its own', async () => {
    const display = fakeDisplay();
    const out = written(display.io.stdout);
    const err = written(display.io.stderr);
    const foreground = heldForeground();
    const running = start(
      { display, service: local.connector(), foreground },
      parseArgv(LOCAL_START_FLAG_TABLE, ['--port', '0', '--memory', '--seed', '7']),
    );
    await until('the service says where it listens', () => out().includes('rate limits'), { timeoutMs: 30_000 });
    expect(foreground.owned).toBe(true);
    const base = /base_url\s+(\S+)/.exec(out())?.[1];
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out()).toMatch(/database\s+:memory:/);
    const health = (await (await fetch(`${base}/_local/health`)).json()) as { seed: number };
    expect(health.seed).toBe(7);
    foreground.stop();
    await running;
    expect(err()).toBe('local service running; press Ctrl-C to stop\nstopping local service\nstopped\n');
    await expect(fetch(`${base}/_local/health`)).rejects.toThrow();
  });

  it('a port in use: a usage error naming it and the next port, nothing started', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const display = fakeDisplay();
      const message = await usageMessageOf(
        start(
          { display, service: local.connector(), foreground: heldForeground() },
          parseArgv(LOCAL_START_FLAG_TABLE, ['--port', String(port), '--memory']),
        ),
      );
      expect(message).toBe(
        `--port: 127.0.0.1:${port} is in use already (another coinop local start, or another program); nothing was started`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('local deposit run', () => {
  it('crypto arrives at the demo BTC address by its ref_id: the PENDING deposit, and what to follow', async () => {
    const display = fakeDisplay({ tty: true });
    await deposit(
      { display, service: local.connector(), prompter: noPrompts(display) },
      { refId: 'demo-btc', amount: '0.5' },
    );
    expect(display.stdout).toMatch(/CRYPTO_DEPOSIT/);
    expect(display.stdout).toMatch(/PENDING/);
    expect(display.stderr).toMatch(/0\.5 BTC arriving at \S+: PENDING until the local service confirms it/);
  });

  it('as JSON: the transfer the service made', async () => {
    const display = fakeDisplay({ format: 'json' });
    await deposit(
      { display, service: local.connector(), prompter: noPrompts(display) },
      { refId: 'demo-eth', amount: '2', asset: 'ETH' },
    );
    expect(JSON.parse(display.stdout)).toMatchObject({
      type: 'CRYPTO_DEPOSIT',
      status: 'PENDING',
      amount: '2',
      asset: 'ETH',
    });
  });

  it('a bad amount: the service refuses it, named by its flag', async () => {
    const display = fakeDisplay();
    const message = await usageMessageOf(
      deposit(
        { display, service: local.connector(), prompter: noPrompts(display) },
        { refId: 'demo-btc', amount: '-1' },
      ),
    );
    expect(message).toMatch(/^--amount: /);
  });

  it('a context that is not local: refused before anything is sent, nothing asked', async () => {
    const display = fakeDisplay();
    const service = local.connector();
    const sandbox = { ...service.context(), name: 'sb', environment: 'sandbox' as const };
    const message = await usageMessageOf(
      deposit(
        { display, service: { ...service, context: () => sandbox }, prompter: noPrompts(display) },
        { refId: 'demo-btc', amount: '1' },
      ),
    );
    expect(message).toBe('local deposit: only the local service takes it (context "sb" is sandbox)');
    expect(service.connections).toHaveLength(0);
  });
});
