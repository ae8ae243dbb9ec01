// Damaged files: a corrupted config, token cache, secrets file, batch journal or local database gives one clear
// line with a way to recover and a documented exit code, and loses no other data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { INTERNAL } from './support.js';

let sb: Sandbox;
let cfg: string;
const file = (name: string) => join(cfg, name);
const bytes = (name: string) => (existsSync(file(name)) ? readFileSync(file(name)) : undefined);
const garbage = (n: number, seed = 7) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 131 + seed * 17 + ((i * i) >> 3)) & 0xff));

beforeAll(async () => {
  sb = await sandbox();
  cfg = sb.env.COINOP_CONFIG_DIR;
  // Two saved profiles, so there is something to lose.
  for (const name of ['alpha', 'beta']) {
    const r = await sb.runIn(
      ['login', '--env', 'local', '--name', name, '--client-id', 'local-admin', '--client-secret-stdin', '--no-input'],
      { input: 'local-secret\n' },
    );
    expect(r.code, r.stderr).toBe(0);
  }
  const r = await sb.runIn(['prices', 'BTCUSD', '--limit', '1']);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(bytes('tokens.json')!.toString())).toBeTypeOf('object');
});
afterAll(async () => sb?.close());

/** One line on stderr, no internals, nothing on stdout. */
/** A config folder whose active context, here, names a local service on port 9, where nothing answers. */
function writeDeadEndContext(configDir: string): void {
  const silent = 'http://127.0.0.1:9';
  const here = { environment: 'local', baseUrl: silent, authUrl: silent, wsUrl: 'ws://127.0.0.1:9/ws' };
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({ activeProfile: 'here', profiles: { here: { ...here, clientId: 'local-admin', scopes: [] } } }),
  );
  writeFileSync(join(configDir, 'secrets.json'), JSON.stringify({ here: 'local-secret' }), { mode: 0o600 });
}

function oneClearLine(run: Run): string {
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(run.stderr).not.toMatch(INTERNAL);
  expect(run.stdout).toBe('');
  return lines[0];
}

describe('damaged files', () => {
  it('a damaged config.json is refused with its path and how to recover (exit 2), and nothing else is touched', async () => {
    const good = bytes('config.json')!;
    const secrets = bytes('secrets.json')!;
    const tokens = bytes('tokens.json')!;
    const variants: [string, string | Buffer][] = [
      ['truncated', good.subarray(0, Math.floor(good.length / 2))],
      ['empty', ''],
      ['binary', garbage(300)],
      ['a list', '[]'],
      ['null', 'null'],
      ['profiles of the wrong type', '{"activeProfile":"beta","profiles":"beta"}'],
      ['a profile of the wrong type', '{"activeProfile":"beta","profiles":{"beta":5}}'],
      ['an active profile of the wrong type', '{"activeProfile":7}'],
      [
        'scopes of the wrong type',
        JSON.stringify({
          ...JSON.parse(good.toString()),
          profiles: { beta: { ...JSON.parse(good.toString()).profiles.beta, scopes: 'all' } },
        }),
      ],
      [
        'an unknown environment',
        JSON.stringify({
          ...JSON.parse(good.toString()),
          profiles: { beta: { ...JSON.parse(good.toString()).profiles.beta, environment: 'moon' } },
        }),
      ],
    ];
    await sb.sent();
    for (const [what, content] of variants) {
      writeFileSync(file('config.json'), content);
      const damaged = bytes('config.json')!;
      for (const args of [
        ['prices', 'BTCUSD'],
        ['auth', 'status'],
        ['context', 'list'],
        ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.001', '--yes'],
        ['logout', '--context', 'alpha'],
      ]) {
        const r = await sb.runIn(args);
        const line = oneClearLine(r);
        expect(r.code, `${what}: coinop ${args.join(' ')}: ${line}`).toBe(2);
        expect(line).toContain(`${file('config.json')} is damaged`);
        expect(line).toContain(`mv '${file('config.json')}'`);
      }
      // login must not write anything either: not even the secret it was given.
      const r = await sb.runIn(
        [
          'login',
          '--env',
          'local',
          '--name',
          'gamma',
          '--client-id',
          'local-admin',
          '--client-secret-stdin',
          '--no-input',
        ],
        { input: 'local-secret\n' },
      );
      expect(r.code, `${what}: login: ${r.stderr}`).toBe(2);
      expect(bytes('config.json')!.equals(damaged), what).toBe(true);
      expect(bytes('secrets.json')!.equals(secrets), what).toBe(true);
      expect(bytes('tokens.json')!.equals(tokens), what).toBe(true);
    }
    // Nothing reached the service, and no request went anywhere else in the profile's name.
    expect(await sb.sent()).toEqual([]);
    // The recovery the message names works, and the secrets of the other profiles survived it.
    renameSync(file('config.json'), file('config.json.damaged'));
    const again = await sb.runIn(
      [
        'login',
        '--env',
        'local',
        '--name',
        'beta',
        '--client-id',
        'local-admin',
        '--client-secret-stdin',
        '--no-input',
      ],
      { input: 'local-secret\n' },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(bytes('secrets.json')!.toString())).toMatchObject({
      alpha: 'local-secret',
      beta: 'local-secret',
    });
    writeFileSync(file('config.json'), good);
  });

  it('a damaged token cache is ignored: a token is fetched again and the cache is whole again', async () => {
    expect((await sb.runIn(['prices', 'BTCUSD', '--limit', '1'])).code).toBe(0);
    const config = bytes('config.json')!;
    const secrets = bytes('secrets.json')!;
    const key = Object.keys(JSON.parse(bytes('tokens.json')!.toString()))[0];
    const variants: [string, string | Buffer][] = [
      ['binary', garbage(500, 3)],
      ['truncated', `{"${key.slice(0, 10)}`],
      ['null', 'null'],
      ['a list', '[1,2]'],
      ['an entry of the wrong type', JSON.stringify({ [key]: 'token' })],
      [
        'a token of the wrong type',
        JSON.stringify({ [key]: { accessToken: 5, expiresAt: Date.now() + 3_600_000, scope: '' } }),
      ],
      [
        'an expiry of the wrong type',
        JSON.stringify({ [key]: { accessToken: 'forged', expiresAt: 'never', scope: '' } }),
      ],
      ['a null entry', JSON.stringify({ [key]: null, other: null })],
    ];
    for (const [what, content] of variants) {
      writeFileSync(file('tokens.json'), content);
      await sb.sent();
      const r = await sb.runIn(['prices', 'BTCUSD', '--limit', '1']);
      expect(r.code, `${what}: ${r.stderr}`).toBe(0);
      expect(r.stderr, what).toBe('');
      const sent = await sb.sent();
      expect(
        sent.filter((e) => e.url === '/oauth2/token' && e.status === 200),
        what,
      ).toHaveLength(1);
      expect(
        sent.filter((e) => e.status === 401),
        what,
      ).toEqual([]);
      const cache = JSON.parse(bytes('tokens.json')!.toString());
      expect(cache[key].accessToken, what).toBeTypeOf('string');
      expect(statSync(file('tokens.json')).mode & 0o777).toBe(0o600);
      expect(bytes('config.json')!.equals(config), what).toBe(true);
      expect(bytes('secrets.json')!.equals(secrets), what).toBe(true);
    }
    // And the refetched token is reused from the cache next time.
    await sb.sent();
    expect((await sb.runIn(['prices', 'BTCUSD', '--limit', '1'])).code).toBe(0);
    expect((await sb.sent()).filter((e) => e.url === '/oauth2/token')).toEqual([]);
  });

  it('a damaged secrets file: exit 4 naming it and coinop login; login again moves it aside, never deletes it', async () => {
    const config = bytes('config.json')!;
    for (const [what, content] of [
      ['binary', garbage(64, 9)],
      ['truncated', '{"alpha": "local-sec'],
      ['a list', '["local-secret"]'],
      ['a secret of the wrong type', '{"alpha": 5, "beta": {"s": 1}}'],
    ] as [string, string | Buffer][]) {
      writeFileSync(file('secrets.json'), content, { mode: 0o600 });
      writeFileSync(file('tokens.json'), '{}');
      await sb.sent();
      const r = await sb.runIn(['prices', 'BTCUSD', '--context', 'alpha']);
      const line = oneClearLine(r);
      expect(r.code, `${what}: ${line}`).toBe(4);
      expect(line).toContain(`${file('secrets.json')} is damaged`);
      expect(line).toContain('coinop login --context alpha');
      expect(await sb.sent()).toEqual([]);
      expect(bytes('config.json')!.equals(config), what).toBe(true);
    }
    // Saving a secret again keeps the damaged file beside the new one, byte for byte.
    const damaged = bytes('secrets.json')!;
    const login = await sb.runIn(
      [
        'login',
        '--env',
        'local',
        '--name',
        'alpha',
        '--client-id',
        'local-admin',
        '--client-secret-stdin',
        '--no-input',
      ],
      { input: 'local-secret\n' },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/moved aside to .*secrets\.json\.damaged-/);
    const aside = readdirSync(cfg).filter((f) => f.startsWith('secrets.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(cfg, aside[0])).equals(damaged)).toBe(true);
    expect(statSync(join(cfg, aside[0])).mode & 0o777).toBe(0o600);
    expect(JSON.parse(bytes('secrets.json')!.toString())).toEqual({ alpha: 'local-secret' });
    expect((await sb.runIn(['prices', 'BTCUSD', '--context', 'alpha', '--limit', '1'])).code).toBe(0);
    // The other profile says exactly what it lacks.
    const beta = await sb.runIn(['prices', 'BTCUSD', '--context', 'beta']);
    expect(beta.code).toBe(4);
    expect(oneClearLine(beta)).toContain('context "beta" has no client credentials');
  });

  it('a damaged batch journal is refused with the way to go on; following it sends no row twice', async () => {
    const csv = join(sb.dir, 'payouts.csv');
    writeFileSync(
      csv,
      `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.0001\n${ETH_ADDRESS},ETH,ETHEREUM,0.001\n${BTC_ADDRESS},BTC,BITCOIN,0.0002\n`,
    );
    const first = await sb.run(['withdraw', 'batch', csv, '--yes', '-o', 'json', '--context', 'alpha']);
    expect(first.code, first.stderr).toBe(0);
    const refs = (JSON.parse(first.stdout) as { ref_id: string }[]).map((x) => x.ref_id);
    expect(refs).toHaveLength(3);
    const dir = join(sb.env.COINOP_DATA_DIR, 'batches');
    const journal = join(dir, readdirSync(dir).find((f) => f.endsWith('.journal'))!);
    const good = readFileSync(journal);
    const variants: [string, Buffer][] = [
      ['binary', garbage(good.length, 5)],
      ['truncated', good.subarray(0, 1000)],
      // Whole pages: bytes in a page's free space are no damage, and SQLite rightly reads such a file.
      ['two damaged pages', Buffer.concat([good.subarray(0, 4096), garbage(8192, 11), good.subarray(3 * 4096)])],
    ];
    for (const [what, content] of variants) {
      writeFileSync(journal, content);
      await sb.sent();
      const r = await sb.runIn(['withdraw', 'batch', csv, '--yes', '--context', 'alpha']);
      const line = oneClearLine(r);
      expect(r.code, `${what}: ${line}`).toBe(2);
      expect(line).toContain(`the batch journal ${journal} is damaged`);
      expect(line).toContain(`mv '${journal}' '${journal}.damaged'`);
      expect(line).toContain('run the batch again with --resume');
      expect(
        (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/')),
        what,
      ).toEqual([]);
      expect(readFileSync(journal).equals(content), `${what}: the journal was changed`).toBe(true);
    }
    // Follow the message: move it aside and run the batch again with --resume. Every row is already held; none is sent twice.
    renameSync(journal, `${journal}.damaged`);
    const again = await sb.runIn(['withdraw', 'batch', csv, '--yes', '--resume', '-o', 'json', '--context', 'alpha']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { result: string }[]).map((x) => x.result)).toEqual([
      'already submitted',
      'already submitted',
      'already submitted',
    ]);
    for (const ref of refs) {
      const t = await sb.runIn(['transfers', 'list', '--ref-id', ref, '-o', 'json']);
      expect(JSON.parse(t.stdout), ref).toHaveLength(1);
    }
  });

  it('a damaged local database of the embedded default: one line naming it and how to recover, the file kept', async () => {
    // A profile of the local environment at an address nothing answers, so the command starts the embedded service.
    const dir = join(sb.dir, 'embedded');
    const env = {
      ...sb.env,
      COINOP_BASE_URL: undefined,
      COINOP_AUTH_URL: undefined,
      COINOP_CONFIG_DIR: join(dir, 'config'),
      COINOP_DATA_DIR: join(dir, 'data'),
    } as Record<string, string | undefined>;
    mkdirSync(join(dir, 'config'), { recursive: true, mode: 0o700 });
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeDeadEndContext(join(dir, 'config'));
    const db = join(dir, 'data', 'local.db');
    const ok = await sb.runIn(['prices', 'BTCUSD', '--limit', '1'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    const good = readFileSync(db);
    for (const [what, content] of [
      ['binary', garbage(8192, 13)],
      ['truncated', good.subarray(0, 2000)],
      ['a damaged header', Buffer.concat([garbage(100, 17), good.subarray(100)])],
    ] as [string, Buffer][]) {
      writeFileSync(db, content);
      for (const f of ['local.db-wal', 'local.db-shm'])
        if (existsSync(join(dir, 'data', f))) renameSync(join(dir, 'data', f), join(dir, 'data', `${f}.old`));
      const r = await sb.runIn(['prices', 'BTCUSD', '--limit', '1'], { env });
      const line = oneClearLine(r);
      expect([2, 5], `${what}: exit ${r.code}: ${line}`).toContain(r.code);
      expect(line, what).toContain(db);
      expect(line, what).toMatch(/damaged/);
      expect(line, what).toContain(`mv '${db}'`);
      expect(readFileSync(db).equals(content), `${what}: the database was changed`).toBe(true);
    }
    renameSync(db, `${db}.damaged`);
    const fresh = await sb.runIn(['prices', 'BTCUSD', '--limit', '1'], { env });
    expect(fresh.code, fresh.stderr).toBe(0);
  });
});

describe('paths that are not what they should be', () => {
  it('a file where the configuration or data directory should be: one line naming it, exit 2, nothing sent', async () => {
    const dir = join(sb.dir, 'paths');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cfgfile'), 'not a directory');
    writeFileSync(join(dir, 'datafile'), 'not a directory');
    await sb.sent();
    const login = await sb.runIn(
      ['login', '--env', 'local', '--name', 'x', '--client-id', 'local-admin', '--client-secret-stdin', '--no-input'],
      {
        input: 'local-secret',
        env: { COINOP_CONFIG_DIR: join(dir, 'cfgfile') },
      },
    );
    expect(login.code, login.stderr).toBe(2);
    expect(oneClearLine(login)).toContain(`the configuration directory ${join(dir, 'cfgfile')} is not a directory`);
    expect(await sb.sent()).toEqual([]);
    // The embedded default cannot make its database under a file.
    mkdirSync(join(dir, 'cfg'), { recursive: true, mode: 0o700 });
    writeDeadEndContext(join(dir, 'cfg'));
    const env = {
      COINOP_BASE_URL: undefined,
      COINOP_AUTH_URL: undefined,
      COINOP_CONFIG_DIR: join(dir, 'cfg'),
      COINOP_DATA_DIR: join(dir, 'datafile'),
    };
    const r = await sb.runIn(['prices', 'BTCUSD', '--limit', '1'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(oneClearLine(r)).toContain(join(dir, 'datafile'));
    expect(readFileSync(join(dir, 'datafile'), 'utf8')).toBe('not a directory');
  });
});
