// Every console example of the README and docs/*.md, run in order against a fresh local service per page (its own
// home, configuration and data folders; one of each per person on a page where several work), in this process, and
// what it printed compared with what the page shows (test/docs/masks.ts masks what differs per run: ids, times, ports,
// hashes). test/docs/pages.ts says how a page marks the files its examples use, the blocks that cannot run here (a
// hosted account), whose machine a command runs on, the servers left running, the programs the test runs beside them
// (a web server on the local context's port, a webhook receiver) and the rest.
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { ALL_SCOPES } from '../../src/contract/enums.js';
import { DEMO } from '../../src/embedded/demo.js';
import { LOCAL_PORT } from '../../src/config/environments.js';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import { PG_URL } from '../gateway/support.js';
import { saveContext } from '../support/contexts.js';
import { foreignServer } from '../support/foreign-server.js';
import { freePort } from '../support/http-server.js';
import { ROOT } from '../support/paths.js';
import { carriedValues, carry, comparable, mask, matches } from './masks.js';
import { type ClockMove, type Example, type Page, pagePaths, readPage, type Step } from './pages.js';
import { webhookReceiver } from './receiver.js';
import { firstLine, runLine, type Shell, type Started, startLine } from './shell.js';

/** Tables at a fixed width, whatever the terminal running the tests. */
const WIDTH = 200;

interface PageRun {
  /** The page's machine: `$ `. */
  sh: Shell;
  svc: LocalService;
  /** The machines of `NAME$ ` prompts, by NAME, made as the page first names them. */
  machines: Map<string, Shell>;
  /** The page's ids, keys, secrets and ports, and what they are in this run (masks.ts carriedValues). */
  carried: Map<string, string>;
  /** The page's server ports (<!-- free port -->), and the free ports they are in this run. */
  ports: Map<string, string>;
  /** The page's database URLs and schemas (<!-- postgres -->), and what they are in this run. */
  names: Map<string, string>;
  /** The servers the page left running (<!-- background -->), stopped when its examples end. */
  servers: Server[];
  /** The key that leaves a live view, in a block of one (<!-- typed once shown -->). */
  liveKey?: string;
  /** The programs the test runs beside the page's (<!-- web server -->, <!-- webhook receiver -->): their stops. */
  programs: (() => Promise<void>)[];
  /** What the page says of those programs, checked once its examples end: what is wrong, or undefined. */
  checks: (() => string | undefined)[];
  close(): Promise<void>;
}

/** A server of the page left running, and the example that started it (compared again once stopped, if it shows `^C`). */
interface Server {
  started: Started;
  example: Example;
  sh: Shell;
  /** What the page shows it printed until Ctrl-C, and after: compared once it is stopped. */
  untilStopped: boolean;
}

/** A machine's folders under `home`: the default folders there, named (the data folder's default is the user's real home, not $HOME). */
function homeEnv(home: string) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    COINOP_CONFIG_DIR: join(home, '.config', 'coinop'),
    COINOP_DATA_DIR: join(home, '.local', 'share', 'coinop'),
    COINOP_RETRY_BASE_MS: '10',
    COINOP_POLL_MS: '100',
    COLUMNS: String(WIDTH),
    NO_COLOR: '1',
    TZ: 'UTC',
  };
}

async function freshPage(): Promise<PageRun> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-docs-'));
  mkdirSync(join(dir, 'home'));
  const svc = await startLocalService({ port: 0, memory: true, config: { rateLimits: { enabled: false } } });
  const env = {
    ...homeEnv(join(dir, 'home')),
    // The system's shared folders, where doctor looks for completion scripts: none here, whatever the machine has.
    XDG_DATA_DIRS: join(dir, 'share'),
    BASH_COMPLETION_COMPAT_DIR: join(dir, 'bash_completion.d'),
    COINOP_BASE_URL: svc.baseUrl,
    COINOP_AUTH_URL: svc.authUrl,
  };
  const run: PageRun = {
    sh: { dir, env, vars: new Map() },
    svc,
    machines: new Map(),
    carried: new Map(),
    ports: new Map(),
    names: new Map(),
    servers: [],
    programs: [],
    checks: [],
    async close() {
      for (const server of run.servers.splice(0).reverse()) await server.started.stop();
      for (const stop of run.programs.splice(0).reverse()) await stop();
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return run;
}

/**
 * NAME's machine: a home of its own, NAME its user, and the page's local service as its `local` context (saved in its
 * configuration, so another context it logs in to, such as a gateway's, is not overridden as COINOP_BASE_URL would).
 */
async function machine(run: PageRun, name: string | undefined): Promise<Shell> {
  if (name === undefined) return run.sh;
  const known = run.machines.get(name);
  if (known) return known;
  const home = join(run.sh.dir, 'machines', name);
  const env = {
    ...homeEnv(home),
    USER: name,
    XDG_DATA_DIRS: join(home, 'share'),
    BASH_COMPLETION_COMPAT_DIR: join(home, 'bash_completion.d'),
  };
  const { baseUrl, authUrl, wsUrl } = run.svc;
  const local = { environment: 'local' as const, baseUrl, authUrl, wsUrl, clientId: DEMO.adminClientId };
  await new ConfigStore(env.COINOP_CONFIG_DIR).saveContext(
    'local',
    { ...local, scopes: [...ALL_SCOPES], profileId: DEMO.profileId },
    DEMO.clientSecret,
    false,
  );
  const sh: Shell = { dir: run.sh.dir, env, vars: run.sh.vars };
  run.machines.set(name, sh);
  return sh;
}

/** The machine's user, as the pages show it (they were run as root). */
const USER = userInfo().username;

/**
 * What ran, as a reader of the page would see it: the page's folder left out, the home folder as ~, the free ports
 * that stand for the page's (<!-- free port -->) and the database and schemas that stand for the page's
 * (<!-- postgres -->) as the page's.
 */
function asShown(
  text: string,
  sh: Shell,
  ports: ReadonlyMap<string, string> = new Map(),
  names: ReadonlyMap<string, string> = new Map(),
): string {
  let shown = text.replaceAll(sh.env.HOME, '~').replaceAll(`${sh.dir}/`, '');
  for (const [page, inRun] of names) shown = shown.replaceAll(inRun, page);
  for (const [page, free] of ports)
    shown = shown.replace(new RegExp(`(?<=127\\.0\\.0\\.1:|localhost:|--port[ =])${free}\\b`, 'g'), page);
  return USER === 'root' || USER.length < 3 ? shown : shown.replace(new RegExp(`\\b${USER}\\b`, 'g'), 'root');
}

/**
 * A command or file of the page with this run's values: carried ids and keys, free ports for the page's, the machine's
 * database for the page's.
 */
function inRun(text: string, run: PageRun): string {
  let out = carry(text, run.carried);
  for (const [page, name] of run.names) out = out.replace(new RegExp(`${escaped(page)}(?![\\w-])`, 'g'), name);
  for (const [page, free] of run.ports)
    out = out.replace(new RegExp(`(?<=127\\.0\\.0\\.1:|localhost:|--port[ =])${page}\\b`, 'g'), free);
  return out;
}

async function runExample(page: Page, example: Example, run: PageRun, vary: boolean): Promise<string | undefined> {
  const sh = await machine(run, example.machine);
  const { terminal, typed, rows } = run.sh;
  const keep = keptAddresses(page);
  const wanted = comparable(example.shown.join('\n'), vary, keep);
  // A live view is left once its screen shows what the page shows.
  const onceShown = run.liveKey
    ? {
        key: run.liveKey,
        shows: (screen: string) => matches(wanted, comparable(asShown(screen, sh, run.ports, run.names), vary, keep)),
      }
    : undefined;
  // On a whole terminal colours are drawn, as on a person's (NO_COLOR only where the command line sets it); the
  // screen's text has none.
  const env = typed || onceShown ? withoutNoColour(sh.env) : sh.env;
  const ran = await runLine(inRun(example.command, run), { ...sh, env, terminal, typed, rows, onceShown });
  return compare(page, example, ran, sh, vary, run);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function withoutNoColour(env: Record<string, string>): Record<string, string> {
  const { NO_COLOR: _unset, ...rest } = env;
  return rest;
}

/**
 * Starts a server of the page (<!-- background -->), left running until the page's examples end: ready once what it
 * printed (whole lines) is what the page shows it printing before `^C` (all of it without one).
 */
async function startExample(page: Page, example: Example, run: PageRun): Promise<string | undefined> {
  const sh = await machine(run, example.machine);
  const pressed = example.shown.indexOf('^C');
  const untilReady = pressed < 0 ? example.shown : example.shown.slice(0, pressed);
  const keep = keptAddresses(page);
  const wanted = comparable(untilReady.join('\n'), false, keep);
  /** How much of what it printed matches what the page shows (whole lines), if any does. */
  const ready = (text: string) => {
    if (wanted.length === 0) return firstLine(text);
    const lines = text.split('\n').slice(0, -1);
    for (let count = 1; count <= lines.length; count++) {
      const prefix = lines.slice(0, count).join('\n');
      if (matches(wanted, comparable(asShown(prefix, sh, run.ports, run.names), false, keep))) return prefix.length + 1;
    }
    return undefined;
  };
  const started = await startLine(inRun(example.command, run), sh, ready);
  run.servers.push({ started, example, sh, untilStopped: pressed >= 0 });
  // With `^C`, all it printed is compared once it is stopped (and written back to the page from there).
  return compare(page, { ...example, shown: untilReady }, started.ran, sh, false, run, pressed < 0);
}

/** Stops the page's servers as Ctrl-C does, the last started first; compares what those shown until `^C` printed. */
async function stopServers(page: Page, run: PageRun, problems: string[]): Promise<void> {
  for (const server of run.servers.splice(0).reverse()) {
    const ran = await server.started.stop();
    const problem = server.untilStopped ? compare(page, server.example, ran, server.sh, false, run) : undefined;
    if (problem) problems.push(problem);
  }
}

/**
 * What is wrong with what an example printed, or undefined; the values it printed are carried on (carriedValues).
 * `record`: a failing example's output is written for DOCS_UPDATE.
 */
function compare(
  page: Page,
  example: Example,
  ran: { code: number; shown: string },
  sh: Shell,
  vary: boolean,
  run: PageRun,
  record = true,
): string | undefined {
  const where = `${page.path}:${example.line}: ${example.machine ?? ''}$ ${example.command}`;
  const text = asShown(ran.shown, sh, run.ports, run.names);
  const keep = keptAddresses(page);
  const problem = judge(example, ran.code, text, vary, keep);
  if (problem && record && process.env.DOCS_UPDATE) {
    const update = { page: page.path, line: example.line, count: example.shown.length, text };
    appendFileSync(process.env.DOCS_UPDATE, `${JSON.stringify(update)}\n`);
  }
  if (problem) return `${where}\n${problem}`;
  if (!vary) for (const [from, to] of carriedValues(example.shown.join('\n'), text, keep)) run.carried.set(from, to);
  return undefined;
}

/** The addresses a page writes itself (in its commands and files): compared as they are, not masked. */
function keptAddresses(page: Page): Set<string> {
  const text = page.steps.map((s) => (s.kind === 'file' ? s.text : s.examples.map((e) => e.command).join('\n')));
  return new Set(
    text.join('\n').match(/\b0x[0-9a-fA-F]{40}\b|\b[13][1-9A-HJ-NP-Za-km-z]{25,34}\b|\bbc1\w+|\bL\w{33}\b/g),
  );
}

/** What is wrong with what an example printed, or undefined. */
function judge(example: Example, code: number, text: string, vary: boolean, keep: Set<string>): string | undefined {
  if (example.shown.length === 0) return code === 0 ? undefined : `  exit ${code}, the page shows no error:\n${text}`;
  const error = example.shown.some((l) => l.startsWith('error:'));
  if (error !== (code !== 0)) return `  exit ${code}, the page shows ${error ? 'an error' : 'success'}:\n${text}`;
  const shown = comparable(example.shown.join('\n'), vary, keep);
  const got = comparable(text, vary, keep);
  if (matches(shown, got)) return undefined;
  return `  --- the page shows (masked)\n${shown.join('\n')}\n  --- it printed (masked)\n${got.join('\n')}`;
}

/** A request to the local service's control API (/_local/...), and its JSON answer with the status. */
async function control(svc: LocalService, method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const answer = await fetch(svc.baseUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { ...((await answer.json()) as object), status: answer.status };
}

/**
 * Moves the local service's clock on: by seconds, to the 4th of the next month (UTC), or to the next time it is HH:MM
 * in a time zone, by its clock.
 */
async function advanceClock(svc: LocalService, by: ClockMove): Promise<void> {
  let seconds: number;
  if (typeof by === 'number') seconds = by;
  else {
    const now = new Date((await control(svc, 'GET', '/_local/health')).now);
    const to =
      by === 'next-month-4th' ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 4) : nextTimeOfDay(now, by);
    seconds = Math.ceil((to - now.getTime()) / 1000);
  }
  await control(svc, 'POST', '/_local/clock/advance', { seconds });
}

/** The next instant after `now` when it is hour:minute in the zone (searched minute by minute, over one day). */
function nextTimeOfDay(now: Date, at: { hour: number; minute: number; zone: string }): number {
  const clock = new Intl.DateTimeFormat('en-GB', {
    timeZone: at.zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const wanted = `${String(at.hour).padStart(2, '0')}:${String(at.minute).padStart(2, '0')}`;
  const first = Math.ceil((now.getTime() + 1) / 60_000) * 60_000;
  for (let t = first; t <= first + 26 * 3_600_000; t += 60_000) if (clock.format(t) === wanted) return t;
  throw new Error(`no ${wanted} in ${at.zone} within a day of ${now.toISOString()}`);
}

async function runStep(page: Page, step: Step, run: PageRun, problems: string[]): Promise<void> {
  if (step.kind === 'file') {
    const file = step.name.startsWith('~/') ? join(run.sh.env.HOME, step.name.slice(2)) : join(run.sh.dir, step.name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, inRun(step.text, run));
    return;
  }
  if (step.skip) return;
  if (step.freePort) run.ports.set(String(step.freePort), String(await freePort()));
  if (step.webServer) await startWebServer(run, step.webServer);
  if (step.postgres) await postgresFor(run, step.postgres);
  if (step.receiver) {
    const receiver = await webhookReceiver(step.receiver.refuseOnce);
    run.programs.push(receiver.close);
    // The page says each delivery is signed and names its event: what came to the receiver says so too.
    run.checks.push(() => {
      const unsigned = receiver.deliveries.filter(
        (delivery) =>
          !delivery.headers['coinop-signature'] || delivery.headers['coinop-event-id'] !== JSON.parse(delivery.body).id,
      );
      return unsigned.length ? `the webhook receiver had ${unsigned.length} unsigned or unnamed deliveries` : undefined;
    });
    run.ports.set(String(step.receiver.port), String(receiver.port));
  }
  if (step.clock) await advanceClock(run.svc, step.clock);
  if (step.control) {
    const { method, path, body } = step.control;
    const answer = await control(run.svc, method, path, body);
    if (answer.status >= 300) problems.push(`${page.path}:${step.line}: ${method} ${path}: ${JSON.stringify(answer)}`);
  }
  run.sh.terminal = step.terminal;
  run.sh.rows = step.rows;
  // A whole terminal where no question is answered: its screen.
  run.sh.typed = step.typed ?? (step.screen ? [] : undefined);
  run.liveKey = step.typedOnceShown;
  for (const e of step.examples) {
    const problem = await (step.background
      ? startExample(page, e, run)
      : runExample(page, e, run, step.vary !== undefined)
    ).catch((err) => `${page.path}:${e.line}: ${err}`);
    if (problem) problems.push(problem);
  }
}

/**
 * Another program at the page's `port` (<!-- web server -->): a web server on a free port standing for it. At the local
 * context's port, the page's machine's `local` context is saved at it (not given by COINOP_BASE_URL, which a person
 * whose 127.0.0.1:7357 another program took has not set).
 */
async function startWebServer(run: PageRun, port: number): Promise<void> {
  const server = await foreignServer();
  run.programs.push(server.close);
  // The page says no credential reached it: not the client secret, not a token.
  run.checks.push(() => {
    const sent = server.withSecrets([DEMO.clientSecret]).map((r) => `${r.method} ${r.url}`);
    return sent.length ? `the web server at ${port} was sent a credential: ${sent.join(', ')}` : undefined;
  });
  run.ports.set(String(port), String(server.port));
  if (port !== LOCAL_PORT) return;
  await saveContext(run.sh.env, 'local', { environment: 'local', baseUrl: server.url });
  delete run.sh.env.COINOP_BASE_URL;
  delete run.sh.env.COINOP_AUTH_URL;
}

/**
 * The page's PostgreSQL database (<!-- postgres -->) as the machine's, and each schema it names as one of this run's
 * own, dropped when the page's examples end.
 */
async function postgresFor(run: PageRun, postgres: { url: string; schemas: string[] }): Promise<void> {
  run.names.set(postgres.url, PG_URL);
  for (const schema of postgres.schemas) {
    const own = `${schema}_${randomBytes(6).toString('hex')}`;
    run.names.set(schema, own);
    run.programs.push(async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${own} CASCADE`);
      await client.end();
    });
  }
}

const pages: Page[] = pagePaths(ROOT)
  .map((p) => readPage(ROOT, p))
  .filter((p) => p.steps.some((s) => s.kind === 'block'));

/**
 * A page is one test of many commands (the gateway page's 42, a server waited for, live views drawn): the bound of the
 * proofs, not of one command, so that a loaded machine (two CPU hogs beside the suite) is never mistaken for a page
 * that hangs.
 */
const PAGE_TIMEOUT_MS = 180_000;

describe.each(pages)('$path', (page) => {
  const blocks = page.steps.filter((s) => s.kind === 'block');
  for (const b of blocks.filter((b) => b.skip)) it.skip(`line ${b.line}: not run: ${b.skip}`, () => {});
  if (!blocks.some((b) => !b.skip)) return;
  let run: PageRun | undefined;
  afterAll(() => run?.close());

  it(
    `runs its ${blocks.filter((b) => !b.skip).reduce((n, b) => n + b.examples.length, 0)} examples in order, each printing what the page shows`,
    async () => {
      run = await freshPage();
      const problems: string[] = [];
      for (const step of page.steps) await runStep(page, step, run, problems);
      await stopServers(page, run, problems);
      for (const problem of run.checks.map((check) => check())) if (problem) problems.push(problem);
      if (process.env.DOCS_REPORT) appendFileSync(process.env.DOCS_REPORT, `${problems.join('\n\n')}\n\n`);
      expect(problems.join('\n\n')).toBe('');
    },
    PAGE_TIMEOUT_MS,
  );
});

describe('the comparison can fail', () => {
  const morning = readPage(ROOT, 'README.md').steps.find((s) => s.kind === 'block' && !s.skip);
  const balances = morning?.kind === 'block' ? morning.examples[0] : undefined;

  it('an example whose shown output is changed by one value, or one line, no longer matches what ran', async () => {
    expect(balances?.command).toBe('coinop balances BTC ETH -o table');
    const run = await freshPage();
    try {
      const ran = await runLine(balances!.command, run.sh);
      const got = comparable(asShown(ran.shown, run.sh));
      expect(matches(comparable(balances!.shown.join('\n')), got)).toBe(true);
      const changed = balances!.shown.map((l) => l.replace(/20,?000/, '20,001'));
      expect(matches(comparable(changed.join('\n')), got)).toBe(false);
      expect(matches(comparable(balances!.shown.slice(1).join('\n')), got)).toBe(false);
    } finally {
      await run.close();
    }
  });

  it('the masks take what differs per run and leave amounts, assets, addresses and words', () => {
    const line =
      'ref_id coinop-cba345f4-df16-4b58-9d62-4fe9c34bb897 at 2026-11-23T13:01:58.251Z: 0.25 BTC to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
    expect(mask(line, false, new Set(['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2']))).toBe(
      'ref_id coinop-<uuid> at <time>: 0.25 BTC to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
    );
    expect(mask('0.25 BTC to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe('0.25 BTC to <address>');
    expect(matches(['a', '...', 'd'], ['a', 'b', 'c', 'd'])).toBe(true);
    expect(matches(['a', '...', 'd'], ['a', 'b', 'c'])).toBe(false);
    // Where values vary, a change up or down is one number: its sign goes with it.
    expect(mask('today  open 1.5 · +0.52% to last', true)).toBe(mask('today  open 1.4 · -0.31% to last', true));
    // How long a delivery took, the port a hint suggests: per run.
    expect(mask('target back after 236 ms down (coinop local start --port 7358)')).toBe(
      'target back after <ms> down (coinop local start --port <port>)',
    );
    // A live book's depth bars follow the amounts: compared only where values do not vary.
    const [long, none] = [' 46151.57  0.38409488  ██████████', ' 46142.20  0.00219984'];
    expect(comparable(long, true)).toEqual(comparable(none, true));
    expect(comparable(long)).not.toEqual(comparable(none.replace('46142.20  0.00219984', '46151.57  0.38409488')));
  });

  it('the ids and keys a run printed where the page shows others are carried into later commands, and only then', () => {
    const shown = [
      'held: pending eac15dd6-e3d0-4388-91ca-649c74eb5bcd',
      '...',
      '        key: ed25519:OpzYLOh0tOAirBtvJdQiy7f6iVRHUsVFsGLF070sDmA=',
    ].join('\n');
    const ran = [
      'held: pending 57c01d98-9e83-467f-be27-1e9557008140',
      '{ "status": "pending" }',
      '        key: ed25519:Y9uyFglOSTxduawELe3gc1JZHsQZe1qrwHCiIgBXcnQ=',
    ].join('\n');
    const carried = carriedValues(shown, ran);
    expect(carry('coinop approvals approve eac15dd6-e3d0-4388-91ca-649c74eb5bcd', carried)).toBe(
      'coinop approvals approve 57c01d98-9e83-467f-be27-1e9557008140',
    );
    expect(carry('key: ed25519:OpzYLOh0tOAirBtvJdQiy7f6iVRHUsVFsGLF070sDmA=', carried)).toBe(
      'key: ed25519:Y9uyFglOSTxduawELe3gc1JZHsQZe1qrwHCiIgBXcnQ=',
    );
    // What the page shows as it is (an amount, a word) is never carried; an output that does not match carries nothing.
    expect([...carried.keys()]).toHaveLength(2);
    expect(carriedValues(shown, ran.replace('held', 'sent')).size).toBe(0);
  });
});
