// coinop local deposit: money arrives at a deposit address of the local service (its control API), as a PENDING
// CRYPTO_DEPOSIT transfer that the service completes and credits on its clock.
import type { Transfer } from '../../contract/index.js';
import type { Ports } from '../../cli/ports.js';
import { CoinopError } from '../../cli/errors.js';
import { need } from '../../cli/prompt.js';
import { amountRule } from '../../cli/ask.js';
import { issueMessage, type FlagNames } from '../../client/service-client.js';
import { isLocalServiceId } from '../../client/service-identity.js';
import { TRANSFER_COLUMNS } from '../../render/columns.js';
import type { RawFlags } from '../../cli/options.js';
import type { LocalDepositOptions } from './options.js';

/** coinop local start: the service in the foreground until Ctrl-C; a port in use is named, with the flag to change it. */
export async function start(deps: Pick<Ports, 'display' | 'service' | 'foreground'>, raw: RawFlags): Promise<void> {
  const [{ parseLocalStartOptions }, { runLocalStart, DEFAULT_LOCAL_PORT }, { defaultDbFile }] = await Promise.all([
    import('./options.js'),
    import('../../local/cli.js'),
    import('../../local/paths.js'),
  ]);
  const o = parseLocalStartOptions(raw);
  // runLocalStart stops the service cleanly on SIGINT/SIGTERM and resolves; exit 0, not cancelled.
  deps.foreground.own();
  try {
    await runLocalStart(
      { ...o, db: o.db ?? defaultDbFile(deps.service.dataDir()) },
      { stdout: deps.display.io.stdout, stderr: deps.display.io.stderr },
      () => deps.foreground.stopped(),
    );
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw e;
    const port = o.port ?? DEFAULT_LOCAL_PORT;
    const where = `${o.host ?? '127.0.0.1'}:${port}`;
    throw new CoinopError(
      'usage',
      code === 'EADDRINUSE'
        ? `--port: ${where} is in use already (another coinop local start, or another program); nothing was started`
        : `--port: ${where} may not be opened by this user; nothing was started`,
      { hint: `choose another port: --port ${port === 65535 ? 7358 : port + 1}, or --port 0 for any free one` },
    );
  }
}

const FLAGS: FlagNames = { address: '--address', ref_id: '--ref-id', amount: '--amount', asset: '--asset' };

export async function deposit(
  deps: Pick<Ports, 'display' | 'service' | 'prompter'>,
  options: LocalDepositOptions,
): Promise<void> {
  const context = deps.service.context();
  if (context.environment !== 'local') {
    throw new CoinopError(
      'usage',
      `local deposit: only the local service takes it (context "${context.name}" is ${context.environment})`,
      {
        hint: 'use the local context: --context local',
      },
    );
  }
  const pr = deps.prompter;
  const target =
    options.refId !== undefined
      ? { ref_id: options.refId }
      : { address: await need(pr, '--address (or --ref-id)', options.address, () => pr.text('Deposit address')) };
  const amount = await need(pr, '--amount', options.amount, () =>
    pr.text(`Amount${options.asset ? ` of ${options.asset}` : ''}`, { validate: amountRule(options.asset) }),
  );
  const conn = await deps.service.connect();
  if (!isLocalServiceId(conn.serviceId))
    throw new CoinopError('usage', `local deposit: ${conn.context.baseUrl} is not a local service (no control API)`);
  const body = {
    ...target,
    amount,
    ...(options.asset !== undefined ? { asset: options.asset } : {}),
    ...(options.needsInfo ? { needs_info: true } : {}),
  };
  let t: Transfer;
  try {
    t = await conn.client.control<Transfer>('POST', '/_local/crypto-deposits', body);
  } catch (e) {
    // The service refused the values (nothing was recorded): bad input, named by its flag.
    const p = e instanceof CoinopError ? e.problem : undefined;
    const issues = (p?.meta as { issues?: { field: string; rule: string }[] } | undefined)?.issues;
    if (p?.status === 400 && issues?.length) throw new CoinopError('usage', issueMessage(issues, FLAGS));
    throw e;
  }
  const out = deps.display.output();
  out.one(t, TRANSFER_COLUMNS);
  if (out.forPeople)
    out.note(
      out.p.dim(
        options.needsInfo
          ? `${t.amount} ${t.asset} arriving at ${t.destination_address}: held for its originator (answer it: coinop deposits update ${t.id}, or coinop deposits reject ${t.id})`
          : `${t.amount} ${t.asset} arriving at ${t.destination_address}: PENDING until the local service confirms it` +
              ` (follow it: coinop transfers watch ${t.id})`,
      ),
    );
}
