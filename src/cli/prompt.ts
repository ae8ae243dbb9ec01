// Asking the operator (inquirer on stderr): only when a person can answer; otherwise a missing value is a
// usage error that names the flag.
import type { IO } from './io.js';
import { cancelled, usageError } from './errors.js';

export interface Choice<T extends string = string> {
  value: T;
  name?: string;
  description?: string;
}

type Validate = (v: string) => true | string;

export class Prompter {
  /** The flag that said nothing is to be asked though a person could answer (--yes), once it is given. */
  private refusedBy?: string;

  constructor(private readonly io: IO) {}

  /**
   * Whether anything may be asked: a person can answer (a terminal, no --no-input) and no --yes was given. Every
   * value asked for (need(), askTarget, the confirmation) goes through here: with --yes or --no-input a missing or
   * refused value is a usage error, never a picker whose preselected answer one Enter would send (issue 23).
   */
  get allowed(): boolean {
    return this.io.canPrompt && this.refusedBy === undefined;
  }

  /** Nothing is to be asked from here on (`flag` says why: --yes); a missing value is a usage error naming its flag. */
  askNothing(flag: string): void {
    this.refusedBy = flag;
  }

  /**
   * How to go on without being asked, fit to why nothing is: `give` (the flag or the value), then what --yes or
   * --no-input said, or (off a terminal) that a terminal would ask; `asked`: what a terminal would do ("pick one").
   */
  hint(give: string, asked = 'be asked'): string {
    if (this.refusedBy !== undefined) return `give ${give} (with ${this.refusedBy} nothing is asked)`;
    if (this.io.stdinTTY && this.io.stderrTTY)
      return `give ${give} (with --no-input or COINOP_NO_INPUT nothing is asked)`;
    return `give ${give}, or run on a terminal to ${asked}`;
  }

  private get context() {
    return { input: this.io.stdin as NodeJS.ReadableStream, output: this.io.stderr as NodeJS.WritableStream };
  }

  async text(
    message: string,
    opts: { default?: string; validate?: Validate; required?: boolean } = {},
  ): Promise<string> {
    const { input } = await import('@inquirer/prompts');
    const required = opts.required ?? true;
    return input(
      {
        message,
        default: opts.default,
        required,
        validate: (value: string) => {
          if (!required && value === '') return true;
          if (required && !value.trim()) return 'a value is required';
          return opts.validate ? opts.validate(value.trim()) : true;
        },
      },
      this.context,
    )
      .then((v) => v.trim())
      .catch(cancelOnExit);
  }

  /** A masked answer; `optional`: an empty one is taken (the caller keeps what it had). */
  async secret(message: string, opts: { optional?: boolean } = {}): Promise<string> {
    const { password } = await import('@inquirer/prompts');
    return password(
      { message, mask: '*', validate: (v: string) => (v || opts.optional ? true : 'a value is required') },
      this.context,
    ).catch(cancelOnExit);
  }

  async select<T extends string>(message: string, choices: (Choice<T> | T)[], def?: T): Promise<T> {
    const { select } = await import('@inquirer/prompts');
    const list = choices.map((c) => (typeof c === 'string' ? { value: c, name: c } : { name: c.value, ...c }));
    return select<T>({ message, choices: list, default: def, pageSize: 12 }, this.context).catch(cancelOnExit);
  }

  /** A type-ahead picker: `source` gives the choices for what is typed so far (undefined before anything is). */
  async search<T extends string>(
    message: string,
    source: (term: string | undefined) => Promise<Choice<T>[]>,
  ): Promise<T> {
    const { search } = await import('@inquirer/prompts');
    return search<T>(
      {
        message,
        pageSize: 12,
        source: async (term) =>
          (await source(term?.trim() || undefined)).map((c) => ({ name: c.name ?? c.value, ...c })),
      },
      this.context,
    ).catch(cancelOnExit);
  }

  async multi<T extends string>(message: string, choices: (Choice<T> | T)[], checked: T[] = []): Promise<T[]> {
    const { checkbox } = await import('@inquirer/prompts');
    const list = choices.map((choice) => {
      const o = typeof choice === 'string' ? { value: choice, name: choice } : { name: choice.value, ...choice };
      return { ...o, checked: checked.includes(o.value) };
    });
    return checkbox<T>({ message, choices: list, pageSize: 12 }, this.context).catch(cancelOnExit);
  }

  async confirm(message: string, def = false): Promise<boolean> {
    const { confirm } = await import('@inquirer/prompts');
    return confirm({ message, default: def }, this.context).catch(cancelOnExit);
  }

  /**
   * A yes/no that must be answered before `deadline` (ms since the epoch by `now`): 'expired' when it was not. Where
   * the terminal takes colour (so not with NO_COLOR or TERM=dumb) the time left is counted down on a line under the
   * question; otherwise it is said once, after the question, and nothing is drawn again.
   */
  async confirmBefore(
    message: string,
    timer: { deadline: number; now: () => number; countdown: (seconds: number) => string },
  ): Promise<boolean | 'expired'> {
    const left = Math.max(0, Math.ceil((timer.deadline - timer.now()) / 1000));
    if (this.io.colourErr) {
      const { countdownConfirm } = await import('./countdown.js');
      return countdownConfirm(
        { message, ...timer, left: timer.countdown, expiredText: '(no answer in time)' },
        { ...this.context, clearPromptOnDone: false },
      ).catch(cancelOnExit);
    }
    const { confirm } = await import('@inquirer/prompts');
    const signal = AbortSignal.timeout(Math.max(0, timer.deadline - timer.now()));
    try {
      return await confirm(
        { message: `${message} (${timer.countdown(left)})`, default: false },
        { ...this.context, signal, clearPromptOnDone: false },
      );
    } catch (e) {
      if (signal.aborted) return 'expired';
      return cancelOnExit(e);
    }
  }
}

/** Ctrl-C or an aborted prompt (inquirer's own errors) is the operator cancelling. */
async function cancelOnExit(error: unknown): Promise<never> {
  const { AbortPromptError, ExitPromptError } = await import('@inquirer/core');
  if (error instanceof ExitPromptError || error instanceof AbortPromptError) throw cancelled();
  throw error;
}

/**
 * A required value: the flag's value when given, else the operator's answer on a terminal, else a usage error
 * naming the flag and, where the values are few and known, them (`missing --network: DOGE moves on DOGECOIN`).
 */
export async function need<T extends string>(
  prompter: Prompter,
  flag: string,
  value: T | undefined,
  ask: () => Promise<T>,
  valid?: string,
): Promise<T> {
  if (value !== undefined && value !== '') return value;
  if (!prompter.allowed) throw usageError(`missing ${flag}${valid ? `: ${valid}` : ''}`, prompter.hint(flag));
  return ask();
}
