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
  if (cmd.commands.length) {
    cmd.on('command:*', (operands: string[]) => {
      throw new UnknownCommandError([...pathOf(cmd), operands[0]]);
    });
    if (actsItself(cmd)) refuseExtraWords(cmd);
  }
  for (const c of cmd.commands) refuseUnknownCommands(c);
}

/** A command with subcommands that also runs itself (`withdraw`, beside `withdraw batch`), its arguments not variadic. */
function actsItself(cmd: Command): boolean {
  const action = (cmd as unknown as { _actionHandler?: unknown })._actionHandler;
  return !!action && !cmd.registeredArguments.at(-1)?.variadic;
}

/**
 * A word past such a command's own arguments is a subcommand mistyped (`withdraw bach`), not an extra argument: it is
 * refused as an unknown command, so it gets the suggestion (`withdraw batch`) rather than commander's "too many
 * arguments".
 */
function refuseExtraWords(cmd: Command): void {
  cmd.allowExcessArguments(true);
  cmd.hook('preAction', (_self, acting) => {
    if (acting !== cmd || cmd.args.length <= cmd.registeredArguments.length) return;
    throw new UnknownCommandError([...pathOf(cmd), cmd.args[cmd.registeredArguments.length]]);
  });
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
  // Never the command the unknown word was typed under (`withdraw zzz` is not `withdraw`).
  const under = typed.slice(0, -1).join(' ');
  const paths = commandPaths(program)
    .map((p) => p.join(' '))
    .filter((p) => p !== under);
  const whole = closeNames(typed.join(' '), paths);
  if (whole.length || typed.length !== 1) return whole;
  const word = comparable(typed[0]);
  const byLeaf = paths.filter((p) => p.includes(' ') && comparable(p.slice(p.lastIndexOf(' ') + 1)) === word);
  return byLeaf.length <= 3 ? byLeaf : [];
}
