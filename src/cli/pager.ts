// Long tables through the user's pager on a terminal, as git and gh do: COINOP_PAGER, else PAGER, else less -FRX
// (LESS=FRX when LESS is unset). Output is held until it is more than a screenful, so a short table never starts a
// pager; past that, stdout (and stderr, when it is the same terminal, so notes stay in order) goes into the pager.
// A pager quit early ends the writing quietly (no EPIPE); a pager that cannot be found is skipped.
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, isAbsolute, join } from 'node:path';
import type { IO } from './io.js';

// Loaded when a pager starts, not on every command's start.
const require = createRequire(import.meta.url);

/** Whether a command's first word (unquoted) names a program that can be run: a path, or a name on PATH. */
export function canRun(command: string, path: string | undefined): boolean {
  const m = /^\s*(?:'([^']*)'|"([^"]*)"|(\S+))/.exec(command);
  const first = m ? (m[1] ?? m[2] ?? m[3]) : '';
  if (!first) return false;
  const ok = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (first.includes('/')) return ok(isAbsolute(first) ? first : join(process.cwd(), first));
  return (path ?? '').split(delimiter).some((dir) => dir && ok(join(dir, first)));
}

/**
 * Routes an IO's writes through a pager once they pass a screenful. install() takes over io.out and io.err;
 * finish() writes what is held (or ends the pager's input and waits for it to quit) and gives them back.
 */
export class Pager {
  private held: [stream: 'out' | 'err', text: string][] = [];
  private lines = 0;
  private child: ChildProcess | null = null;
  private exited: Promise<void> | null = null;
  private readonly out: IO['out'];
  private readonly err: IO['err'];

  constructor(
    private readonly io: IO,
    private readonly command: string,
    private readonly env: Record<string, string | undefined>,
  ) {
    this.out = io.out;
    this.err = io.err;
  }

  install(): void {
    this.io.out = (t) => this.write('out', t);
    this.io.ready = () => this.drained();
    // stderr joins the pager only when it is the terminal the pager shows (a redirected stderr stays as it is).
    if (this.io.stderrTTY) this.io.err = (t) => this.write('err', t);
  }

  private write(stream: 'out' | 'err', text: string): void {
    if (this.io.closed) return;
    if (this.child) {
      this.child.stdin?.write(text);
      return;
    }
    // Notes before any data need no holding: nothing is waiting to go before them.
    if (stream === 'err' && !this.held.length) return this.err(text);
    this.held.push([stream, text]);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lines++;
    if (this.lines >= this.io.rows) this.start();
  }

  private start(): void {
    const env = { ...this.env, LESS: this.env.LESS ?? 'FRX', LV: this.env.LV ?? '-c' };
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn(this.command, {
      shell: true,
      stdio: ['pipe', 'inherit', 'inherit'],
      env: env as NodeJS.ProcessEnv,
    });
    this.child = child;
    this.exited = new Promise<void>((resolve) => {
      child.once('error', () => resolve());
      child.once('close', () => resolve());
    });
    const gone = () => {
      this.io.closed = true;
    };
    // The pager quit before reading everything: a normal end, said nowhere.
    child.stdin?.on('error', gone);
    child.once('exit', gone);
    child.once('error', gone);
    for (const [, text] of this.held) child.stdin?.write(text);
    this.held = [];
  }

  /** While the pager has not read what it was given: when it has, or has gone. */
  private drained(): Promise<void> | undefined {
    const child = this.child;
    const stdin = child?.stdin;
    if (!child || !stdin?.writableNeedDrain || this.io.closed) return undefined;
    return new Promise<void>((resolve) => {
      const events = [
        [stdin, 'drain'],
        [stdin, 'error'],
        [stdin, 'close'],
        [child, 'exit'],
      ] as const;
      const done = () => {
        for (const [emitter, event] of events) emitter.off(event, done);
        resolve();
      };
      for (const [emitter, event] of events) emitter.on(event, done);
    });
  }

  /** Everything held written (or the pager's input ended and the pager quit), and io.out and io.err given back. */
  async finish(): Promise<void> {
    this.io.out = this.out;
    this.io.err = this.err;
    this.io.ready = undefined;
    if (this.child) {
      this.child.stdin?.end();
      await this.exited;
      return;
    }
    for (const [stream, text] of this.held) (stream === 'out' ? this.out : this.err)(text);
    this.held = [];
  }
}
