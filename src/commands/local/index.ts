// coinop local start: runs the local service in the foreground (src/local/cli.ts).
import { Command, Option } from 'commander';
import type { CliContext } from '../../cli/context.js';
import { intFlag } from '../../cli/options.js';
import { examples } from '../../cli/program.js';

export function register(program: Command, ctx: CliContext): void {
  const local = examples(program.command('local').description('the local service: a faithful, stateful stand-in for the hosted one'), ['coinop local start']);
  examples(
    local
      .command('start')
      .description('run the local service until Ctrl-C (the local profile points at port 7357)')
      .option('--port <port>', 'port (0 = any free port)', '7357')
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--db <file>', 'database file (default: in the XDG data directory)')
      .option('--memory', 'keep state in memory only')
      .addOption(new Option('--seed <n>', 'seed of prices and faults'))
      .action(async (opts: { port: string; host: string; db?: string; memory?: boolean; seed?: string }) => {
        const port = intFlag('--port', opts.port, 0, 65535);
        const seed = intFlag('--seed', opts.seed, 0, 2 ** 31 - 1);
        const { runLocalStart } = await import('../../local/cli.js');
        // runLocalStart stops the service cleanly on SIGINT/SIGTERM and resolves; exit 0, not cancelled.
        ctx.ownSignals = true;
        await runLocalStart({ port, host: opts.host, db: opts.db, memory: opts.memory, seed }, { stdout: ctx.io.stdout, stderr: ctx.io.stderr });
      }),
    ['coinop local start', 'coinop local start --port 0 --memory --seed 42'],
  );
}
