// An unknown command, with the command it most likely meant from the whole tree, across groups: `coinop transfer list`
// is `transfers list`, `coinop withdraw-batch` is `withdraw batch`, `coinop batch` (a subcommand typed at the top) is
// `withdraw batch`. Commander's own suggestion looks only among one command's subcommands.
import type { Command } from 'commander';
import { closeNames, comparable } from '../contract/suggest.js';
import { CoinopError } from './errors.js';

/** A command line naming no command: the words typed as the command's path, the last one the unknown word. */
export class UnknownCommandError extends CoinopError {
  readonly typed: string[];
  constructor(typed: string[]) {
    super('usage', `unknown command '${typed.join(' ')}'`);
    this.typed = typed;
  }
}

/** The path of a command below the program ("transfers list"). */
function pathOf(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

/**
 * Every command with subcommands of the tree refuses a word that names none of them with an UnknownCommandError
 * (commander's `command:*` event, emitted where it would say "unknown command").
 */
export function refuseUnknownCommands(cmd: Command): void {
  if (cmd.commands.length)
    cmd.on('command:*', (operands: string[]) => {
      throw new UnknownCommandError([...pathOf(cmd), operands[0]]);
    });
  for (const c of cmd.commands) refuseUnknownCommands(c);
}

/** Every visible command's path in the tree ("withdraw", "withdraw batch", ...), in help order. */
export function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => cmd.commands.includes(c))
    .flatMap((c) => [[...prefix, c.name()], ...commandPaths(c, [...prefix, c.name()])]);
}

/**
 * The commands closest to what was typed: the whole path (`transfer list` → `transfers list`, `withdraw-batch` →
 * `withdraw batch`), else a subcommand's own name typed alone at the top (`batch` → `withdraw batch`).
 */
export function commandSuggestions(program: Command, typed: string[]): string[] {
  const paths = commandPaths(program).map((p) => p.join(' '));
  const whole = closeNames(typed.join(' '), paths);
  if (whole.length || typed.length !== 1) return whole;
  const word = comparable(typed[0]);
  const byLeaf = paths.filter((p) => p.includes(' ') && comparable(p.slice(p.lastIndexOf(' ') + 1)) === word);
  return byLeaf.length <= 3 ? byLeaf : [];
}
