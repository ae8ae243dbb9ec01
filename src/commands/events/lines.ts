// Records written one at a time as they happen (events watch, the deliveries of events listen): NDJSON when piped
// (and for -o json: a stream has no end to close an array at), CSV rows under one header, or a line for people on a
// terminal, with a status line under them on stderr that the next record clears.
import type { Display } from '../../cli/ports.js';
import { statusLineAllowed } from '../../cli/io.js';
import { csvRow } from '../../render/csv.js';
import { type Column, getPath } from '../../render/output.js';
import { palette } from '../../render/style.js';

export type LineFormat = 'table' | 'ndjson' | 'csv';

/** The format of a stream of records: as asked (-o json as NDJSON), else a live list on a terminal, NDJSON piped. */
export function lineFormat(display: Display): LineFormat {
  if (display.formatGiven()) {
    const f = display.format();
    return f === 'json' ? 'ndjson' : f;
  }
  return display.io.stdoutTTY ? 'table' : 'ndjson';
}

export class LineWriter {
  readonly format: LineFormat;
  private headed = false;
  private statusShown = false;

  constructor(
    private readonly display: Display,
    /** The CSV columns. */
    private readonly columns: Column[],
    /** The line for people. */
    private readonly line: (record: Record<string, unknown>) => string,
  ) {
    this.format = lineFormat(display);
  }

  write(record: Record<string, unknown>): void {
    const { io } = this.display;
    if (this.format === 'ndjson') io.out(`${JSON.stringify(record)}\n`);
    else if (this.format === 'csv') {
      if (!this.headed) io.out(csvRow(this.columns.map((c) => c.key)));
      this.headed = true;
      io.out(csvRow(this.columns.map((c) => getPath(record, c.key))));
    } else {
      this.clearStatus();
      io.out(`${this.line(record)}\n`);
    }
  }

  /** A status line on a terminal's stderr (nothing unless stderr and stdout are terminals), replaced by the next one. */
  status(text: string): void {
    if (!statusLineAllowed(this.display.io)) return;
    this.display.io.err(`\r\u001b[2K${palette(this.display.io.colourErr).dim(text)}`);
    this.statusShown = true;
  }

  /** A plain line on stderr (the status line, if any, cleared first: the next status draws it again). */
  note(text: string): void {
    this.clearStatus();
    this.display.io.err(`${text}\n`);
  }

  clearStatus(): void {
    if (!this.statusShown) return;
    this.display.io.err('\r\u001b[2K');
    this.statusShown = false;
  }
}

/** A time as a terminal line shows it: the clock time of an RFC 3339 string, to the millisecond. */
export const clockTime = (iso: unknown) => (typeof iso === 'string' ? iso.slice(11, 23) : '-');
