// A list's items that arrive together go out in one write (100 prices were 102 writes to stdout), yet a page is
// written before the list waits for the next one, and what was read before a failing page is still written.
import { describe, expect, it } from 'vitest';
import { Output } from '../../src/render/output.js';
import type { Writer } from '../../src/render/writer.js';

function recorder(): Writer & { writes: string[] } {
  const writes: string[] = [];
  return { writes, out: (t) => void writes.push(t), err: () => {}, stdoutTTY: false, colour: false, width: 80 };
}

const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${from + i}`, price: '1.5' }));
const COLUMNS = [{ key: 'id' }, { key: 'price' }];

/** Pages of items; between pages the generator waits for a turn of the event loop, as a request would. */
async function* pages(sizes: number[], onPage: (i: number) => void, failAfter?: number): AsyncGenerator<object> {
  let from = 0;
  for (const [i, size] of sizes.entries()) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    if (i === failAfter) throw new Error('the next page failed');
    onPage(i);
    yield* items(from, size);
    from += size;
  }
}

describe('Output.list writes', () => {
  it('a page of 100 items as JSON is one write, byte for byte the array it always was', async () => {
    const w = recorder();
    const n = await new Output(w, 'json').list(
      pages([100], () => {}),
      COLUMNS,
    );
    expect(n).toBe(100);
    expect(w.writes).toHaveLength(1);
    expect(w.writes[0]).toBe(
      `[${items(0, 100)
        .map((x) => `\n  ${JSON.stringify(x)}`)
        .join(',')}\n]\n`,
    );
    expect(JSON.parse(w.writes[0])).toEqual(items(0, 100));
  });

  it('each page goes out before the next is asked for (NDJSON and CSV alike)', async () => {
    for (const format of ['ndjson', 'csv', 'json'] as const) {
      const w = recorder();
      const seenAtPage: number[] = [];
      await new Output(w, format).list(
        pages([3, 2, 4], () => seenAtPage.push(w.writes.join('').split('\n').length - 1)),
        COLUMNS,
      );
      // Lines out when each page began: none, then the first page's (CSV: and its header), then both pages'.
      const head = format === 'csv' ? 1 : 0;
      if (format === 'json') expect(seenAtPage).toEqual([0, 3, 5]);
      else expect(seenAtPage, format).toEqual([0, 3 + head, 5 + head]);
      expect(w.writes.length, format).toBe(3);
    }
  });

  it('the items read before a page fails are written', async () => {
    const w = recorder();
    await expect(
      new Output(w, 'ndjson').list(
        pages([2, 2], () => {}, 1),
        COLUMNS,
      ),
    ).rejects.toThrow(/failed/);
    expect(w.writes.join('')).toBe(`${JSON.stringify(items(0, 2)[0])}\n${JSON.stringify(items(0, 2)[1])}\n`);
  });

  it('a long list is written in pieces of about 64 KiB, not held whole', async () => {
    const w = recorder();
    await new Output(w, 'ndjson').list(items(0, 5000), COLUMNS);
    expect(w.writes.length).toBeGreaterThan(1);
    for (const t of w.writes.slice(0, -1)) expect(t.length).toBeLessThan(65536 + 100);
  });
});
