// coinop doctor: checks the setup and says how to fix each problem; the work is in run.ts and checks.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ports } from '../../cli/ports.js';
import { DOCTOR_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    DOCTOR_FLAG_TABLE.declare(program.command('doctor'))
      .description(
        "check the setup: file permissions, each saved context's endpoints, token and clock, completion, policy files",
      )
      .addHelpText(
        'after',
        '\nOne line per check (ok, warn or fail) with the fix for each problem. Exit 0 when no check fails, 1 when one does.\n',
      )
      .action(async (_o: unknown, command: Command) => {
        const { parseDoctorOptions } = await import('./options.js');
        await (await import('./run.js')).doctor(ports(ctx), parseDoctorOptions(command.opts()));
      }),
    ['coinop doctor', 'coinop doctor -o json', 'coinop doctor --context sandbox'],
  );
}
