// `coinop local start`: runs the local service in the foreground until SIGINT or SIGTERM.
import { stopSignal } from '../stop-signal.js';
import { operations, requestIssues } from '../contract/index.js';
import type { LocalConfig } from './config.js';
import { DEMO } from '../embedded/demo.js';
import { startLocalService } from './service.js';

export const DEFAULT_LOCAL_PORT = 7357;

export interface LocalStartOptions {
  port?: number;
  host?: string;
  db?: string;
  memory?: boolean;
  seed?: number;
  /** false: answer without the hosted service's rate limits (--no-rate-limits); they are on otherwise. */
  rateLimits?: boolean;
}

/** The rate limits in one line: what the service enforces, or that it does not. */
function rateLimitsLine(config: LocalConfig['rateLimits']): string {
  if (!config.enabled) return 'off (--no-rate-limits)';
  return `on: token ${config.tokenPerSecond}/s, withdrawals ${config.withdrawalsPerSecond}/s, others ${config.otherPerSecond}/s per address over ${config.windowSeconds} s`;
}

/** `stopped`: resolves when the service is to stop (by default the first SIGINT or SIGTERM). */
export async function runLocalStart(
  opts: LocalStartOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  stopped: () => Promise<void> = stopSignal,
): Promise<void> {
  const svc = await startLocalService({
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? DEFAULT_LOCAL_PORT,
    ...(opts.memory ? { memory: true } : opts.db ? { dbFile: opts.db } : {}),
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.rateLimits === false ? { config: { rateLimits: { enabled: false } } } : {}),
  });
  io.stdout.write(
    [
      `base_url      ${svc.baseUrl}`,
      `auth_url      ${svc.authUrl}`,
      `ws_url        ${svc.wsUrl}`,
      `database      ${svc.dbFile}`,
      `seed          ${svc.seed}`,
      `client_id     ${DEMO.adminClientId} (every scope, stream allowed) or ${DEMO.readonlyClientId} (read only)`,
      `client_secret ${DEMO.clientSecret}`,
      `profile_id    ${DEMO.profileId}`,
      `memo_id       ${DEMO.memoId}`,
      `control API   ${svc.baseUrl}/_local/health (loopback only)`,
      `rate limits   ${rateLimitsLine(svc.config.rateLimits)}`,
      '',
    ].join('\n'),
  );
  io.stderr.write('local service running; press Ctrl-C to stop\n');
  // A foreground server compiles every request schema now, so the first request is as fast as the others.
  setImmediate(() => {
    for (const op of Object.values(operations)) requestIssues(op, { params: {}, query: {}, body: {} });
  });
  await stopped();
  io.stderr.write('stopping local service\n');
  await svc.close();
  io.stderr.write('stopped\n');
}
