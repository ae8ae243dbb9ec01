// Derived ref_ids come from what a row pays: the same rows give the same ref_ids whatever the file looks like
// (column order, BOM, quoting, CRLF, trailing newlines, CSV or JSON); identical rows are told apart by occurrence.
// The guard finds rows this machine sent in another batch even when the service does not know them.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchService } from '../../src/batch/service-port.js';
import { markRepeats, repeatLine } from '../../src/batch/guard.js';
import { TokenBucket } from '../../src/batch/pacing.js';
import type { BatchFormat } from '../../src/batch/reader.js';
import { REF_ID_PLACEHOLDER, canonicalJson, normalAmount, stagedText, withRefId } from '../../src/batch/ref-ids.js';
import { scanFile } from '../../src/batch/scan.js';
import { SentRecord } from '../../src/batch/sent-record.js';
import { Stage } from '../../src/batch/stage.js';
import { BTC_ADDRESS as BTC, ETH_ADDRESS as ETH } from '../support/addresses.js';

const dir = mkdtempSync(join(tmpdir(), 'coinop-ref-ids-'));

async function staged(name: string, text: string, format: BatchFormat): Promise<Stage> {
  const f = join(dir, name);
  writeFileSync(f, text);
  const stage = Stage.create(dir);
  const scan = await scanFile(f, { format, defaultProfileId: 'prof-1', onRow: (row) => stage.addValid(row) });
  expect(scan.invalid, name).toBe(0);
  expect(stage.finish()).toEqual([]);
  return stage;
}

async function refIds(name: string, text: string, format: BatchFormat): Promise<string[]> {
  const stage = await staged(name, text, format);
  try {
    return [...stage.valid()].map((r) => r.ref_id);
  } finally {
    stage.remove();
  }
}

describe('derived ref_ids', () => {
  const csv = [
    'destination_address,asset,crypto_network,amount,meta.invoice,memo',
    `${BTC},BTC,BITCOIN,0.01,INV-1,`,
    `${ETH},ETH,ETHEREUM,0.5,INV-2,for "May"`,
    `${BTC},BTC,BITCOIN,0.01,INV-1,`,
  ].join('\n');

  it('are the same whatever the file looks like: column order, BOM, quoting, CRLF, trailing newlines, JSON', async () => {
    const base = await refIds('base.csv', `${csv.replace('for "May"', '"for ""May"""')}\n`, 'csv');
    expect(base).toHaveLength(3);
    expect(base[0]).toMatch(/^batch-[0-9a-f]{24}-1$/);
    const variants: [string, string, BatchFormat][] = [
      ['crlf.csv', `${csv.replace('for "May"', '"for ""May"""').replace(/\n/g, '\r\n')}\r\n\r\n`, 'csv'],
      ['bom.csv', `\uFEFF${csv.replace('for "May"', '"for ""May"""')}`, 'csv'],
      [
        'quoted.csv',
        csv
          .split('\n')
          .map((l) =>
            l
              .split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)
              .map((c) => (c.startsWith('"') ? c : `"${c}"`))
              .join(','),
          )
          .join('\n')
          .replace('"for "May""', '"for ""May"""'),
        'csv',
      ],
      [
        'reordered.csv',
        [
          'memo,amount,meta.invoice,crypto_network,asset,destination_address',
          `,0.010,INV-1,BITCOIN,BTC,${BTC}`,
          `"for ""May""",.5,INV-2,ETHEREUM,ETH,${ETH}`,
          `,0.01,INV-1,BITCOIN,BTC,${BTC}`,
        ].join('\n'),
        'csv',
      ],
      [
        'rows.jsonl',
        [
          {
            amount: '0.01',
            asset: 'BTC',
            crypto_network: 'BITCOIN',
            destination_address: BTC,
            metadata: { invoice: 'INV-1' },
          },
          {
            memo: 'for "May"',
            'meta.invoice': 'INV-2',
            destination_address: ETH,
            asset: 'ETH',
            crypto_network: 'ETHEREUM',
            amount: '0.50',
            profile_id: 'prof-1',
          },
          {
            destination_address: BTC,
            asset: 'BTC',
            crypto_network: 'BITCOIN',
            amount: '0.01',
            metadata: { invoice: 'INV-1' },
            memo: null,
          },
        ]
          .map((o) => JSON.stringify(o))
          .join('\n'),
        'jsonl',
      ],
    ];
    for (const [name, text, format] of variants) expect(await refIds(name, text, format), name).toEqual(base);
    const arr = JSON.stringify([
      { destination_address: BTC, asset: 'BTC', crypto_network: 'BITCOIN', amount: '0.01', 'meta.invoice': 'INV-1' },
    ]);
    expect(await refIds('rows.json', arr, 'json')).toEqual([base[0]]);
  });

  it('tell identical rows apart by occurrence, and change with anything a row pays', async () => {
    const good = csv.replace('for "May"', 'for May');
    const base = await refIds('occ.csv', good, 'csv');
    // Rows 1 and 3 are the same payout: the second is its second occurrence.
    expect(base[2]).toBe(base[0].replace(/-1$/, '-2'));
    const row1 = `${BTC},BTC,BITCOIN,0.01,INV-1,\n`;
    const changed = [
      good.replace(row1, `${BTC},BTC,BITCOIN,0.02,INV-1,\n`),
      good.replace(row1, `${BTC},BTC,BITCOIN,0.01,INV-9,\n`),
      good.replace(row1, `1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa,BTC,BITCOIN,0.01,INV-1,\n`),
      good.replace(row1, `${BTC},BTC,BITCOIN,0.01,INV-1,a memo\n`),
      good.replace(row1, `${BTC},BTC,BITCOIN,,INV-1,\n`.replace(',,INV', ',0.01,INV')).replace('amount,', 'total,'),
      good
        .split('\n')
        .map((l, i) => `${l},${i ? 'prof-2' : 'profile_id'}`)
        .join('\n'),
    ];
    for (const [i, text] of changed.entries())
      expect((await refIds(`changed-${i}.csv`, text, 'csv'))[0], `change ${i}`).not.toBe(base[0]);
  });

  it('are the same however the destination is spelled (case, EIP-55 casing, CashAddr prefix); the body staged carries its one spelling', async () => {
    const BC1 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    const CASH = 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a';
    const spellings: [string, string, string, string[]][] = [
      ['BTC', 'BITCOIN', BC1, [BC1.toUpperCase()]],
      ['ETH', 'ETHEREUM', ETH, [ETH.toLowerCase(), `0x${ETH.slice(2).toUpperCase()}`]],
      ['BCH', 'BITCOIN_CASH', CASH, [CASH.toUpperCase(), CASH.slice('bitcoincash:'.length)]],
    ];
    for (const [asset, network, canonical, others] of spellings) {
      const rows = [canonical, ...others].map((a) => `${a},${asset},${network},0.01`);
      const stage = await staged(
        `spell-${asset}.csv`,
        `destination_address,asset,crypto_network,amount\n${rows.join('\n')}\n`,
        'csv',
      );
      try {
        const valid = [...stage.valid()];
        // One payout written n ways is n occurrences of the same row: -1, -2, ...
        const first = valid[0].ref_id;
        expect(
          valid.map((r) => r.ref_id),
          asset,
        ).toEqual(valid.map((_, i) => first.replace(/-1$/, `-${i + 1}`)));
        for (const r of valid) {
          expect(r.destination_address, asset).toBe(canonical);
          expect(JSON.parse(r.body).destination_address, asset).toBe(canonical);
        }
      } finally {
        stage.remove();
      }
      // Alone in another file, every spelling is the first occurrence of the same row: the same ref_id, which a
      // batch that already paid it is found by.
      const alone = [];
      for (const [i, a] of [canonical, ...others].entries())
        alone.push(
          ...(await refIds(
            `alone-${asset}-${i}.csv`,
            `destination_address,asset,crypto_network,amount\n${a},${asset},${network},0.01\n`,
            'csv',
          )),
        );
      expect(new Set(alone).size, asset).toBe(1);
    }
  });

  it('canonical text and amounts, and room within the service limit of 128 characters', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"x":0,"y":1}]},"b":1}',
    );
    expect(['0.10', '00.1', '.1', '0.1'].map(normalAmount)).toEqual(['0.1', '0.1', '0.1', '0.1']);
    expect(['0', '000', '10', '10.000', '0.000'].map(normalAmount)).toEqual(['0', '0', '10', '10', '0']);
    expect(REF_ID_PLACEHOLDER.length).toBeLessThanOrEqual(128);
  });

  it('a staged body takes its ref_id as parsing and writing it again would give it, array-index keys and all', () => {
    const bodies: Record<string, unknown>[] = [
      { asset: 'ETH', amount: '0.001', destination_address: ETH, metadata: { n: 'a-1' } },
      // Keys V8 orders first when it parses them (array indexes), beside keys that sort before digits.
      { asset: 'ETH', metadata: { '10': 'x', '9': 'y', $b: 'z', '01': 'w' } },
      { asset: 'ETH', metadata: { '1': 'x' } },
      { memo: 'a "ref_id": in a note, {"7": braces} and \u00e9 é 😀', asset: 'XLM' },
      { ref_id: 'given-1', asset: 'BTC' },
      {},
    ];
    for (const body of bodies) {
      for (const text of [stagedText(body).text, JSON.stringify(body)]) {
        const slow = JSON.stringify({ ...JSON.parse(text), ref_id: 'batch-abc-1' });
        expect(withRefId(text, 'batch-abc-1')).toBe(slow);
      }
    }
  });
});

describe('rows another batch paid', () => {
  const none: BatchService = {
    createWithdrawal: async () => ({ kind: 'fatal', error: new Error('not here') }),
    quoteFee: async () => ({ kind: 'fatal', error: new Error('not here') }),
    transfers: async () => [],
    transfersByRef: async () => [],
  };

  it("are moved from the record's log to its keyed table as a batch sends, every couple of thousand rows", async () => {
    const path = join(dir, 'folds.db');
    const record = SentRecord.open(path);
    const counts = () => {
      const db = new Database(path, { readonly: true });
      try {
        const n = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
        return { log: n('sent_log'), keyed: n('sent') };
      } finally {
        db.close();
      }
    };
    try {
      for (let w = 0; w < 9; w++) {
        const entries = Array.from({ length: 256 }, (_, i) => ({
          row: w * 256 + i + 1,
          ref_id: `batch-${w}-${i}`,
          profile_id: 'prof-1',
        }));
        await record.record('local:http://a', 'b1', '/j/b1.journal', entries, '2026-01-01T00:00:00.000Z');
      }
      // 2,304 rows appended: the first 2,048 moved while sending, the window after them still in the log.
      expect(counts()).toEqual({ log: 256, keyed: 2048 });
      expect(record.find('local:http://a', 'prof-1', 'batch-8-255', 'other')?.row).toBe(2304);
    } finally {
      record.close();
    }
    expect(counts()).toEqual({ log: 0, keyed: 2304 });
  });

  it("are found in this machine's record of sent ref_ids (per service and profile) when the service does not know them", async () => {
    const text = `destination_address,asset,crypto_network,amount\n${BTC},BTC,BITCOIN,0.01\n${BTC},BTC,BITCOIN,0.02\n`;
    const stage = await staged('record.csv', text, 'csv');
    const [first, second] = [...stage.valid()];
    const record = SentRecord.open(join(dir, 'sent.db'));
    try {
      await record.record(
        'local:http://a',
        'earlier',
        '/j/earlier.journal',
        [{ row: 1, ref_id: first.ref_id, profile_id: 'prof-1' }],
        '2026-01-01T00:00:00.000Z',
      );
      // Sent to another service, by another profile, or by this very batch: not a repeat.
      await record.record(
        'local:http://b',
        'earlier',
        '/j/b.journal',
        [{ row: 2, ref_id: second.ref_id, profile_id: 'prof-1' }],
        '2026-01-01T00:00:00.000Z',
      );
      await record.record(
        'local:http://a',
        'earlier',
        '/j/p.journal',
        [{ row: 2, ref_id: second.ref_id, profile_id: 'prof-2' }],
        '2026-01-01T00:00:00.000Z',
      );
      await record.record(
        'local:http://a',
        'this',
        '/j/this.journal',
        [{ row: 2, ref_id: second.ref_id, profile_id: 'prof-1' }],
        '2026-01-01T00:00:00.000Z',
      );
      // Sent by another batch but refused outright by the service: nothing was paid, so no evidence of a payment.
      await record.record(
        'local:http://a',
        'refused',
        '/j/refused.journal',
        [{ row: 2, ref_id: second.ref_id, profile_id: 'prof-1' }],
        '2026-01-01T00:00:00.000Z',
      );
      record.markRefused('local:http://a', 'refused', { ref_id: second.ref_id, profile_id: 'prof-1' });
      const n = await markRepeats(stage, {
        service: none,
        limiter: new TokenBucket(Infinity),
        record,
        serviceId: 'local:http://a',
        batchId: 'this',
      });
      expect(n).toBe(1);
      const [repeat] = [...stage.repeats()];
      expect(repeatLine(repeat)).toBe(
        `row 1: 0.01 BTC to ${BTC} (ref_id ${first.ref_id}) was already paid: this machine sent it at 2026-01-01T00:00:00.000Z (journal /j/earlier.journal)`,
      );
      stage.saltRepeats('0123456789abcdef');
      expect([...stage.valid()].map((r) => r.ref_id)).toEqual([`${first.ref_id}-01234567`, second.ref_id]);
    } finally {
      record.close();
      stage.remove();
    }
  });

  it('are looked up a page at a time: each row of a page of two profiles gets the earliest send of its ref_id by its profile', async () => {
    const record = SentRecord.open(join(dir, 'sent-page.db'));
    const at = (day: number) => `2026-01-0${day}T00:00:00.000Z`;
    try {
      await record.record(
        'svc',
        'b2',
        '/j/b2',
        [
          { row: 1, ref_id: 'r-1', profile_id: 'p1' },
          { row: 2, ref_id: 'r-2', profile_id: 'p2' },
        ],
        at(2),
      );
      await record.record('svc', 'b1', '/j/b1', [{ row: 5, ref_id: 'r-1', profile_id: 'p1' }], at(1));
      await record.record('svc', 'b3', '/j/b3', [{ row: 7, ref_id: 'r-2', profile_id: 'p1' }], at(3));
      const page = [
        { ref_id: 'r-1', profile_id: 'p1' },
        { ref_id: 'r-2', profile_id: 'p2' },
        { ref_id: 'r-2', profile_id: 'p1' },
        { ref_id: 'r-3', profile_id: 'p1' },
        { ref_id: 'r-1', profile_id: 'p2' },
      ];
      expect(record.findEach('svc', 'this', page)).toEqual([
        { batch_id: 'b1', journal: '/j/b1', row: 5, sent_at: at(1) },
        { batch_id: 'b2', journal: '/j/b2', row: 2, sent_at: at(2) },
        { batch_id: 'b3', journal: '/j/b3', row: 7, sent_at: at(3) },
        undefined,
        undefined,
      ]);
      // The batch asking is not its own repeat.
      expect(record.findEach('svc', 'b1', page.slice(0, 1))).toEqual([
        { batch_id: 'b2', journal: '/j/b2', row: 1, sent_at: at(2) },
      ]);
    } finally {
      record.close();
    }
  });

  it("are found in another batch's log of sends while it runs and after it crashed; a resend clears a refusal", async () => {
    const path = join(dir, 'sent-log.db');
    const running = SentRecord.open(path);
    const later = SentRecord.open(path);
    const row = (n: number) => ({ row: n, ref_id: `batch-${n}`, profile_id: 'prof-1' });
    const at = '2026-01-01T00:00:00.000Z';
    try {
      // Appended by a batch still running (never closed here: as if it crashed after these windows).
      await running.record('local:http://a', 'running', '/j/running.journal', [row(1), row(2)], at);
      expect(later.find('local:http://a', 'prof-1', 'batch-1', 'later')).toMatchObject({ batch_id: 'running' });
      running.markRefused('local:http://a', 'running', row(2));
      expect(later.findEach('local:http://a', 'later', [row(2), row(3)])).toEqual([undefined, undefined]);
      // Sent again after its refusal (a resume): evidence of a payment again.
      await running.record('local:http://a', 'running', '/j/running.journal', [row(2)], at);
      expect(later.find('local:http://a', 'prof-1', 'batch-2', 'later')).toMatchObject({ batch_id: 'running' });
      expect(later.find('local:http://a', 'prof-1', 'batch-2', 'running')).toBeUndefined();
    } finally {
      later.close();
    }
    const reopened = SentRecord.open(path);
    try {
      expect(reopened.find('local:http://a', 'prof-1', 'batch-1', 'another')).toMatchObject({
        batch_id: 'running',
        journal: '/j/running.journal',
        row: 1,
        sent_at: at,
      });
    } finally {
      reopened.close();
      running.close();
    }
  });

  it('are found when the earlier batch spelled the destination another way (EIP-55 casing, bech32 case)', async () => {
    const BC1 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    const head = 'destination_address,asset,crypto_network,amount\n';
    const earlier = await staged(
      'earlier.csv',
      `${head}${ETH.toLowerCase()},ETH,ETHEREUM,1\n${BC1},BTC,BITCOIN,0.1\n`,
      'csv',
    );
    const sentIds = [...earlier.valid()].map((r, i) => ({ row: i + 1, ref_id: r.ref_id, profile_id: 'prof-1' }));
    earlier.remove();
    const stage = await staged(
      'now.csv',
      `${head}0x${ETH.slice(2).toUpperCase()},ETH,ETHEREUM,1.0\n${BC1.toUpperCase()},BTC,BITCOIN,0.10\n`,
      'csv',
    );
    const record = SentRecord.open(join(dir, 'sent-spelled.db'));
    try {
      await record.record('local:http://a', 'earlier', '/j/earlier.journal', sentIds, '2026-01-01T00:00:00.000Z');
      const n = await markRepeats(stage, {
        service: none,
        limiter: new TokenBucket(Infinity),
        record,
        serviceId: 'local:http://a',
        batchId: 'now',
      });
      expect(n).toBe(2);
      expect([...stage.repeats()].map(repeatLine)).toEqual([
        `row 1: 1.0 ETH to ${ETH} (ref_id ${sentIds[0].ref_id}) was already paid: this machine sent it at 2026-01-01T00:00:00.000Z (journal /j/earlier.journal)`,
        `row 2: 0.10 BTC to ${BC1} (ref_id ${sentIds[1].ref_id}) was already paid: this machine sent it at 2026-01-01T00:00:00.000Z (journal /j/earlier.journal)`,
      ]);
    } finally {
      record.close();
      stage.remove();
    }
  });
});
