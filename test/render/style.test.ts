// The palette over chalk: escapes only when colour is on, and styles that survive nesting and line breaks.
import { describe, expect, it } from 'vitest';
import { palette, statusColour, visibleLength } from '../../src/render/style.js';

const ESC = '\u001b[';

describe('palette', () => {
  it('writes no escapes when colour is off', () => {
    const p = palette(false);
    expect(p.bold(`a ${p.red('b')}`)).toBe('a b');
    expect(statusColour(p, 'FAILED')).toBe('FAILED');
  });

  it('colours with the basic 16-colour codes when on', () => {
    const p = palette(true);
    expect(p.red('x')).toBe(`${ESC}31mx${ESC}39m`);
    expect(statusColour(p, 'COMPLETED')).toBe(`${ESC}32mCOMPLETED${ESC}39m`);
  });

  it('keeps the outer style after a nested one closes (dim and bold share their closing code)', () => {
    const p = palette(true);
    expect(p.bold(`a ${p.dim('b')} c`)).toBe(`${ESC}1ma ${ESC}2mb${ESC}22m${ESC}1m c${ESC}22m`);
  });

  it('styles each line of a multi-line text on its own, so no style runs past a line end', () => {
    expect(palette(true).yellow('a\nb')).toBe(`${ESC}33ma${ESC}39m\n${ESC}33mb${ESC}39m`);
  });

  it('counts only what takes room on the screen', () => {
    const p = palette(true);
    expect(visibleLength(p.bold(`ab ${p.green('€')}`))).toBe(4);
  });
});
