// Messages and exit codes, as a person meets them: a service that stays unavailable (exit 5, and a spinner on a
// terminal only), a watch that reaches its --wait-timeout (exit 10), a group without its subcommand (its help, exit 0),
// a busy port, one --wait-timeout (the old --timeout kept with a note), a generated ref_id said only when it is sent,
// and a login that keeps what was typed and logs a read-only client in with the scopes it has.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, runCoinop, sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  // Withdrawals stay PENDING for an hour: a watch cannot see them end.
  sb = await sandbox({ withdrawalSettleSeconds: 3600 });
});
afterAll(async () => sb?.close());

const W = ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.01'];
const GENERATED = /ref_id coinop-[0-9a-f-]{36} \(generated/;

describe('a service that stays unavailable', () => {
  it('a persistent 503 is the network exit (5) with its reason, and piped shows no spinner', async () => {
    await sb.control('PUT', '/_local/faults', { rate503: 1, pathPrefix: '/v2/markets' });
    try {
      const r = await sb.run(['prices', 'BTCUSD', '--limit', '1']);
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr).toMatch(/^error: Service Unavailable: .* \(hint: the service is unavailable right now/m);
      expect(r.stderr).not.toMatch(/waiting for|⠋|\r/);
    } finally {
      await sb.control('PUT', '/_local/faults', {});
    }
  });

  it('on a terminal a spinner says what it waits for while the service is slow and retried', async () => {
    await sb.control('PUT', '/_local/faults', { rate503: 1, latencyMs: 1500, pathPrefix: '/v2/markets' });
    try {
      const t = new Term(['prices', 'BTCUSD', '--limit', '1'], { ...sb.env, COINOP_RETRY_BASE_MS: '200' });
      await t.waitFor(/waiting for 127\.0\.0\.1:\d+/);
      await t.waitFor(/answered 503 Service Unavailable; trying again|attempt [234] of 4/);
      expect(await t.exit(60_000)).toBe(5);
      // The spinner's line is cleared: the error starts a line of its own.
      expect(t.screen()).toMatch(/^error: Service Unavailable: /m);
    } finally {
      await sb.control('PUT', '/_local/faults', {});
    }
  });
});

describe('waiting for transfers', () => {
  it('a watch that reaches its --wait-timeout says so and exits 8, neither a failure nor the network', async () => {
    const w = await sb.run([...W, '--ref-id', 'msg-watch-1']);
    expect(w.code, w.stderr).toBe(0);
    const id = JSON.parse(w.stdout).id as string;
    const r = await sb.run(['transfers', 'watch', id, '--wait-timeout', '1']);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: stopped waiting after \\d+ s \\(--wait-timeout\\): 1 transfer\\(s\\) still PENDING: ${id}; they go on`,
        'm',
      ),
    );
    expect(r.stderr).toContain(`(hint: follow on with coinop transfers watch ${id})`);
    expect(r.stderr).not.toMatch(/network/);
    // The old name still works, with one line that says the new one.
    const old = await sb.run(['transfers', 'watch', id, '--timeout', '1']);
    expect(old.code, old.stderr).toBe(10);
    expect(old.stderr.split('\n')[0]).toBe(
      'note: --timeout is now --wait-timeout (as withdraw names it); it is taken as such',
    );
    // withdraw --wait says the same, with the same flag.
    const wait = await sb.run([...W, '--ref-id', 'msg-watch-2', '--wait', '--wait-timeout', '1s']);
    expect(wait.code, wait.stderr).toBe(10);
    expect(wait.stderr).toMatch(/stopped waiting after \d+ s \(--wait-timeout\)/);
  });

  it('the exit code is documented in coinop --help', async () => {
    const r = await sb.run(['--help']);
    expect(r.stdout).toMatch(/^ {2}10 still pending: a watch \(transfers watch, --wait\) reached its --wait-timeout$/m);
  });
});

describe('commands that name a group', () => {
  it.each([['transfers'], ['local'], ['auth'], ['profile'], ['destinations'], ['deposit-instructions']])(
    'coinop %s prints its help and exits 0, as coinop alone does',
    async (group) => {
      const r = await sb.run([group]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toContain(`Usage: coinop ${group} [options] [command]`);
      const root = await sb.run([]);
      expect(root.code).toBe(0);
    },
  );
});

describe('local start on a busy port', () => {
  it('names the port and the flag that changes it; nothing is started', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = await runCoinop(['local', 'start', '--port', String(port), '--memory'], sb.env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `error: --port: 127.0.0.1:${port} is in use already (another coinop local start, or another program); nothing was started (hint: choose another port: --port ${port + 1}, or --port 0 for any free one)\n`,
      );
      expect(r.stdout).toBe('');
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });
});

describe('the generated ref_id', () => {
  it('is said when the withdrawal is sent, never for a dry run or a refused one', async () => {
    const dry = await sb.run([...W, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).not.toMatch(GENERATED);
    expect(JSON.parse(dry.stdout).body.ref_id).toMatch(/^coinop-/);
    // More than the balance: refused before anything is sent.
    const refused = await sb.run([
      'withdraw',
      ...transferFlags('BTC', '99'),
      '--profile-id',
      'e3a0c9d1-2b4f-4e6a-9c8d-7f6e5d4c3b2a',
    ]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).not.toMatch(GENERATED);
    const sent = await sb.run(W);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toMatch(GENERATED);
    expect(sent.stderr.match(GENERATED)?.[0]).toContain(JSON.parse(sent.stdout).ref_id);
  });

  it('is not said when the operator says no at the confirmation', async () => {
    const t = new Term(W, sb.env);
    await t.waitFor('Send this withdrawal?');
    t.type(`n${KEY.enter}`);
    expect(await t.exit()).toBe(3);
    expect(t.screen()).not.toMatch(GENERATED);
  });
});

describe('login', () => {
  it('a read-only client logs in with the scopes it has; scopes asked for by name are still refused', async () => {
    const r = await sb.run(
      ['login', '--env', 'local', '--client-id', DEMO.readonlyClientId, '--client-secret-stdin', '--name', 'ro'],
      { input: `${DEMO.clientSecret}\n` },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^note: local-readonly may not have every scope; logged in with the ones the service gave it: /m,
    );
    const status = await sb.run(['auth', 'status', '--context', 'ro', '-o', 'json']);
    expect(status.code, status.stderr).toBe(0);
    const scopes = JSON.parse(status.stdout).scopes as string[];
    expect(scopes).toContain('transfer:read_transfer');
    expect(scopes).not.toContain('transfer:write_crypto_withdrawal');
    expect((await sb.run(['transfers', 'list', '--context', 'ro', '--limit', '1'])).code).toBe(0);
    const named = await sb.run(
      [
        'login',
        '--env',
        'local',
        '--client-id',
        DEMO.readonlyClientId,
        '--client-secret-stdin',
        '--name',
        'ro2',
        '--scopes',
        'transfer:write_crypto_withdrawal',
      ],
      { input: DEMO.clientSecret },
    );
    expect(named.code).toBe(4);
    expect(named.stderr).toMatch(/invalid_scope.*\(hint: the client may not have every scope asked for/);
  });

  it('on a terminal a refused secret asks again for the client id and secret only, what was typed the default', async () => {
    const t = new Term(['login', '--name', 'tty-again'], { ...sb.env, NO_COLOR: undefined });
    await t.waitFor('Environment');
    t.type(KEY.up + KEY.enter); // local
    await t.waitFor('Client id');
    t.type(`${'\u007f'.repeat(20)}${DEMO.readonlyClientId}${KEY.enter}`);
    await t.waitFor('Client secret');
    t.type(`wrong-secret${KEY.enter}`);
    await t.waitFor('Scopes');
    t.type(KEY.enter);
    await t.waitFor('invalid_client');
    // Asked again: the client id typed is the default, the environment and the scopes are not asked again.
    await t.waitFor(`Client id (${DEMO.readonlyClientId})`);
    t.type(KEY.enter);
    await t.waitFor('Client secret (Enter keeps the one typed)');
    t.type(`${DEMO.clientSecret}${KEY.enter}`);
    // A read-only client's context is made the active one only when the operator says so.
    await t.waitFor('Make the read-only context "tty-again"');
    t.type(`y${KEY.enter}`);
    expect(await t.exit()).toBe(0);
    const s = t.screen();
    expect(s.match(/Environment/g)).toHaveLength(1);
    expect(s.match(/Scopes/g)).toHaveLength(1);
    expect(s).toContain(`Logged in to local as ${DEMO.readonlyClientId}`);
    expect(s).not.toContain(DEMO.clientSecret);
    await sb.run(['logout', '--context', 'tty-again']);
  });
});
