import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { LiveScreen, clip } from '../../src/render/live/screen.js';

function fakeTerminal() {
  const out = new PassThrough() as PassThrough & { columns: number; rows: number; isTTY: boolean };
  out.columns = 40;
  out.rows = 10;
  out.isTTY = true;
  let text = '';
  out.on('data', (d) => (text += d));
  return { out, text: () => text };
}

describe('live screen', () => {
  it('clips lines with colour to the width', () => {
    expect(clip('\u001b[31mabcdef\u001b[39m', 3)).toBe('\u001b[31mabc\u001b[0m');
    expect(clip('short', 10)).toBe('short');
  });

  it('enters the alternate screen, skips identical frames, and restores everything on stop', () => {
    const t = fakeTerminal();
    let n = 0;
    const screen = new LiveScreen({ stdout: t.out, render: () => [`frame ${Math.floor(n++ / 2)}`], onQuit: () => {} });
    screen.start();
    screen.draw();
    screen.draw();
    screen.draw();
    screen.stop();
    expect(t.text().startsWith('\u001b[?1049h\u001b[?25l')).toBe(true);
    expect(t.text().endsWith('\u001b[0m\u001b[?25h\u001b[?1049l')).toBe(true);
    expect(screen.frames).toBe(2);
    expect(screen.skipped).toBe(2);
    // Stopping twice writes nothing more.
    const len = t.text().length;
    screen.stop();
    expect(t.text().length).toBe(len);
  });

  it('gives the terminal back when rendering throws', () => {
    const t = fakeTerminal();
    const errors: unknown[] = [];
    const screen = new LiveScreen({
      stdout: t.out,
      render: () => {
        throw new Error('boom');
      },
      onQuit: () => {},
      onError: (e) => errors.push(e),
    });
    screen.start();
    expect(errors).toHaveLength(1);
    expect(t.text().endsWith('\u001b[?25h\u001b[?1049l')).toBe(true);
  });

  it('redraws at the new size on resize', () => {
    const t = fakeTerminal();
    const sizes: string[] = [];
    const screen = new LiveScreen({
      stdout: t.out,
      render: (width, height) => {
        sizes.push(`${width}x${height}`);
        return ['x'];
      },
      onQuit: () => {},
    });
    screen.start();
    t.out.columns = 100;
    t.out.rows = 50;
    t.out.emit('resize');
    screen.stop();
    expect(sizes).toEqual(['40x10', '100x50']);
  });
});
