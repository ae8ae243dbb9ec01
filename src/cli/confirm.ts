// The confirmation before money moves: a summary of what will be sent, then an explicit yes (in production, the
// amount typed out). --no-input never stands in for --yes: without a terminal production refuses unless --yes was
// given, and on a terminal --no-input without --yes refuses in every environment.
import { dec, isAmountString } from '../contract/money.js';
import { CoinopError, cancelled } from './errors.js';
import type { IO } from './io.js';
import type { Prompter } from './prompt.js';
import { keyValueLines } from '../render/key-value.js';
import { palette } from '../render/style.js';

export interface ConfirmOptions {
  title: string;
  rows: [label: string, value: string | undefined][];
  /** Lines shown under the summary, before the question (a table of what is signed or sent). */
  table?: string[];
  environment: string;
  yes: boolean;
  question?: string;
  /** In production the operator types each of these (an amount; a batch's row count and totals) instead of y. */
  typed?: { label: string; value: string }[];
  /** The answer must come before this (ms since the epoch: a fee quote's expiry), or confirm() says 'expired'. */
  deadline?: number;
  now?: () => number;
  /**
   * With a deadline, the time left in words ("fee guaranteed for 0:42"): counted down under the question on a
   * terminal that takes colour and cursor moves, said once after the question otherwise (NO_COLOR, TERM=dumb).
   */
  countdown?: (seconds: number) => string;
}

const refuse = (message: string) =>
  new CoinopError('usage', message, { hint: 'add --yes once you have checked the values' });

/** What was typed is the value: the same number for an amount (0.50 is 0.5), else the same text. */
function sameValue(typed: string, value: string): boolean {
  const t = typed.trim().replace(/\s+[A-Za-z]+$/, '');
  if (isAmountString(t) && isAmountString(value)) return dec(t).eq(dec(value));
  return t === value;
}

export function summaryText(io: IO, options: Pick<ConfirmOptions, 'title' | 'rows' | 'environment' | 'table'>): string {
  const p = palette(io.colourErr);
  const rows = options.rows.filter(([, v]) => v !== undefined && v !== '') as [string, string][];
  const env = options.environment === 'production' ? p.red(p.bold('PRODUCTION')) : p.bold(options.environment);
  return `${[`${p.bold(options.title)} (${env})`, ...keyValueLines(rows, p, '  '), ...(options.table ?? [])].join('\n')}\n`;
}

/**
 * Asks; 'expired' when a deadline passed before the answer (the caller renews what expired and asks again).
 * Refusing or cancelling throws.
 */
export async function confirmAction(
  io: IO,
  prompter: Prompter,
  options: ConfirmOptions,
): Promise<'confirmed' | 'expired'> {
  if (options.yes) return 'confirmed';
  const production = options.environment === 'production';
  if (!prompter.allowed) {
    const terminal = io.stdinTTY && io.stderrTTY;
    if (production && !terminal) throw refuse('refusing to move money in production without a terminal to confirm on');
    if (terminal) throw refuse('refusing to send: --no-input confirms nothing, and --yes was not given');
    return 'confirmed';
  }
  io.err(summaryText(io, options));
  if (production && options.typed?.length) {
    for (const t of options.typed) {
      const v = await prompter.text(`PRODUCTION: type ${t.label} to send it (anything else cancels)`, {
        required: false,
      });
      if (!sameValue(v, t.value)) throw cancelled(`cancelled: that is not ${t.label} (${t.value}); nothing was sent`);
    }
    return 'confirmed';
  }
  const question = options.question ?? 'Send it?';
  const ok =
    options.deadline === undefined
      ? await prompter.confirm(question, false)
      : await prompter.confirmBefore(question, {
          deadline: options.deadline,
          now: options.now ?? Date.now,
          countdown: options.countdown ?? ((s) => `${s} s left`),
        });
  if (ok === 'expired') return 'expired';
  if (!ok) throw cancelled('cancelled: nothing was sent');
  return 'confirmed';
}
