// Completion scripts for bash, zsh and fish, generated from the commander tree so they never drift from it.
import type { Command } from 'commander';
import {
  ASSETS,
  CRYPTO_ASSETS,
  CRYPTO_NETWORKS,
  MARKETS,
  PRICE_INCREMENTS,
  TRANSFER_STATUSES,
  TRANSFER_SECONDARY_STATUSES,
  TRANSFER_TYPE_FILTERS,
} from '../../api/index.js';
import { METHODS } from '../api/options.js';

interface Node {
  path: string;
  subcommands: string[];
  options: string[];
  /** Values of options that take one of a known set. */
  values: Record<string, string[]>;
  /** Values of the first positional argument. */
  positional: string[];
  /** Options whose value is a file name. */
  fileOptions: string[];
  /** The first positional argument is a file name. */
  files: boolean;
}

/** A value placeholder that names a file. */
const FILE_VALUE = /<(file|path)>/;

const OPTION_VALUES: Record<string, readonly string[]> = {
  '--network': CRYPTO_NETWORKS,
  '--asset': CRYPTO_ASSETS,
  '--increment': PRICE_INCREMENTS,
  '--status': TRANSFER_STATUSES,
  '--type': TRANSFER_TYPE_FILTERS,
  '--secondary-status': TRANSFER_SECONDARY_STATUSES,
};
const POSITIONAL_VALUES: Record<string, readonly string[]> = {
  api: METHODS,
};
/** Values of a positional argument by its name: every command that takes a market completes the markets. */
const ARGUMENT_VALUES: Record<string, readonly string[]> = {
  market: MARKETS,
  markets: MARKETS,
  // coinop balances [ASSET...]: every asset a profile holds, fiat too.
  assets: Object.keys(ASSETS),
};

/** `inherited`: the options of the command's ancestors, which commander reads anywhere after them (global ones too). */
function walk(cmd: Command, path: string, inherited: Command['options'], out: Node[]): void {
  const options = path ? [...inherited, ...cmd.options] : inherited;
  const values: Record<string, string[]> = {};
  const flags: string[] = [];
  const fileOptions: string[] = [];
  for (const o of options) {
    for (const f of [o.long, o.short]) if (f) flags.push(f);
    if (o.long && FILE_VALUE.test(o.flags)) fileOptions.push(o.long);
    const choices = o.argChoices ?? (o.long ? OPTION_VALUES[o.long] : undefined);
    if (choices && o.long) {
      values[o.long] = [...choices];
      if (o.short) values[o.short] = [...choices];
    }
  }
  flags.push('--help');
  // Commands shown in help, without the help command commander adds by itself.
  const subs = cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => cmd.commands.includes(c));
  const arg = cmd.registeredArguments[0];
  out.push({
    path,
    subcommands: subs.map((c) => c.name()),
    options: [...new Set(flags)],
    values,
    positional: [
      ...(arg?.argChoices ?? POSITIONAL_VALUES[path] ?? (arg ? ARGUMENT_VALUES[arg.name()] : undefined) ?? []),
    ],
    fileOptions,
    files: arg?.name() === 'file',
  });
  // A command with positional options (withdraw) reads its own flags only before its subcommands (withdraw batch).
  const positional = positionalOptions(cmd);
  for (const c of subs) walk(c, path ? `${path} ${c.name()}` : c.name(), positional && path ? inherited : options, out);
}

/**
 * Whether enablePositionalOptions() was called on the command. Commander keeps it in a private field and has no
 * getter: this is the one place that reads it.
 */
function positionalOptions(cmd: Command): boolean {
  return !!(cmd as unknown as { _enablePositionalOptions?: boolean })._enablePositionalOptions;
}

export function commandTree(program: Command): Node[] {
  const out: Node[] = [];
  walk(program, '', program.options, out);
  return out;
}

const HEADER = '# coinop shell completion, generated from the command tree (coinop completion SHELL). Do not edit.';

/**
 * The cases of bash and zsh that complete an option's value, matched on "$path|$prev": an option whose values are the
 * same wherever it is given matches under any command, one whose values differ between commands (--network of a
 * crypto or a fiat network, --type of a transfer or of its limits) under each of its commands.
 */
function valueCases(nodes: Node[]): [pattern: string, values: string[]][] {
  const byOption = new Map<string, Map<string, string[]>>();
  for (const n of nodes)
    for (const [option, values] of Object.entries(n.values)) {
      const paths = byOption.get(option) ?? new Map<string, string[]>();
      byOption.set(option, paths.set(n.path, values));
    }
  const cases: [string, string[]][] = [];
  for (const [option, paths] of byOption) {
    const all = [...paths.values()];
    if (new Set(all.map((v) => v.join(' '))).size === 1) cases.push([`*"|${option}"`, all[0]]);
    else for (const [path, values] of paths) cases.push([`"${path}|${option}"`, values]);
  }
  return cases;
}

/** The case of bash and zsh for options whose value is a file name. */
const fileCase = (nodes: Node[]) => [...new Set(nodes.flatMap((n) => n.fileOptions))].map((o) => `*"|${o}"`).join('|');

function bash(nodes: Node[]): string {
  const paths = nodes
    .filter((n) => n.path)
    .map((n) => `"${n.path}"`)
    .join('|');
  const files = fileCase(nodes);
  const lines = [
    HEADER,
    '_coinop() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" path="" w i next',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i]}"',
    '    [[ $w == -* ]] && continue',
    '    next="${path:+$path }$w"',
    `    case "$next" in ${paths}) path="$next" ;; esac`,
    '  done',
    '  case "$path|$prev" in',
    ...valueCases(nodes).map(([k, v]) => `    ${k}) COMPREPLY=($(compgen -W "${v.join(' ')}" -- "$cur")); return ;;`),
    // No words: bash completes file names (complete -o default), as for a file argument.
    ...(files ? [`    ${files}) COMPREPLY=(); return ;;`] : []),
    '  esac',
    '  local words',
    '  if [[ $cur == -* ]]; then',
    '    case "$path" in',
    ...nodes.map((n) => `      "${n.path}") words="${n.options.join(' ')}" ;;`),
    '    esac',
    '  else',
    '    case "$path" in',
    ...nodes.map((n) => `      "${n.path}") words="${[...n.subcommands, ...n.positional].join(' ')}" ;;`),
    '    esac',
    '  fi',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    'complete -o default -F _coinop coinop',
  ];
  return `${lines.join('\n')}\n`;
}

function zsh(nodes: Node[]): string {
  const paths = nodes
    .filter((n) => n.path)
    .map((n) => `"${n.path}"`)
    .join('|');
  const files = fileCase(nodes);
  const lines = [
    '#compdef coinop',
    HEADER,
    '_coinop() {',
    '  local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}" path="" w next i',
    '  local -a cands',
    '  for ((i = 2; i < CURRENT; i++)); do',
    '    w="${words[i]}"',
    '    [[ $w == -* ]] && continue',
    '    next="${path:+$path }$w"',
    `    case "$next" in ${paths}) path="$next" ;; esac`,
    '  done',
    '  case "$path|$prev" in',
    ...valueCases(nodes).map(([k, v]) => `    ${k}) cands=(${v.join(' ')}); compadd -a cands; return ;;`),
    ...(files ? [`    ${files}) _files; return ;;`] : []),
    '  esac',
    '  if [[ $cur == -* ]]; then',
    '    case "$path" in',
    ...nodes.map((n) => `      "${n.path}") cands=(${n.options.join(' ')}) ;;`),
    '    esac',
    '  else',
    '    case "$path" in',
    ...nodes.map(
      (n) =>
        `      "${n.path}") ${n.files ? '_files; return' : `cands=(${[...n.subcommands, ...n.positional].join(' ')})`} ;;`,
    ),
    '    esac',
    '  fi',
    '  compadd -a cands',
    '}',
    'if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _coinop "$@"; else compdef _coinop coinop; fi',
  ];
  return `${lines.join('\n')}\n`;
}

function fish(nodes: Node[]): string {
  const lines = [HEADER, 'complete -c coinop -f'];
  const esc = (s: string) => s.replace(/'/g, "\\'");
  const optionLine = (n: Node, o: string, cond?: string) => {
    const v = n.values[o];
    const value = v ? ` -x -a '${v.join(' ')}'` : n.fileOptions.includes(o) ? ' -r -F' : '';
    return `complete -c coinop${cond ? ` -n '${esc(cond)}'` : ''} -l ${o.slice(2)}${value}`;
  };
  // The program's own options hold after every command: said once, without a condition.
  const root = nodes.find((n) => !n.path)!;
  const global = new Set(root.options);
  for (const o of root.options) if (o.startsWith('--')) lines.push(optionLine(root, o));
  for (const n of nodes) {
    const parts = n.path ? n.path.split(' ') : [];
    // The condition: exactly this command path has been typed, and none of its subcommands yet.
    const cond = parts.length
      ? `__fish_seen_subcommand_from ${parts[parts.length - 1]}${n.subcommands.length ? `; and not __fish_seen_subcommand_from ${n.subcommands.join(' ')}` : ''}`
      : '__fish_use_subcommand';
    const words = [...n.subcommands, ...n.positional];
    if (words.length) lines.push(`complete -c coinop -n '${esc(cond)}' -a '${words.join(' ')}'`);
    if (n.files) lines.push(`complete -c coinop -n '${esc(cond)}' -F`);
    for (const o of n.options) if (o.startsWith('--') && !global.has(o)) lines.push(optionLine(n, o, cond));
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: 'bash' | 'zsh' | 'fish', program: Command): string {
  const nodes = commandTree(program);
  return shell === 'bash' ? bash(nodes) : shell === 'zsh' ? zsh(nodes) : fish(nodes);
}
