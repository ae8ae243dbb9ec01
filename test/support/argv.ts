// Test support for the options tests: a command's flags parsed from a real argv by its own declarations (its flag
// table), as commander hands them to the action; in process, nothing printed.
import { Command } from 'commander';
import type { RawFlags } from '../../src/cli/options.js';

/** What declares a command's flags: its flag table, or a function adding them (and shared ones) to a command. */
export type Declares = { declare(cmd: Command): Command } | ((cmd: Command) => Command);

/**
 * The flag values commander gives the action of a command declared by `declares`, for `argv` (the words after the
 * command's name, arguments included). A commander error (an unknown flag, a missing value) is thrown.
 */
export function parseArgv(declares: Declares, argv: readonly string[]): RawFlags {
  const cmd = new Command('coinop-test')
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {} })
    .allowExcessArguments(true);
  const declared = typeof declares === 'function' ? declares(cmd) : declares.declare(cmd);
  let flags: RawFlags | undefined;
  declared.action((...args: unknown[]) => {
    flags = (args.at(-1) as Command).opts();
  });
  declared.parse([...argv], { from: 'user' });
  if (!flags) throw new Error('the command did not run');
  return flags;
}
