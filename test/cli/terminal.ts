// A real terminal for tests: coinop on a pseudo-terminal (node-pty), its output rendered by @xterm/headless so
// tests read the screen as a person would see it.
import * as pty from 'node-pty';
import xterm from '@xterm/headless';
import { BIN } from './helpers.js';
import { until } from '../support/wait.js';

export const KEY = { enter: '\r', up: '\u001b[A', down: '\u001b[B', space: ' ', ctrlC: '\u0003' };

export class Term {
  readonly proc: pty.IPty;
  readonly term: InstanceType<typeof xterm.Terminal>;
  raw = '';
  readonly exited: Promise<number>;

  constructor(args: string[], env: Record<string, string | undefined>, cols = 110, rows = 50) {
    this.term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
    this.proc = pty.spawn(process.execPath, [BIN, ...args], {
      name: 'xterm-256color',
      cols,
      rows,
      // An undefined value must be left out, not passed on as the string "undefined".
      env: Object.fromEntries(
        Object.entries({ TERM: 'xterm-256color', ...env }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>,
    });
    this.proc.onData((chunk) => {
      this.raw += chunk;
      this.term.write(chunk);
    });
    this.exited = new Promise((res) => this.proc.onExit(({ exitCode }) => res(exitCode)));
  }

  /** Everything on the screen and in scrollback, as text. */
  screen(): string {
    const b = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < b.length; i++) lines.push(b.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\n+$/, '');
  }

  /** Until the screen shows `what` (a text, a pattern, or a test of the screen). */
  async waitFor(what: string | RegExp | ((screen: string) => boolean), timeoutMs = 15_000): Promise<void> {
    const shows = (s: string) =>
      typeof what === 'string' ? s.includes(what) : typeof what === 'function' ? what(s) : what.test(s);
    await until(
      () => `${String(what)}; screen:\n${this.screen()}`,
      // Read once xterm has parsed what arrived so far.
      async () => shows(await new Promise<string>((r) => this.term.write('', () => r(this.screen())))),
      { timeoutMs, everyMs: 40 },
    );
  }

  type(keys: string): void {
    this.proc.write(keys);
  }

  async exit(timeoutMs = 20_000): Promise<number> {
    const code = await Promise.race([
      this.exited,
      new Promise<number>((_, rej) =>
        setTimeout(() => rej(new Error(`no exit; screen:\n${this.screen()}`)), timeoutMs),
      ),
    ]);
    await new Promise((r) => this.term.write('', () => r(undefined)));
    return code;
  }
}
