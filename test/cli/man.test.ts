// The man page: man/coinop.1 is what `coinop __man` generates from the command tree now (regenerated and compared),
// it renders without a warning by man, groff or mandoc (whichever is installed), and every command's --help ends
// with the exit codes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_HELP } from '../../src/cli/exit-codes.js';
import { roff } from '../../src/cli/man.js';
import { ROOT, runCoinop, runInProcess } from './helpers.js';

const PAGE = join(ROOT, 'man/coinop.1');
const env = { PATH: process.env.PATH, HOME: '/nonexistent', NO_COLOR: '1' };
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

describe('man page', () => {
  it('man/coinop.1 is up to date with the command tree', async () => {
    const r = await runCoinop(['__man'], env);
    expect(r.code).toBe(0);
    // On failure: node scripts/build.mjs && node man/generate.mjs, and commit the page.
    expect(r.stdout === readFileSync(PAGE, 'utf8'), 'man/coinop.1 is stale: run node man/generate.mjs').toBe(true);
    expect(r.stdout).toMatch(/^\.TH COINOP 1 /);
    for (const c of ['coinop doctor', 'coinop config set', 'coinop withdraw batch', 'coinop transfers list'])
      expect(r.stdout).toContain(`.SS\n\\fB${roff(c)}\\fR`);
    expect(r.stdout).not.toContain('__man');
  });

  it('package.json installs it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.man).toBe('man/coinop.1');
    expect(pkg.files).toContain('man');
  });

  it.runIf(has('groff') || has('mandoc'))('renders without a warning', () => {
    const r = has('groff')
      ? spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', PAGE], { encoding: 'utf8' })
      : spawnSync('mandoc', ['-Tlint', '-Wwarning', PAGE], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.runIf(has('groff'))('reads as a man page: sections, commands and exit codes', () => {
    const r = spawnSync('groff', ['-man', '-Tascii', '-P-cbou', PAGE], { encoding: 'utf8' });
    for (const s of ['NAME', 'SYNOPSIS', 'GLOBAL OPTIONS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS'])
      expect(r.stdout).toMatch(new RegExp(`^${s}$`, 'm'));
    // groff justifies lines: words may be apart by more than one space.
    expect(r.stdout).toMatch(/coinop\s+withdraw\s+batch\s+\[options\]\s+<file>/);
    expect(r.stdout).toMatch(/^\s+10\s+still\s+pending/m);
  });

  it.runIf(has('man') && spawnSync('man', ['-l', PAGE], { env: { ...env, MANPAGER: 'cat' } }).status === 0)(
    'man -l shows it',
    () => {
      const r = spawnSync('man', ['-l', PAGE], { encoding: 'utf8', env: { ...env, MANPAGER: 'cat', MANWIDTH: '100' } });
      expect(r.stdout).toMatch(/COINOP\(1\)/);
    },
  );
});

describe('exit codes in every help', () => {
  it("every command's --help ends with the exit codes", async () => {
    const page = readFileSync(PAGE, 'utf8');
    // The commands the man page lists: every command a person types.
    const commands = [...page.matchAll(/^\.SS\n\\fB(.*)\\fR$/gm)].map((m) =>
      m[1].replace(/\\-/g, '-').split(' ').slice(1),
    );
    expect(commands.length).toBeGreaterThan(60);
    for (const c of commands) {
      const r = await runInProcess([...c, '--help'], env);
      expect(r.code, c.join(' ')).toBe(0);
      expect(r.stdout.trimEnd().endsWith(`\n\n${EXIT_CODE_HELP}`), `coinop ${c.join(' ')} --help`).toBe(true);
    }
  }, 120_000);
});
