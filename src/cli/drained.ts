// Waiting for a slow reader of stdout, for the commands that write a long stream of rows (a month's reconciliation, a
// month's statement): without it their writes would pile up in memory, a line at a time for the whole month.
import type { Output } from '../render/output.js';
import type { IO } from './io.js';

/** Waits while the reader of stdout is behind: a pager, or a pipe whose reader is slower. */
export async function drained(out: Output, stdout?: IO['stdout']): Promise<void> {
  const paged = out.io.ready?.();
  if (paged) return paged;
  if (!stdout?.writableNeedDrain) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      for (const e of ['drain', 'close', 'error']) stdout.off(e, done);
      resolve();
    };
    for (const e of ['drain', 'close', 'error']) stdout.once(e, done);
  });
}

/** The items, pausing every `every` of them while the reader of stdout is behind. */
export async function* paced<T>(
  items: Iterable<T>,
  out: Output,
  stdout?: IO['stdout'],
  every = 500,
): AsyncGenerator<T> {
  let n = 0;
  for (const item of items) {
    yield item;
    if (++n % every === 0) await drained(out, stdout);
  }
}
