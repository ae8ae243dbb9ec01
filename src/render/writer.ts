// What rendering writes through: data to stdout, notes to stderr, and the terminal facts a format depends on.
// The CLI's IO (src/cli/io.ts) is one; tests can pass their own.

export interface Writer {
  /** Data (stdout). */
  out(text: string): void;
  /** Everything else (stderr). */
  err(text: string): void;
  /** stdout is a terminal: relative times, tables fitted to its width. */
  stdoutTTY: boolean;
  /** Colour escapes are allowed on stdout. */
  colour: boolean;
  /** Terminal width for tables (80 when unknown). */
  width: number;
  /** Terminal height: on a terminal a list's first rows are written once there are a screenful. */
  rows?: number;
  /** The reader of stdout went away (a pager quit early): a list stops fetching and writing. */
  readonly closed?: boolean;
  /**
   * When the reader is behind (a pager showing its first screen), a promise of the moment it takes more: a list waits
   * for it before fetching its next page, so a long list is fetched as it is read. Undefined: go on.
   */
  ready?(): Promise<void> | undefined;
}
