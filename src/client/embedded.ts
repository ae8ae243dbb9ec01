// The embedded default: when the `local` profile's address does not answer, the local service is started in
// this process over the default database, used for the one command, and stopped on exit.
import { request } from 'node:http';
import type { ResolvedProfile } from '../config/profile.js';

/** True when something answers GET /_local/health at the address within the timeout. */
export function probeHealth(baseUrl: string, timeoutMs = 400): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (ok: boolean) => {
      if (!done) {
        done = true;
        resolve(ok);
      }
    };
    try {
      const req = request(`${baseUrl}/_local/health`, { method: 'GET', timeout: timeoutMs, agent: false }, (res) => {
        res.resume();
        finish((res.statusCode ?? 500) < 500);
      });
      req.on('timeout', () => {
        req.destroy();
        finish(false);
      });
      req.on('error', () => finish(false));
      req.end();
    } catch {
      finish(false);
    }
  });
}

export interface EmbeddedService {
  baseUrl: string;
  authUrl: string;
  wsUrl: string;
  dbFile: string;
  close(): Promise<void>;
}

export async function startEmbedded(env: Record<string, string | undefined>): Promise<EmbeddedService> {
  const [{ startLocalService }, { defaultDbFile }] = await Promise.all([import('../local/service.js'), import('../local/paths.js')]);
  const dbFile = defaultDbFile(env as NodeJS.ProcessEnv);
  let svc;
  try {
    svc = await startLocalService({ host: '127.0.0.1', port: 0, dbFile });
  } catch (e) {
    const err = e as { code?: unknown; message?: string };
    // SQLite refuses a damaged file (not a database, malformed, truncated): say which file and how to go on.
    if (typeof err.code === 'string' && err.code.startsWith('SQLITE_')) {
      const { CliError } = await import('../cli/errors.js');
      throw new CliError('file', `the local service's database ${dbFile} is damaged (${err.message ?? err.code})`, {
        hint: `move it aside: mv '${dbFile}' '${dbFile}.damaged' (the next command starts a fresh one with the demo data)`,
      });
    }
    throw e;
  }
  return { baseUrl: svc.baseUrl, authUrl: svc.authUrl, wsUrl: svc.wsUrl, dbFile, close: () => svc.close() };
}

/** Whether this profile should fall back to an in-process local service when its address is silent. */
export function embeddable(p: ResolvedProfile): boolean {
  return p.environment === 'local' && !p.overridden && /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(p.baseUrl);
}
