// The confirmation before money moves: a summary of what will be sent, then an explicit yes. Without a terminal
// production refuses unless --yes was given.
import { CliError, cancelled } from './errors.js';
import type { IO } from './io.js';
import type { Prompter } from './prompt.js';
import { palette } from '../render/style.js';

export interface ConfirmOptions {
  title: string;
  rows: [label: string, value: string | undefined][];
  environment: string;
  yes: boolean;
  question?: string;
}

export function summaryText(io: IO, o: Pick<ConfirmOptions, 'title' | 'rows' | 'environment'>): string {
  const p = palette(io.colourErr);
  const rows = o.rows.filter(([, v]) => v !== undefined && v !== '') as [string, string][];
  const w = Math.max(...rows.map(([k]) => k.length));
  const env = o.environment === 'production' ? p.red(p.bold('PRODUCTION')) : p.bold(o.environment);
  return [`${p.bold(o.title)} (${env})`, ...rows.map(([k, v]) => `  ${p.dim(k.padEnd(w))}  ${v}`)].join('\n') + '\n';
}

export async function confirmAction(io: IO, prompter: Prompter, o: ConfirmOptions): Promise<void> {
  if (o.yes) return;
  if (!prompter.allowed) {
    if (o.environment === 'production') {
      throw new CliError('usage', 'refusing to move money in production without a terminal to confirm on', { hint: 'add --yes once you have checked the values' });
    }
    return;
  }
  io.err(summaryText(io, o));
  const ok = await prompter.confirm(o.question ?? 'Send it?', false);
  if (!ok) throw cancelled('cancelled: nothing was sent');
}
