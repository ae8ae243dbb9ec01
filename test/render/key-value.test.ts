// The one key/value layout (confirmation summaries, `fee quote`, `auth status`, a single resource as a table).
import { describe, expect, it } from 'vitest';
import { keyValueLines } from '../../src/render/key-value.js';
import { palette } from '../../src/render/style.js';

describe('keyValueLines', () => {
  it('pads every key to the longest, then two spaces and the value', () => {
    expect(
      keyValueLines(
        [
          ['fee', '0.0001 BTC'],
          ['destination', 'bc1q'],
        ],
        palette(false),
      ),
    ).toEqual(['fee          0.0001 BTC', 'destination  bc1q']);
  });

  it('indents each line and dims only the padded key', () => {
    const p = palette(true);
    expect(keyValueLines([['a', 'x']], p, '  ')).toEqual([`  ${p.dim('a')}  x`]);
    expect(keyValueLines([], p)).toEqual([]);
  });
});
