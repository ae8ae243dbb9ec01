// The staged copy keeps a small batch's valid rows as they were staged (no read back of what was just written): what
// valid() and derivedPages() give from them must be exactly what they read from the staged copy's file.
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { scanFile } from '../../src/batch/scan.js';
import { Stage } from '../../src/batch/stage.js';
import { BTC_ADDRESS as BTC, ETH_ADDRESS as ETH } from '../support/addresses.js';

const dir = mkdtempSync(join(tmpdir(), 'coinop-stage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function staged(text: string): Promise<Stage> {
  const file = join(dir, `rows-${Math.random().toString(16).slice(2)}.csv`);
  writeFileSync(file, text);
  const stage = Stage.create(dir);
  await scanFile(file, {
    format: 'csv',
    defaultProfileId: 'prof-1',
    onRow: (row) => stage.addValid(row),
    onInvalid: (row, line, issues) => stage.addInvalid(row, line, issues),
  });
  stage.finish();
  return stage;
}

/** Runs full garbage collections until the object is gone, or 20 times (a row the stage still holds never goes). */
async function collected(ref: WeakRef<object>): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 20 && ref.deref() !== undefined; i++) {
    // A turn between collections: a WeakRef's target is kept until the end of the job that read it.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}

/** What the staged copy's file holds: read again after a write that drops what is kept (it changes no row here). */
function fromFile(stage: Stage) {
  stage.saltRepeats('no-repeats');
  return { rows: [...stage.valid()], pages: [...stage.derivedPages(2)] };
}

describe('the staged rows kept in memory', () => {
  const csv = [
    'destination_address,asset,crypto_network,amount,ref_id,meta.n,profile_id',
    `${BTC},BTC,BITCOIN,0.10,,a,`,
    `${ETH},ETH,ETHEREUM,1,given-1,b,prof-2`,
    'not-an-address,BTC,BITCOIN,1,,c,',
    `${ETH.toLowerCase()},ETH,ETHEREUM,2,,d,`,
    `${BTC},BTC,BITCOIN,0.3,,e,prof-3`,
  ].join('\n');

  it('are the rows, fields, ref_ids and pages of derived rows that the staged copy holds', async () => {
    const stage = await staged(csv);
    try {
      const kept = { rows: [...stage.valid()], pages: [...stage.derivedPages(2)] };
      expect(kept.rows.map((r) => r.row)).toEqual([1, 2, 4, 5]);
      expect(kept.pages.map((p) => p.map((r) => r.row))).toEqual([[1, 4], [5]]);
      expect(kept).toEqual(fromFile(stage));
      // Frozen, as the rows read from the file are: a reader cannot change what the next one gets.
      expect(Object.isFrozen(kept.rows[0])).toBe(true);
    } finally {
      stage.remove();
    }
  });

  it('are not kept when counting identical rows changed a ref_id (read from the file instead)', async () => {
    const stage = await staged(`${csv}\n${BTC},BTC,BITCOIN,0.10,,a,`);
    try {
      const rows = [...stage.valid()];
      expect(rows.map((r) => r.ref_id.slice(-2))).toEqual(['-1', '-1', '-1', '-1', '-2']);
      expect(rows[1].ref_id).toBe('given-1');
      expect(rows[4].ref_id.slice(0, -2)).toBe(rows[0].ref_id.slice(0, -2));
      expect({ rows, pages: [...stage.derivedPages(2)] }).toEqual(fromFile(stage));
    } finally {
      stage.remove();
    }
  });
});

/** What the staged copy's file holds now, read with a connection of its own. */
function onDisk(stage: Stage): { rows: number; invalid: number; index: boolean } {
  const db = new Database(stage.path, { readonly: true });
  try {
    const count = (where: string) =>
      (db.prepare(`SELECT count(*) AS n FROM staged WHERE ${where}`).get() as { n: number }).n;
    const index = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'staged_ref'").get();
    return { rows: count('body IS NOT NULL'), invalid: count('issues IS NOT NULL'), index: index !== undefined };
  } finally {
    db.close();
  }
}

describe('a kept batch is written to the staged copy only when something asks the copy', () => {
  const csv = [
    'destination_address,asset,crypto_network,amount,ref_id',
    `${BTC},BTC,BITCOIN,0.10,`,
    `${ETH},ETH,ETHEREUM,1,given-1`,
    `${BTC},BTC,BITCOIN,0.3,`,
  ].join('\n');

  it('holds distinct rows in memory through finish() and the reads of the guards', async () => {
    const stage = await staged(csv);
    try {
      expect([...stage.valid()].map((r) => r.row)).toEqual([1, 2, 3]);
      expect([...stage.derivedPages(10)].flat().map((r) => r.row)).toEqual([1, 3]);
      expect(stage.repeatCount()).toBe(0);
      expect([...stage.repeats()]).toEqual([]);
      expect([...stage.invalid()]).toEqual([]);
      expect(onDisk(stage)).toEqual({ rows: 0, invalid: 0, index: false });
    } finally {
      stage.remove();
    }
  });

  it('lets go of the rows it held once removed (they would live on through the sending)', async () => {
    const stage = await staged(csv);
    const held = new WeakRef([...stage.valid()][0]);
    stage.remove();
    // The stage itself stays reachable (as the batch's input does until the batch ends): its rows must not.
    await collected(held);
    expect(held.deref()).toBeUndefined();
    expect(stage).toBeDefined();
  });

  it('writes every row, and the index, before the first statement that marks a repeat', async () => {
    const stage = await staged(csv);
    try {
      const [first] = stage.valid();
      stage.markSeen(first.ref_id, { id: 'tr-1', status: 'PENDING' });
      expect(onDisk(stage)).toEqual({ rows: 3, invalid: 0, index: true });
      expect(stage.repeatCount()).toBe(1);
      expect([...stage.repeats()].map((r) => [r.row, r.seen_transfer])).toEqual([[1, 'tr-1']]);
      expect([...stage.valid()].map((r) => r.row)).toEqual([1, 2, 3]);
    } finally {
      stage.remove();
    }
  });

  it('writes held invalid rows when they are listed', async () => {
    const stage = await staged(`${csv}\nnot-an-address,BTC,BITCOIN,1,`);
    try {
      expect([...stage.invalid()].map((r) => r.row)).toEqual([4]);
      expect(onDisk(stage)).toEqual({ rows: 3, invalid: 1, index: true });
    } finally {
      stage.remove();
    }
  });

  it('writes as it reads when two rows share a ref_id (finish() counts them in the copy)', async () => {
    const stage = await staged(`${csv}\n${BTC},BTC,BITCOIN,0.10,`);
    try {
      expect(onDisk(stage).rows).toBe(4);
      expect([...stage.valid()].map((r) => r.ref_id.slice(-2))).toEqual(['-1', '-1', '-1', '-2']);
    } finally {
      stage.remove();
    }
  });
});
