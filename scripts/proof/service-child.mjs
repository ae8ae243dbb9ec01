// A local service in its own process for the proof scripts (load, soak): starts from the built dist/ with the
// settings given as JSON in argv[2], prints {"baseUrl", "wsUrl", "pid"} on one line, and closes on SIGTERM or SIGINT.
// The rate limits are off unless the settings have their own: the proofs drive far more than the hosted limits allow.
import { startLocalService } from '../../dist/local/service.js';

const opts = JSON.parse(process.argv[2] ?? '{}');
const config = { rateLimits: { enabled: false }, ...opts.config };
const svc = await startLocalService({ host: '127.0.0.1', port: 0, ...opts, config });
process.stdout.write(`${JSON.stringify({ baseUrl: svc.baseUrl, wsUrl: svc.wsUrl, pid: process.pid })}\n`);
const stop = async () => {
  await svc.close().catch(() => {});
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
