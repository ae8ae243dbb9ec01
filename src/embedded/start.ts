// The embedded default: when nothing listens at the `local` context's address, the local service is started in
// this process over the default database, used for the one command, and stopped on exit. The client decides when
// (src/client/service-identity.ts) and the CLI hands it this function: the client never starts a server itself.

export interface EmbeddedService {
  baseUrl: string;
  authUrl: string;
  wsUrl: string;
  dbFile: string;
  /** Its database's instance id, read in this process. */
  instanceId(): string;
  close(): Promise<void>;
}

/** Starts the local service in this process over the default database in `dataDir` (handed to the client by the CLI). */
export type StartEmbedded = (dataDir: string) => Promise<EmbeddedService>;

/** `dataDir`: coinop's data directory (Settings.dataDir), where the default database lives. */
export async function startEmbedded(dataDir: string): Promise<EmbeddedService> {
  const [{ startLocalService }, { defaultDbFile }] = await Promise.all([
    import('../local/service.js'),
    import('../local/paths.js'),
  ]);
  const dbFile = defaultDbFile(dataDir);
  let svc: Awaited<ReturnType<typeof startLocalService>>;
  try {
    svc = await startLocalService({ host: '127.0.0.1', port: 0, dbFile });
  } catch (e) {
    const err = e as { code?: unknown; message?: string };
    // SQLite refuses a damaged file (not a database, malformed, truncated): say which file and how to go on.
    if (typeof err.code === 'string' && err.code.startsWith('SQLITE_')) {
      const { CoinopError } = await import('../errors.js');
      throw new CoinopError('file', `the local service's database ${dbFile} is damaged (${err.message ?? err.code})`, {
        hint: `move it aside: mv '${dbFile}' '${dbFile}.damaged' (the next command starts a fresh one with the demo data)`,
      });
    }
    throw e;
  }
  return {
    baseUrl: svc.baseUrl,
    authUrl: svc.authUrl,
    wsUrl: svc.wsUrl,
    dbFile,
    instanceId: () => svc.instanceId(),
    close: () => svc.close(),
  };
}
