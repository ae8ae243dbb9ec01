// A file of the batch could not be written (a full disk, an I/O error, a read-only file system): names the file.

export class WriteError extends Error {
  /** What was being written, for people: "batch journal", "record of sent ref_ids". */
  readonly what: string;
  readonly path: string;
  /** The system's reason, short ("the disk is full", "disk I/O error (SQLITE_IOERR_WRITE)"). */
  readonly reason: string;

  constructor(what: string, path: string, cause: unknown) {
    const reason = reasonOf(cause);
    super(`cannot write the ${what} ${path} (${reason})`);
    this.name = 'WriteError';
    this.what = what;
    this.path = path;
    this.reason = reason;
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof WriteError) return error.reason;
  const err = error as { code?: string; message?: string };
  const code = typeof err?.code === 'string' ? err.code : '';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return `the disk is full (${code})`;
  const msg = err?.message ?? String(error);
  return code && !msg.includes(code) ? `${msg} (${code})` : msg;
}
