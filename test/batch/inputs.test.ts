// Inputs that are not plain files, records past the limits, what a killed stdin batch leaves behind, and the line
// an interrupted batch prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ethCsv, run, startEnv, type Env, answered, defaultJournal, withdrawalPosts } from './support/harness.js';
import { ETH_ADDRESS as ETH } from '../support/addresses.js';

let e: Env;
beforeAll(async () => {
  e = await startEnv({ journalSize: 5000 });
});
afterAll(async () => {
  await e?.svc.close();
});

const posts = async () => (await withdrawalPosts(e.svc)).length;

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('close', r));
  return child.pid!;
}

describe('inputs that are not plain files', () => {
  it('a device that never ends (/dev/zero) is refused; zeros on standard input stop at the field limit', async () => {
    const r = await run(e, ['withdraw', 'batch', '/dev/zero', '--yes']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: \/dev\/zero: is not a regular file/);
    const z = await run(e, ['withdraw', 'batch', '-', '--yes', '-o', 'table'], { input: '\u0000'.repeat(300_000) });
    expect(z.code, z.stderr).toBe(2);
    expect(z.stderr).toMatch(/^line 1: a field runs past 65536 characters; the rest of the file was not read$/m);
  });

  it('a FIFO is read once, like standard input', async () => {
    const fifo = join(e.dir, 'rows.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const pending = run(e, ['withdraw', 'batch', fifo, '--format', 'csv', '--dry-run', '-o', 'json']);
    // Blocks until coinop opens the FIFO for reading.
    writeFileSync(fifo, ethCsv(3, 'fifo-'));
    const r = await pending;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { asset: 'ETH', crypto_network: 'ETHEREUM', rows: 3, amount: '0.006', fee: '0.0015', total: '0.0075' },
    ]);
  });
});

describe('records past the limits', () => {
  it('a field over 64 KiB is named with its row and line, not taken for a changed file', async () => {
    const f = join(e.dir, 'long.csv');
    // More rows after it: the file is larger than one read, as real payout files are.
    const more = `${ETH},ETH,ETHEREUM,0.01,ok\n`.repeat(10_000);
    writeFileSync(
      f,
      `destination_address,asset,crypto_network,amount,memo\n${ETH},ETH,ETHEREUM,0.01,${'x'.repeat(70_000)}\n${more}`,
    );
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^row 1 \(line 2\): a field runs past 65536 characters; the rest of the file was not read$/m,
    );
    expect(r.stderr).toMatch(/the file has problems \(listed above\); nothing was sent/);
    expect(r.stderr).not.toMatch(/changed/);
  });

  it('a JSON line nested too deeply is an invalid row, named', async () => {
    const f = join(e.dir, 'deep.jsonl');
    const deep = '['.repeat(40) + ']'.repeat(40);
    const good = { destination_address: ETH, asset: 'ETH', crypto_network: 'ETHEREUM', amount: '0.01' };
    writeFileSync(
      f,
      `${JSON.stringify(good)}\n${JSON.stringify({ ...good, beneficiary: { x: 'X' } }).replace('"X"', deep)}\n`,
    );
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^row 2: nests objects and arrays more than 32 levels deep/m);
    expect(r.stderr).toMatch(/1 of 2 rows are invalid/);
  });
});

describe('a killed or interrupted batch', () => {
  it('a stdin batch keeps no copy of the payouts beside its journal; copies killed runs left are removed', async () => {
    const batches = join(e.dir, 'data', 'batches');
    mkdirSync(batches, { recursive: true });
    const dead = await deadPid();
    const leftovers = [`stdin-${dead}-1700000000000.spool`, `staging-${dead}-0badc0de.db`];
    for (const n of leftovers) writeFileSync(join(batches, n), 'payouts of a killed run');
    const text = ethCsv(60, 'stdin-kill-');
    const jfile = defaultJournal(e, text);
    const r = await run(e, ['withdraw', 'batch', '-', '--format', 'csv', '--yes', '--rate', '30'], {
      input: text,
      killWhen: async () => answered(jfile) >= 5,
    });
    expect(r.signal).toBe('SIGKILL');
    const names = readdirSync(batches);
    for (const n of leftovers) expect(names).not.toContain(n);
    expect(names.filter((n) => n.endsWith('.spool') || n.startsWith('staging-'))).toEqual([]);
    expect(existsSync(jfile)).toBe(true);
  });

  it("SIGTERM mid-batch prints the batch's own line (journal, --resume), not the single withdrawal's", async () => {
    const f = join(e.dir, 'term.csv');
    const text = ethCsv(80, 'term-');
    writeFileSync(f, text);
    const jfile = defaultJournal(e, text);
    const before = await posts();
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--rate', '30'], {
      signal: 'SIGTERM',
      killWhen: async () => answered(jfile) >= 5,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `interrupted: rows already answered are in the journal ${jfile}; run the same command with --resume to send the rest`,
    );
    expect(r.stderr).not.toMatch(/a withdrawal in flight may have gone through/);
    expect(await posts()).toBeGreaterThan(before);
  });
});
