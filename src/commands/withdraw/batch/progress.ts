// The batch's progress on stderr: a redrawn bar on a terminal, a plain line every few seconds when piped.
import type { Invocation } from '../../../cli/invocation.js';
import { ProgressBar } from '../../../batch/report.js';

export function progressBar(ctx: Invocation): ProgressBar {
  return new ProgressBar(ctx.io.err, ctx.io.width, ctx.now, !ctx.io.stderrTTY);
}
