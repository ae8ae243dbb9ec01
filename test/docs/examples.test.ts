// Every console example of the README and docs/*.md, run in order against a fresh local service per page (its own
// home, configuration and data folders), in this process, and what it printed compared with what the page shows
// (test/docs/masks.ts masks what differs per run: ids, times, ports, hashes). test/docs/pages.ts says how a page marks
// the files its examples use, the blocks that cannot run here (a hosted account) and the rest.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import { ROOT } from '../support/paths.js';
import { comparable, mask, matches } from './masks.js';
import { type Example, type Page, pagePaths, readPage, type Step } from './pages.js';
import { runLine, type Shell } from './shell.js';

/** Tables at a fixed width, whatever the terminal running the tests. */
const WIDTH = 200;

interface PageRun {
  sh: Shell;
  svc: LocalService;
  close(): Promise<void>;
}

async function freshPage(): Promise<PageRun> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-docs-'));
  mkdirSync(join(dir, 'home'));
  const svc = await startLocalService({ port: 0, memory: true, config: { rateLimits: { enabled: false } } });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(dir, 'home'),
    // The default folders under that home, named (the data folder's default is the user's real home, not $HOME).
    COINOP_CONFIG_DIR: join(dir, 'home', '.config', 'coinop'),
    COINOP_DATA_DIR: join(dir, 'home', '.local', 'share', 'coinop'),
    // The system's shared folders, where doctor looks for completion scripts: none here, whatever the machine has.
    XDG_DATA_DIRS: join(dir, 'share'),
    BASH_COMPLETION_COMPAT_DIR: join(dir, 'bash_completion.d'),
    COINOP_BASE_URL: svc.baseUrl,
    COINOP_AUTH_URL: svc.authUrl,
    COINOP_RETRY_BASE_MS: '10',
    COINOP_POLL_MS: '100',
    COLUMNS: String(WIDTH),
    NO_COLOR: '1',
    TZ: 'UTC',
  };
  const sh: Shell = { dir, env, vars: new Map() };
  return {
    sh,
    svc,
    async close() {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What ran, as a reader of the page would see it: the page's folder left out, the home folder as ~. */
function asShown(text: string, sh: Shell): string {
  return text.replaceAll(sh.env.HOME, '~').replaceAll(`${sh.dir}/`, '');
}

async function runExample(page: Page, example: Example, sh: Shell, vary: boolean): Promise<string | undefined> {
  const ran = await runLine(example.command, sh);
  const where = `${page.path}:${example.line}: $ ${example.command}`;
  const text = asShown(ran.shown, sh);
  const problem = judge(example, ran.code, text, vary, keptAddresses(page));
  if (problem && process.env.DOCS_UPDATE) {
    const update = { page: page.path, line: example.line, count: example.shown.length, text };
    appendFileSync(process.env.DOCS_UPDATE, `${JSON.stringify(update)}\n`);
  }
  return problem && `${where}\n${problem}`;
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

/** Moves the local service's clock on: by seconds, or to the 4th of the next month (UTC) by its clock. */
async function advanceClock(svc: LocalService, by: number | 'next-month-4th'): Promise<void> {
  let seconds = by;
  if (seconds === 'next-month-4th') {
    const now = new Date((await control(svc, 'GET', '/_local/health')).now);
    seconds = Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 4) - now.getTime()) / 1000);
  }
  await control(svc, 'POST', '/_local/clock/advance', { seconds });
}

async function runStep(page: Page, step: Step, run: PageRun, problems: string[]): Promise<void> {
  if (step.kind === 'file') {
    const file = step.name.startsWith('~/') ? join(run.sh.env.HOME, step.name.slice(2)) : join(run.sh.dir, step.name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, step.text);
    return;
  }
  if (step.skip) return;
  if (step.clock) await advanceClock(run.svc, step.clock);
  if (step.control) {
    const { method, path, body } = step.control;
    const answer = await control(run.svc, method, path, body);
    if (answer.status >= 300) problems.push(`${page.path}:${step.line}: ${method} ${path}: ${JSON.stringify(answer)}`);
  }
  run.sh.terminal = step.terminal;
  for (const e of step.examples) {
    const problem = await runExample(page, e, run.sh, step.vary !== undefined).catch(
      (err) => `${page.path}:${e.line}: ${err}`,
    );
    if (problem) problems.push(problem);
  }
}

const pages: Page[] = pagePaths(ROOT)
  .map((p) => readPage(ROOT, p))
  .filter((p) => p.steps.some((s) => s.kind === 'block'));

describe.each(pages)('$path', (page) => {
  const blocks = page.steps.filter((s) => s.kind === 'block');
  for (const b of blocks.filter((b) => b.skip)) it.skip(`line ${b.line}: not run: ${b.skip}`, () => {});
  if (!blocks.some((b) => !b.skip)) return;
  let run: PageRun | undefined;
  afterAll(() => run?.close());

  it(`runs its ${blocks.filter((b) => !b.skip).reduce((n, b) => n + b.examples.length, 0)} examples in order, each printing what the page shows`, async () => {
    run = await freshPage();
    const problems: string[] = [];
    for (const step of page.steps) await runStep(page, step, run, problems);
    if (process.env.DOCS_REPORT) appendFileSync(process.env.DOCS_REPORT, `${problems.join('\n\n')}\n\n`);
    expect(problems.join('\n\n')).toBe('');
  });
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
      const changed = balances!.shown.map((l) => l.replace('20000', '20001'));
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
  });
});
