// The batch's progress on stderr: a redrawn bar on a terminal, a plain line every few seconds when stdout or stderr
// is piped.
import type { Ports } from '../../../cli/ports.js';
import { ProgressBar } from '../../../batch/report.js';
import { statusLineAllowed } from '../../../cli/io.js';

export function progressBar({ display, clock }: Pick<Ports, 'display' | 'clock'>): ProgressBar {
  const { io } = display;
  return new ProgressBar(io.err, io.width, () => clock.now(), !statusLineAllowed(io));
}
