// Local service store: group commit semantics.
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/local/store.js';
import { tempDir } from './helpers.js';

describe('store group commit', () => {
  it('a job that throws rolls back only its own writes; the others commit together', async () => {
    const s = new Store(null);
    try {
      const a = s.grouped(() => s.setMeta('a', '1'));
      const b = s.grouped(() => {
        s.setMeta('b', '1');
        throw new Error('no');
      });
      const c = s.grouped(() => s.setMeta('c', '1'));
      await a;
      await expect(b).rejects.toThrow('no');
      await c;
      expect([s.getMeta('a'), s.getMeta('b'), s.getMeta('c')]).toEqual(['1', undefined, '1']);
    } finally {
      s.close();
    }
  });

  it('closing commits queued work first', async () => {
    const d = tempDir();
    try {
      const s = new Store(`${d.dir}/g.db`);
      const done = s.grouped(() => s.setMeta('queued', 'yes'));
      s.close();
      await done;
      const again = new Store(`${d.dir}/g.db`);
      expect(again.getMeta('queued')).toBe('yes');
      again.close();
    } finally {
      d.cleanup();
    }
  });
});
