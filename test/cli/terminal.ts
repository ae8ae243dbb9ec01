// A real terminal for tests: coinop on a pseudo-terminal (node-pty), its output rendered by @xterm/headless so
// tests read the screen as a person would see it.
import { readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import * as pty from 'node-pty';
import xterm from '@xterm/headless';
import { BIN } from './helpers.js';
import { until } from '../support/wait.js';

export const KEY = { enter: '\r', up: '\u001b[A', down: '\u001b[B', space: ' ', ctrlC: '\u0003' };

/** How long the terminal's last output is waited for after node-pty would have destroyed the terminal. */
const DRAIN_MS = 10_000;

/**
 * Reads what the terminal holds now, each piece through `decoder` to `take`: 'closed' once the child's side is closed
 * and nothing is left (EIO, or end of file), 'open' when it has nothing more for now (EAGAIN).
 */
function readAvailable(fd: number, decoder: StringDecoder, take: (text: string) => void): 'open' | 'closed' {
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let bytes: number;
    try {
      bytes = readSync(fd, buffer, 0, buffer.length, null);
    } catch (e) {
      return (e as { code?: string }).code === 'EAGAIN' ? 'open' : 'closed';
    }
    if (bytes <= 0) return 'closed';
    const text = decoder.write(buffer.subarray(0, bytes));
    if (text) take(text);
  }
}

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
    this.proc.onData((chunk) => this.take(chunk));
    this.readLastOutputBeforeDestroy();
    this.exited = new Promise((res) => this.proc.onExit(({ exitCode }) => res(exitCode)));
  }

  private take(chunk: string): void {
    this.raw += chunk;
    this.term.write(chunk);
  }

  /**
   * node-pty (lib/unixTerminal.js) destroys the terminal's socket 200 ms after the child exits when it has not closed by
   * then, and what the terminal still held for this process is lost: on a loaded machine the child's last output may
   * not have been read by then, or not even reached the terminal's read side (Linux hands it over from a kernel
   * worker), and a chart's last lines went missing in a clean-clone run beside two CPU hogs. So that destroy first takes
   * what the socket holds, then reads the terminal until it reports the child's side closed and empty (EIO), polling
   * while it says "nothing yet" (EAGAIN), for at most DRAIN_MS; then destroys. Left as it is when node-pty's internals
   * are not as expected.
   */
  private readLastOutputBeforeDestroy(): void {
    const internals = this.proc as unknown as {
      _fd?: number;
      _socket?: {
        destroy: (...args: unknown[]) => unknown;
        read: () => string | null;
        destroyed?: boolean;
        _readableState?: { decoder?: StringDecoder | null };
      };
    };
    const socket = internals._socket;
    const fd = internals._fd;
    if (!socket || typeof fd !== 'number' || typeof socket.destroy !== 'function') return;
    const destroy = socket.destroy.bind(socket);
    socket.destroy = (...args: unknown[]) => {
      for (let chunk = socket.read(); chunk !== null; chunk = socket.read()) this.take(String(chunk));
      const decoder = socket._readableState?.decoder ?? new StringDecoder('utf8');
      const deadline = Date.now() + DRAIN_MS;
      const drain = () => {
        // Closed meanwhile (it read the end itself): its fd may already be another file's.
        if (socket.destroyed) return;
        if (readAvailable(fd, decoder, (text) => this.take(text)) === 'closed' || Date.now() > deadline)
          destroy(...args);
        else setTimeout(drain, 20);
      };
      drain();
    };
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
