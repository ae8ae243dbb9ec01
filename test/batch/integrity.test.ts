// What is sent is what was read and confirmed: the file is read once, so overwriting or truncating it mid-run changes
// nothing that goes out; the same rows in another file (CRLF, a copy, a new --journal) are refused as already paid
// unless --allow-repeat; a journal belongs to one service; --journal never takes a file that is not a journal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eip55 } from '../../src/contract/addresses.js';
import {
  ethCsv,
  ethCsvRefIds,
  journalEntries,
  run,
  startEnv,
  withdrawals,
  type Env,
  answered,
  defaultJournal,
  withdrawalPosts,
  inputFile,
} from './support/harness.js';
import { ETH_ADDRESS as OTHER } from '../support/addresses.js';

let e: Env;
beforeAll(async () => {
  e = await startEnv({ journalSize: 20000 });
});
afterAll(async () => {
  await e?.svc.close();
});

const file = (name: string, text: string) => inputFile(e, name, text);

const posts = async () => (await withdrawalPosts(e.svc)).length;

/**
 * A CSV of `n` rows whose memo makes each about 1 KB: a file larger than what a reader buffers ahead, so a batch that
 * read rows from the file while sending would see the edit. `evil` rows pay 0.999 ETH to another address.
 */
function bigCsv(count: number, tag: string, evil = false): string {
  const memo = 'm'.repeat(900);
  const lines = ['destination_address,asset,crypto_network,amount,memo,meta.n'];
  for (let i = 0; i < count; i++) {
    // In its one spelling (EIP-55), as rows are staged and sent.
    const address = evil ? OTHER : eip55((i + 1).toString(16).padStart(40, '0'));
    lines.push(`${address},ETH,ETHEREUM,${evil ? '0.999' : `0.00${(i % 9) + 1}`},${memo},${tag}${i}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('the rows sent are the rows read', () => {
  it('overwriting the file in place mid-run changes nothing that is sent', async () => {
    const rows = 800;
    const text = bigCsv(rows, 'inplace-');
    const f = file('inplace.csv', text);
    const jfile = defaultJournal(e, text);
    const before = new Set((await withdrawals(e.svc)).map((t) => t.id));
    let overwritten = false;
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--rate', '200', '-o', 'json'], {
      during: async () => {
        if (answered(jfile) < 20) return false;
        // In place: the same inode, truncated and rewritten with as many rows.
        writeFileSync(f, bigCsv(rows, 'evil-', true));
        overwritten = true;
        return true;
      },
    });
    expect(overwritten).toBe(true);
    const original = text
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    // What the service holds from this run: exactly the original rows, once each, and nothing of the new content.
    const sent = (await withdrawals(e.svc)).filter((t) => !before.has(t.id)) as any[];
    expect(sent.filter((t) => t.destination_address === OTHER)).toEqual([]);
    expect(sent.map((t) => `${t.destination_address} ${t.amount} ${t.metadata?.n}`).sort()).toEqual(
      original.map((c) => `${c[0]} ${c[3]} ${c[5]}`).sort(),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/inplace\.csv changed after coinop read it; the rows sent are those read and confirmed/);
    const report = JSON.parse(r.stdout);
    expect(report.map((x: any) => [x.destination_address, x.amount])).toEqual(original.map((c) => [c[0], c[3]]));
  });

  it('truncating the file mid-run changes nothing that is sent', async () => {
    const rows = 80;
    const text = ethCsv(rows, 'truncated-');
    const f = file('truncated.csv', text);
    const jfile = defaultJournal(e, text);
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--rate', '50', '-o', 'json'], {
      during: async () => {
        if (answered(jfile) < 10) return false;
        truncateSync(f, 0);
        return true;
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((x: any) => x.result)).toEqual(Array(rows).fill('created'));
    const held = new Set((await withdrawals(e.svc)).map((t) => t.ref_id));
    expect(ethCsvRefIds(rows, 'truncated-').every((id) => held.has(id))).toBe(true);
  });
});

describe('rows another batch already paid', () => {
  it('a CRLF copy under a new name, or the file with a newline more under a new --journal, is refused; nothing is sent', async () => {
    const text = ethCsv(50, 'e1-');
    const f = file('e1.csv', text);
    expect((await run(e, ['withdraw', 'batch', f, '--yes', '-o', 'json'])).code).toBe(0);
    const before = await posts();
    const copy = file('e1-copy.csv', text.replace(/\n/g, '\r\n'));
    const r = await run(e, ['withdraw', 'batch', copy, '--yes', '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /^row 1: 0\.001 ETH to 0x0+1 \(ref_id batch-[0-9a-f]{24}-1\) was already paid: the service holds transfer [0-9a-f-]{36} \(PENDING, created [0-9T:.Z-]+\); this machine sent it at .* \(journal .*\.journal\)$/m,
    );
    expect(r.stderr).toMatch(/… and 30 more/);
    expect(r.stderr).toMatch(
      /error: 50 of 50 rows were already paid by another batch \(listed above\); nothing was sent.*--allow-repeat/,
    );
    writeFileSync(f, `${text}\n`);
    const j3 = await run(e, ['withdraw', 'batch', f, '--yes', '-o', 'json', '--journal', join(e.dir, 'j3.journal')]);
    expect(j3.code, j3.stderr).toBe(2);
    const listed = j3.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(listed.slice(0, -1).map((x) => x.row)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(listed[0]).toMatchObject({
      ref_id: ethCsvRefIds(1, 'e1-')[0],
      asset: 'ETH',
      amount: '0.001',
      destination_address: `0x${'0'.repeat(39)}1`,
      rule: 'already paid by another batch',
    });
    expect(listed.at(-1).error.exit_code).toBe(2);
    expect(await posts()).toBe(before);
    // Refused before any row was recorded: neither run left a journal behind.
    expect(existsSync(join(e.dir, 'j3.journal'))).toBe(false);
    expect(existsSync(defaultJournal(e, text.replace(/\n/g, '\r\n')))).toBe(false);
  });

  it('--allow-repeat pays them again under ref_ids of the batch, which a resume of that batch keeps', async () => {
    const rows = 60;
    const text = ethCsv(rows, 'again-');
    const f = file('again.csv', text);
    expect((await run(e, ['withdraw', 'batch', f, '--yes'])).code).toBe(0);
    const copy = file('again-copy.csv', text.replace(/\n/g, '\r\n'));
    const jfile = defaultJournal(e, text.replace(/\n/g, '\r\n'));
    const args = ['withdraw', 'batch', copy, '--yes', '--allow-repeat', '--rate', '60', '-o', 'json'];
    const killed = await run(e, args, { killWhen: async () => answered(jfile) >= 10 });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stderr).toMatch(
      /60 rows were already paid by another batch and are paid again, as --allow-repeat asks/,
    );
    const rest = await run(e, [...args, '--resume']);
    expect(rest.code, rest.stderr).toBe(0);
    const report = JSON.parse(rest.stdout);
    const firstIds = ethCsvRefIds(rows, 'again-');
    const salt = report[0].ref_id.slice(firstIds[0].length);
    expect(salt).toMatch(/^-[0-9a-f]{8}$/);
    expect(report.map((x: any) => x.ref_id)).toEqual(firstIds.map((id) => id + salt));
    // Each row paid twice in all: once by the first batch, once by the repeat; never three times.
    const all = await withdrawals(e.svc);
    for (const [i, id] of firstIds.entries()) {
      expect(
        all.filter((t) => t.ref_id === id),
        `row ${i + 1}`,
      ).toHaveLength(1);
      expect(
        all.filter((t) => t.ref_id === id + salt),
        `row ${i + 1}`,
      ).toHaveLength(1);
    }
  });

  it('--journal at a file that is not a coinop journal is refused and left exactly as it was', async () => {
    const f = file('untouched.csv', ethCsv(2, 'untouched-'));
    const text = join(e.dir, 'notes.txt');
    writeFileSync(text, 'my notes, not a journal\n');
    const foreign = join(e.dir, 'other.db');
    const db = new Database(foreign);
    db.pragma('journal_mode = WAL');
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('version', '2')");
    db.close();
    const before = await posts();
    for (const target of [text, foreign]) {
      const bytes = readFileSync(target);
      const mtime = statSync(target).mtimeMs;
      const r = await run(e, ['withdraw', 'batch', f, '--yes', '--journal', target]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /(is damaged or is not a coinop batch journal|is not a coinop batch journal \(an SQLite database of another program).*coinop left it as it is.*[Nn]ame a new file with --journal/,
      );
      expect(readFileSync(target).equals(bytes)).toBe(true);
      expect(statSync(target).mtimeMs).toBe(mtime);
      for (const extra of ['-wal', '-shm', '-journal', '.lock'])
        expect(existsSync(target + extra), target + extra).toBe(false);
    }
    expect(await posts()).toBe(before);
  });

  it('journals and the record of sent ref_ids are private (0600)', async () => {
    const dir = join(e.dir, 'data');
    const files = [
      join(dir, 'sent-ref-ids.db'),
      ...readdirSync(join(dir, 'batches'))
        .filter((n) => n.endsWith('.journal'))
        .map((n) => join(dir, 'batches', n)),
    ];
    expect(files.length).toBeGreaterThan(2);
    for (const p of files) expect((statSync(p).mode & 0o777).toString(8), p).toBe('600');
  });
});

/** The local service's instance id, which names it in a journal. */
async function instanceOf(baseUrl: string): Promise<string> {
  return ((await (await fetch(`${baseUrl}/_local/health`)).json()) as { instance_id: string }).instance_id;
}

describe('a journal belongs to its service', () => {
  it('a journal of one local service is refused against another, with which is which and what to do', async () => {
    const other = await startEnv({ journalSize: 1000 });
    try {
      const f = file('two-services.csv', ethCsv(3, 'two-services-'));
      const j = join(e.dir, 'two-services.journal');
      const first = await run(e, ['withdraw', 'batch', f, '--yes', '--journal', j, '--rate', '0']);
      expect(first.code, first.stderr).toBe(0);
      for (const extra of [[], ['--resume']]) {
        const r = await run(e, ['withdraw', 'batch', f, '--yes', '--journal', j, ...extra], {
          env: { COINOP_BASE_URL: other.svc.baseUrl },
        });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain(
          `the journal ${j} belongs to the service local:${await instanceOf(e.svc.baseUrl)}, and this run talks to local:${await instanceOf(other.svc.baseUrl)}`,
        );
        expect(r.stderr).toMatch(/name a new journal with --journal/);
      }
      expect(
        (await journalEntries(other.svc)).filter((x) => x.url.startsWith('/v2/transfer/crypto-withdrawals')),
      ).toEqual([]);
    } finally {
      await other.svc.close();
    }
  });
});
