// A lock file around read-modify-write of the store (and appends to the audit log), so two coinop processes at once
// never lose or tear a write.
import {
  closeSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  renameSync,
  chmodSync,
  utimesSync,
} from 'node:fs';

const STALE_MS = 10_000;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The lock was held by another process for longer than the caller would wait. */
export class LockTimeoutError extends Error {
  constructor(readonly lockFile: string) {
    super(`the configuration is locked by another coinop process (${lockFile})`);
    this.name = 'LockTimeoutError';
  }
}

/** Whether the lock's holder, by the pid it wrote, is a process that no longer runs (a lock just made has no pid yet). */
function holderGone(lockFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lockFile, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export async function withLock<T>(lockFile: string, fn: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        // A crashed holder leaves its lock behind: taken over at once when its pid is gone, else after a while.
        if (holderGone(lockFile) || Date.now() - statSync(lockFile).mtimeMs > STALE_MS)
          rmSync(lockFile, { force: true });
      } catch {
        /* gone in between: try again */
      }
      if (Date.now() - start > timeoutMs) throw new LockTimeoutError(lockFile);
      await sleep(5 + Math.random() * 20);
    }
  }
  // Renewed while the holder runs (the gate holds it across requests to the service, which may take longer than the
  // stale time): a live holder's lock is never taken over for its age.
  const beat = setInterval(() => {
    try {
      const t = new Date();
      utimesSync(lockFile, t, t);
    } catch {
      /* gone: nothing to renew */
    }
  }, STALE_MS / 5);
  beat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(beat);
    rmSync(lockFile, { force: true });
  }
}

/** Writes a file whole or not at all (temporary file and rename), readable only by the owner. */
export function writeFileAtomic(file: string, data: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, file);
}
