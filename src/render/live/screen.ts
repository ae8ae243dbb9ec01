// A full-screen live view on a terminal: alternate screen, frames on a timer (identical frames skipped), resizes,
// keys (q, Ctrl-C), and the terminal always put back the way it was.
import type { Readable, Writable } from 'node:stream';
import { visibleLength } from '../style.js';

const ESC = '\u001b[';
const ENTER = `${ESC}?1049h${ESC}?25l${ESC}H${ESC}2J`;
const LEAVE = `${ESC}0m${ESC}?25h${ESC}?1049l`;

export interface LiveScreenOptions {
  stdout: Writable & { columns?: number; rows?: number; isTTY?: boolean };
  stdin?: Readable & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  /** Frames per second, at most 30. */
  fps?: number;
  /** Builds the frame's lines for a terminal of this size. */
  render(width: number, height: number): string[];
  /** The user asked to leave (q or Ctrl-C). */
  onQuit(key: 'q' | 'ctrl-c'): void;
  /** Rendering failed: the screen has been given back already; the caller ends the view. */
  onError?(err: unknown): void;
}

/** Clip a line (which may hold colour escapes) to `width` visible characters. */
export function clip(line: string, width: number): string {
  if (visibleLength(line) <= width) return line;
  let out = '';
  let seen = 0;
  for (let i = 0; i < line.length && seen < width; ) {
    if (line.charCodeAt(i) === 27) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: an SGR escape starts with ESC
      const m = /^\u001b\[[0-9;]*m/.exec(line.slice(i));
      if (m) {
        out += m[0];
        i += m[0].length;
        continue;
      }
    }
    const cp = line.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    out += ch;
    i += ch.length;
    seen++;
  }
  return `${out}${ESC}0m`;
}

export class LiveScreen {
  private timer: NodeJS.Timeout | null = null;
  private last = '';
  private active = false;
  private rawBefore = false;
  private readonly onResize = () => {
    // Redraw once with the new size, right away: the old frame may be garbled by the terminal's reflow.
    this.last = '';
    this.draw();
  };
  private readonly onData = (data: Buffer | string) => {
    const s = data.toString();
    if (s.includes('\u0003')) this.options.onQuit('ctrl-c');
    else if (s.includes('q') || s.includes('Q')) this.options.onQuit('q');
  };
  frames = 0;
  skipped = 0;

  constructor(private readonly options: LiveScreenOptions) {}

  get width(): number {
    return Math.max(20, this.options.stdout.columns || 80);
  }
  get height(): number {
    return Math.max(5, this.options.stdout.rows || 24);
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.options.stdout.write(ENTER);
    const stdin = this.options.stdin;
    if (stdin?.isTTY && stdin.setRawMode) {
      this.rawBefore = !!(stdin as { isRaw?: boolean }).isRaw;
      stdin.setRawMode(true);
      stdin.on('data', this.onData);
      stdin.resume();
    }
    this.options.stdout.on('resize', this.onResize);
    const fps = Math.min(30, Math.max(1, this.options.fps ?? 20));
    this.timer = setInterval(() => this.draw(), Math.round(1000 / fps));
    this.draw();
  }

  /** Render now; skipped when the frame is the same as the last one written. */
  draw(): void {
    if (!this.active) return;
    const w = this.width;
    const h = this.height;
    let lines: string[];
    try {
      lines = this.options.render(w, h).slice(0, h);
    } catch (e) {
      // A timer callback that throws would end the process with the terminal still in the alternate screen.
      this.stop();
      this.options.onError?.(e);
      return;
    }
    let frame = `${ESC}H`;
    for (let i = 0; i < lines.length; i++) frame += `${clip(lines[i], w)}${ESC}K${i < lines.length - 1 ? '\r\n' : ''}`;
    frame += `${ESC}J`;
    if (frame === this.last) {
      this.skipped++;
      return;
    }
    this.last = frame;
    this.frames++;
    this.options.stdout.write(frame);
  }

  /** Leave the alternate screen and give the terminal back (cursor, raw mode, listeners). Safe to call twice. */
  stop(): void {
    if (!this.active) return;
    this.active = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.options.stdout.off('resize', this.onResize);
    const stdin = this.options.stdin;
    if (stdin?.isTTY && stdin.setRawMode) {
      stdin.off('data', this.onData);
      stdin.setRawMode(this.rawBefore);
      stdin.pause();
    }
    this.options.stdout.write(LEAVE);
  }
}
