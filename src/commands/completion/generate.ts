// Completion scripts for bash, zsh and fish, generated from the commander tree so they never drift from it.
//
// Each script finds the command typed so far the same way: it walks the words, skips each option and the value of an
// option that takes one (so `coinop --context local withdraw` is the withdraw command, not `local`), and keeps the
// words that name a command. zsh and fish show each command's and option's description. Values come from the contract
// (enumerations, markets), from the catalogue (the networks of the --asset given), or from coinop itself at the moment
// of completing (`coinop __complete contexts`: the saved contexts, read from the configuration, no service started).
import type { Command, Option } from 'commander';
import {
  ASSETS,
  CRYPTO_ASSETS,
  CRYPTO_NETWORKS,
  MARKETS,
  networksForAsset,
  PRICE_INCREMENTS,
} from '../../contract/index.js';
import { HTTP_METHODS } from '../../contract/enums.js';
import { offeredValues } from '../../cli/flags.js';

interface Opt {
  long?: string;
  short?: string;
  description: string;
  /** Takes a value (`--asset <asset>`): the word after it is its value, never a command. */
  value: boolean;
  /** Not offered (an old name kept working), but its value is still skipped. */
  hidden: boolean;
}

interface Node {
  path: string;
  subcommands: { name: string; description: string }[];
  /** Its own options and those it inherits (the program's, and a group's where commander reads them). */
  options: Opt[];
  /** Values of options that take one of a known set, by flag (long and short). */
  values: Record<string, string[]>;
  /** Values of the first positional argument. */
  positional: string[];
  /** Options whose value is a file name. */
  fileOptions: string[];
  /** The first positional argument is a file name. */
  files: boolean;
  /** --network lists the networks of the --asset given (a withdrawal's or a fee quote's). */
  assetNetworks: boolean;
}

/** A value placeholder that names a file. */
const FILE_VALUE = /<(file|path)>/;

/**
 * Values of the flags that mean the same on every command that has them, when the flag declares no values of its own
 * (choices, or its spec's `values`: src/cli/flags.ts). A flag whose values differ by command (--type, --status)
 * declares them where it is declared.
 */
const OPTION_VALUES: Record<string, readonly string[]> = {
  '--network': CRYPTO_NETWORKS,
  '--asset': CRYPTO_ASSETS,
  '--increment': PRICE_INCREMENTS,
};
const POSITIONAL_VALUES: Record<string, readonly string[]> = {
  api: HTTP_METHODS,
};
/** Values of a positional argument by its name: every command that takes a market completes the markets. */
const ARGUMENT_VALUES: Record<string, readonly string[]> = {
  market: MARKETS,
  markets: MARKETS,
  // coinop balances [ASSET...]: every asset a profile holds, fiat too.
  assets: Object.keys(ASSETS),
};
/**
 * Options whose values coinop says when asked (`coinop __complete KIND`, src/commands/completion/run.ts, from this
 * machine only): by flag, the kind asked for, and the commands whose flag it is (all that have the flag when none are
 * named). A new completer is a line here and its KIND there.
 */
export const COMPLETERS: Record<string, { kind: string; commands?: readonly string[] }> = {
  '--context': { kind: 'contexts' },
  // The old name of --context: hidden from help and completion, its value still completed.
  '--profile': { kind: 'contexts' },
  // The address book's nicknames (withdraw --to NICKNAME), as this context's commands last saw them.
  '--to': { kind: 'destinations', commands: ['withdraw'] },
  // The service's profiles' nicknames, as this context last listed them (transfer paxos credits another customer's).
  '--profile-id': { kind: 'service-profiles' },
  '--from-profile-id': { kind: 'service-profiles' },
  '--to-profile-id': { kind: 'service-profiles', commands: ['transfer internal'] },
  '--recipient-profile-id': { kind: 'service-profiles' },
};

/** The kind of `coinop __complete` that completes `flag`'s value under the command at `path`, if any. */
function completerOf(flag: string | undefined, path: string): string | undefined {
  const c = flag && Object.hasOwn(COMPLETERS, flag) ? COMPLETERS[flag] : undefined;
  return c && (!c.commands || c.commands.includes(path)) ? c.kind : undefined;
}

/** A description in one short line: its first clause. */
const summary = (s: string) => s.replace(/\s+/g, ' ').split(/[;(]/)[0].trim();

function opt(option: Option): Opt {
  const value = option.required || option.optional;
  return {
    long: option.long,
    short: option.short,
    description: summary(option.description),
    value,
    hidden: option.hidden,
  };
}

/** `inherited`: the options of the command's ancestors, which commander reads anywhere after them (global ones too). */
function walk(cmd: Command, path: string, inherited: readonly Option[], out: Node[]): void {
  const options = path ? [...inherited, ...cmd.options] : [...inherited];
  const values: Record<string, string[]> = {};
  const fileOptions: string[] = [];
  for (const o of options) {
    if (o.long && FILE_VALUE.test(o.flags)) fileOptions.push(o.long);
    const choices = offeredValues(o) ?? (o.long ? OPTION_VALUES[o.long] : undefined);
    if (choices && o.long) {
      values[o.long] = [...choices];
      if (o.short) values[o.short] = [...choices];
    }
  }
  // Commands shown in help, without the help command commander adds by itself.
  const subs = cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => cmd.commands.includes(c));
  const arg = cmd.registeredArguments[0];
  const own = options.map(opt);
  const longs = new Set(own.map((o) => o.long));
  out.push({
    path,
    subcommands: subs.map((c) => ({ name: c.name(), description: summary(c.description()) })),
    options: [...own, { long: '--help', short: '-h', description: 'show help', value: false, hidden: false }],
    values,
    positional: [
      ...(arg?.argChoices ?? POSITIONAL_VALUES[path] ?? (arg ? ARGUMENT_VALUES[arg.name()] : undefined) ?? []),
    ],
    fileOptions,
    files: arg?.name() === 'file',
    assetNetworks: longs.has('--asset') && values['--network']?.join() === CRYPTO_NETWORKS.join(),
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
 * Shell patterns matched on "$cmd|$flag" (the command path and the flag) for an option that takes a value: one pattern for a flag that takes a value
 * wherever it is given, its commands one by one for a flag that is a switch somewhere else.
 */
function valueOptionPatterns(nodes: Node[]): string[] {
  const takes = new Map<string, string[]>();
  const switches = new Set<string>();
  for (const n of nodes)
    for (const o of n.options)
      for (const f of [o.long, o.short])
        if (f) o.value ? takes.set(f, [...(takes.get(f) ?? []), n.path]) : switches.add(f);
  return [...takes].flatMap(([f, paths]) => (switches.has(f) ? paths.map((p) => `${p}|${f}`) : [`*|${f}`]));
}

type ValueKind = { words: string[] } | { dynamic: string } | { assetNetworks: true };

/**
 * The cases that complete an option's value, matched on "$cmd|$prev": an option whose values are the same wherever it
 * is given matches under any command, one whose values differ between commands (--network of a crypto or a fiat
 * network, or of the --asset given; --type of a transfer or of its limits) under each of its commands.
 */
function valueCases(nodes: Node[]): [patterns: string[], kind: ValueKind][] {
  const byOption = new Map<string, Map<string, ValueKind>>();
  const add = (option: string, path: string, kind: ValueKind) =>
    byOption.set(option, (byOption.get(option) ?? new Map()).set(path, kind));
  for (const n of nodes) {
    for (const [option, words] of Object.entries(n.values))
      add(option, n.path, n.assetNetworks && option === '--network' ? { assetNetworks: true } : { words });
    for (const o of n.options) {
      const kind = completerOf(o.long, n.path);
      if (kind && o.long) add(o.long, n.path, { dynamic: kind });
    }
  }
  const cases: [string[], ValueKind][] = [];
  for (const [option, paths] of byOption) {
    const groups = new Map<string, { kind: ValueKind; paths: string[] }>();
    for (const [path, kind] of paths) {
      const key = JSON.stringify(kind);
      groups.set(key, { kind, paths: [...(groups.get(key)?.paths ?? []), path] });
    }
    const only = groups.size === 1 ? [...groups.values()][0] : undefined;
    // One pattern for every command only when every command with the option completes it the same way.
    const everywhere = nodes.filter((n) => n.options.some((o) => o.long === option || o.short === option)).length;
    if (only && only.paths.length === everywhere) cases.push([[`*|${option}`], only.kind]);
    else for (const g of groups.values()) cases.push([g.paths.map((p) => `${p}|${option}`), g.kind]);
  }
  return cases;
}

/** The case of bash and zsh for options whose value is a file name. */
const fileCase = (nodes: Node[]) => [...new Set(nodes.flatMap((n) => n.fileOptions))].map((o) => `*"|${o}"`).join('|');

/** A shell pattern in double quotes but for its * wildcards. */
const quoted = (pattern: string) =>
  pattern
    .split('*')
    .map((s) => (s ? `"${s}"` : ''))
    .join('*');

/** The asset's networks by the catalogue (any case), every crypto network for any other word: a case statement. */
function networkCases(upper: string, indent: string, line: (words: string[]) => string): string[] {
  return [
    `${indent}case ${upper} in`,
    ...CRYPTO_ASSETS.map((a) => `${indent}  ${a}) ${line(networksForAsset(a))} ;;`),
    `${indent}  *) ${line([...CRYPTO_NETWORKS])} ;;`,
    `${indent}esac`,
  ];
}

/**
 * The shared head of bash and zsh: the walk over the words to the command path, the --asset given, and the context
 * named on the line (--context NAME, --context=NAME, or --profile, its old name; bash splits `--context=NAME` into
 * three words), whose words `coinop __complete` is asked for.
 */
function walkLines(first: number, word: (i: string) => string, nodes: Node[]): string[] {
  const paths = nodes
    .filter((n) => n.path)
    .map((n) => `"${n.path}"`)
    .join('|');
  return [
    `  for ((i = ${first}; i < ${first === 1 ? 'COMP_CWORD' : 'CURRENT'}; i++)); do`,
    `    w="${word('i')}"`,
    '    case "$w" in',
    `      --context|--profile) ctx="${word('i+1')}"; [[ $ctx == = ]] && ctx="${word('i+2')}" ;;`,
    '      --context=*|--profile=*) ctx="${w#*=}" ;;',
    '    esac',
    '    if [[ $w == -* ]]; then',
    '      case "$cmd|$w" in',
    `        ${valueOptionPatterns(nodes).map(quoted).join('|')})`,
    `          [[ $w == --asset ]] && asset="${word('i+1')}"`,
    '          ((i++)) ;;',
    '      esac',
    '      continue',
    '    fi',
    '    next="${cmd:+$cmd }$w"',
    `    case "$next" in ${paths}) cmd="$next" ;; esac`,
    '  done',
    // The context as words of their own (zsh does not split an expansion into words).
    '  local -a cx=(); [[ -n $ctx ]] && cx=(--context "$ctx")',
  ];
}

/**
 * What bash and zsh run for the words of a kind: `coinop __complete KIND`, with the context named on the line (the
 * address book and the service profiles are a context's own).
 */
const asked = (kind: string) => `coinop __complete ${kind} "\${cx[@]}" 2>/dev/null`;

function bash(nodes: Node[]): string {
  const files = fileCase(nodes);
  const reply = (words: string) => `COMPREPLY=($(compgen -W "${words}" -- "$cur"))`;
  const kindLine = (k: ValueKind) =>
    'words' in k
      ? reply(k.words.join(' '))
      : 'dynamic' in k
        ? reply(`$(${asked(k.dynamic)})`)
        : reply('$(_coinop_networks "$asset")');
  const lines = [
    HEADER,
    '# The networks of an asset (any case); every crypto network for anything else.',
    '_coinop_networks() {',
    ...networkCases('"${1^^}"', '  ', (w) => `echo ${w.join(' ')}`),
    '}',
    '_coinop() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" asset="" ctx="" w i next',
    ...walkLines(1, (i) => `\${COMP_WORDS[${i}]}`, nodes),
    '  case "$cmd|$prev" in',
    ...valueCases(nodes).map(([k, kind]) => `    ${k.map(quoted).join('|')}) ${kindLine(kind)}; return ;;`),
    // No words: bash completes file names (complete -o default), as for a file argument.
    ...(files ? [`    ${files}) COMPREPLY=(); return ;;`] : []),
    // Any other option's value: nothing to offer (not a subcommand, not a file name).
    `    ${valueOptionPatterns(nodes).map(quoted).join('|')}) COMPREPLY=(); compopt +o default 2>/dev/null; return ;;`,
    '  esac',
    '  local words',
    '  if [[ $cur == -* ]]; then',
    '    case "$cmd" in',
    ...nodes.map((n) => `      "${n.path}") words="${flags(n).join(' ')}" ;;`),
    '    esac',
    '  else',
    '    case "$cmd" in',
    ...nodes.map(
      (n) => `      "${n.path}") words="${[...n.subcommands.map((c) => c.name), ...n.positional].join(' ')}" ;;`,
    ),
    '    esac',
    '  fi',
    `  ${reply('$words')}`,
    '}',
    'complete -o default -F _coinop coinop',
  ];
  return `${lines.join('\n')}\n`;
}

/** The options offered: every one but the hidden. */
const offered = (n: Node) => n.options.filter((o) => !o.hidden);
const flags = (n: Node) => [...new Set(offered(n).flatMap((o) => [o.long, o.short].filter((f): f is string => !!f)))];

/** A word in single quotes for zsh and bash. */
const single = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function zsh(nodes: Node[]): string {
  const files = fileCase(nodes);
  const kindLine = (k: ValueKind) =>
    'words' in k
      ? `cands=(${k.words.join(' ')}); compadd -a cands`
      : 'dynamic' in k
        ? `cands=(\${(f)"$(${asked(k.dynamic)})"}); compadd -a cands`
        : 'cands=($(_coinop_networks "$asset")); compadd -a cands';
  // zsh's _describe takes "name:description" (a colon in the name escaped).
  const described = (name: string, d: string) => single(`${name.replace(/:/g, '\\:')}:${d}`);
  const lines = [
    '#compdef coinop',
    HEADER,
    '# The networks of an asset (any case); every crypto network for anything else.',
    '_coinop_networks() {',
    ...networkCases('"${(U)1}"', '  ', (w) => `print -r -- ${w.join(' ')}`),
    '}',
    '_coinop() {',
    // Not `path`: zsh ties it to PATH, and coinop must still be found.
    '  local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}" cmd="" asset="" ctx="" w next i',
    '  local -a cands descs',
    ...walkLines(2, (i) => `\${words[${i}]}`, nodes),
    '  case "$cmd|$prev" in',
    ...valueCases(nodes).map(([k, kind]) => `    ${k.map(quoted).join('|')}) ${kindLine(kind)}; return ;;`),
    ...(files ? [`    ${files}) _files; return ;;`] : []),
    `    ${valueOptionPatterns(nodes).map(quoted).join('|')}) return 0 ;;`,
    '  esac',
    '  if [[ $cur == -* ]]; then',
    '    case "$cmd" in',
    ...nodes.map(
      (n) =>
        `      "${n.path}") descs=(${offered(n)
          .flatMap((o) => [o.long, o.short].flatMap((f) => (f ? [described(f, o.description)] : [])))
          .join(' ')}) ;;`,
    ),
    '    esac',
    "    _describe -t options 'option' descs",
    '    return',
    '  fi',
    '  case "$cmd" in',
    ...nodes.map((node) => {
      if (node.files) return `    "${node.path}") _files; return ;;`;
      const subs = node.subcommands.map((c) => described(c.name, c.description)).join(' ');
      return `    "${node.path}") descs=(${subs}); cands=(${node.positional.join(' ')}) ;;`;
    }),
    '  esac',
    "  (( ${#descs} )) && _describe -t commands 'command' descs",
    '  (( ${#cands} )) && compadd -a cands',
    '  return 0',
    '}',
    'if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _coinop "$@"; else compdef _coinop coinop; fi',
  ];
  return `${lines.join('\n')}\n`;
}

/** fish's function for coinop's words of a kind: for the context named on the line (--context, --profile), if one is. */
const FISH_COMPLETE = [
  "# coinop's words of a kind (the address book's nicknames...) for the context named on the line, if one is.",
  'function __coinop_complete',
  '    set -l words (commandline -opc)',
  '    set -l ctx',
  '    for i in (seq (count $words))',
  '        if contains -- $words[$i] --context --profile; and test $i -lt (count $words)',
  '            set ctx $words[(math $i + 1)]',
  '        end',
  "        string match -q -- '--context=*' $words[$i]; and set ctx (string replace -- --context= '' $words[$i])",
  "        string match -q -- '--profile=*' $words[$i]; and set ctx (string replace -- --profile= '' $words[$i])",
  '    end',
  '    if test -n "$ctx"',
  '        coinop __complete $argv[1] --context $ctx 2>/dev/null',
  '    else',
  '        coinop __complete $argv[1] 2>/dev/null',
  '    end',
  'end',
];

/** A word in single quotes for fish. */
const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fish(nodes: Node[]): string {
  const paths = nodes.filter((n) => n.path).map((n) => fishQuote(n.path));
  const root = nodes.find((n) => !n.path)!;
  // The program's hidden options that take a value (--profile): fish does not know them, so the path says when the
  // word being completed is their value ("|--profile"), and no command is offered there.
  const hiddenValues = root.options.filter((o) => o.hidden && o.value && o.long).map((o) => o.long!);
  const lines = [
    HEADER,
    'complete -c coinop -f',
    '# The command path typed so far: options and the values of those that take one are skipped.',
    'function __coinop_path',
    '    set -l words (commandline -opc)',
    "    set -l path ''",
    '    set -l i 2',
    '    while test $i -le (count $words)',
    '        set -l w $words[$i]',
    '        set i (math $i + 1)',
    "        if string match -q -- '-*' $w",
    '            switch "$path|$w"',
    `                case ${valueOptionPatterns(nodes).map(fishQuote).join(' ')}`,
    ...(hiddenValues.length
      ? [
          `                    if test $i -gt (count $words); and contains -- $w ${hiddenValues.join(' ')}`,
          '                        echo "$path|$w"',
          '                        return',
          '                    end',
        ]
      : []),
    '                    set i (math $i + 1)',
    '            end',
    '            continue',
    '        end',
    '        set -l next (string trim -- "$path $w")',
    `        contains -- $next ${paths.join(' ')}; and set path $next`,
    '    end',
    '    echo $path',
    'end',
    'function __coinop_is',
    '    test "$(__coinop_path)" = "$argv[1]"',
    'end',
    '# The networks of the --asset given (any case); every crypto network without one.',
    'function __coinop_networks',
    '    set -l words (commandline -opc)',
    "    set -l asset ''",
    '    for i in (seq (count $words))',
    '        test "$words[$i]" = --asset; and set asset $words[(math $i + 1)]',
    "        string match -q -- '--asset=*' $words[$i]; and set asset (string replace -- --asset= '' $words[$i])",
    '    end',
    '    switch (string upper -- "$asset")',
    ...CRYPTO_ASSETS.map((a) => `        case ${a}\n            printf '%s\\n' ${networksForAsset(a).join(' ')}`),
    "        case '*'",
    `            printf '%s\\n' ${CRYPTO_NETWORKS.join(' ')}`,
    '    end',
    'end',
    ...FISH_COMPLETE,
  ];
  const optionLine = (node: Node, opt: Opt, cond?: string) => {
    const v = opt.long ? node.values[opt.long] : undefined;
    const dynamic = completerOf(opt.long, node.path);
    const value =
      node.assetNetworks && opt.long === '--network'
        ? " -x -a '(__coinop_networks)'"
        : dynamic
          ? ` -x -a '(__coinop_complete ${dynamic})'`
          : v
            ? ` -x -a ${fishQuote(v.join(' '))}`
            : opt.long && node.fileOptions.includes(opt.long)
              ? ' -r -F'
              : opt.value
                ? ' -x'
                : '';
    const names = `${opt.short ? ` -s ${opt.short.slice(1)}` : ''}${opt.long ? ` -l ${opt.long.slice(2)}` : ''}`;
    return `complete -c coinop${cond ? ` -n ${fishQuote(cond)}` : ''}${names}${value} -d ${fishQuote(opt.description)}`;
  };
  lines.push('function __coinop_value', '    string match -q -- "*|$argv[1]" (__coinop_path)', 'end');
  for (const flag of hiddenValues) {
    const kind = completerOf(flag, '');
    if (kind)
      lines.push(`complete -c coinop -n ${fishQuote(`__coinop_value ${flag}`)} -f -a '(__coinop_complete ${kind})'`);
  }
  // The program's own options hold after every command: said once, without a condition.
  const global = new Set(root.options.map((o) => o.long ?? o.short));
  for (const o of offered(root)) lines.push(optionLine(root, o));
  for (const n of nodes) {
    const cond = `__coinop_is ${fishQuote(n.path)}`;
    for (const c of n.subcommands)
      lines.push(`complete -c coinop -n ${fishQuote(cond)} -a ${c.name} -d ${fishQuote(c.description)}`);
    if (n.positional.length)
      lines.push(`complete -c coinop -n ${fishQuote(cond)} -a ${fishQuote(n.positional.join(' '))}`);
    if (n.files) lines.push(`complete -c coinop -n ${fishQuote(cond)} -F`);
    for (const o of offered(n)) if (!global.has(o.long ?? o.short)) lines.push(optionLine(n, o, cond));
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: 'bash' | 'zsh' | 'fish', program: Command): string {
  const nodes = commandTree(program);
  return shell === 'bash' ? bash(nodes) : shell === 'zsh' ? zsh(nodes) : fish(nodes);
}
