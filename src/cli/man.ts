// The man page (man/coinop.1, roff with the man macros), generated from the commander tree like the completion
// scripts: every command's usage, description, arguments and options, the global options, the environment and the
// exit codes. `node scripts/build.mjs && node man/generate.mjs` writes it; test/cli/man.test.ts keeps it current.
import type { Command } from 'commander';
import { EXIT_CODE_HELP } from './exit-codes.js';

/** Text as roff reads it: backslashes escaped, hyphens as minus signs, no line starting with a control character. */
export function roff(text: string): string {
  return (
    text
      .replace(/\\/g, '\\e')
      .replace(/-/g, '\\-')
      // Outside ASCII as roff's named Unicode characters (groff warns about raw UTF-8 bytes).
      .replace(/[^ -~\n\t]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
      .split('\n')
      .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
      .join('\n')
  );
}

const bold = (s: string) => `\\fB${roff(s)}\\fR`;

/** A command's full name from the program down (`coinop transfers list`). */
function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The commands under `cmd` that a person types, depth first (hidden ones left out). */
function commands(cmd: Command): Command[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => c.name() !== 'help')
    .flatMap((c) => [c, ...commands(c)]);
}

function options(cmd: Command): string[] {
  return cmd.options
    .filter((o) => !o.hidden)
    .flatMap((option) => {
      const def =
        option.defaultValue !== undefined && typeof option.defaultValue !== 'boolean'
          ? ` (default: ${option.defaultValue})`
          : '';
      const choices = option.argChoices ? ` (one of: ${option.argChoices.join(', ')})` : '';
      return ['.TP', bold(option.flags), roff(`${option.description}${choices}${def}`)];
    });
}

function section(cmd: Command): string[] {
  const help = cmd.createHelp();
  const lines = ['.SS', `${bold(fullName(cmd))}`];
  lines.push('.PP', bold(help.commandUsage(cmd)));
  if (cmd.description()) lines.push('.PP', roff(cmd.description()));
  for (const a of cmd.registeredArguments)
    lines.push('.TP', bold(a.required ? `<${a.name()}>` : `[${a.name()}]`), roff(a.description || a.name()));
  lines.push(...options(cmd));
  return lines;
}

/** The page for `program` at `version` (no date: the page changes only when the commands do). */
export function manPage(program: Command, version: string): string {
  const exits = EXIT_CODE_HELP.split('\n')
    .slice(1)
    .flatMap((line) => {
      const m = /^\s*(\d+)\s+(.*)$/.exec(line);
      return m ? ['.TP', bold(m[1]), roff(m[2])] : [];
    });
  return `${[
    `.TH COINOP 1 "" "coinop ${roff(version)}" "User Commands"`,
    '.SH NAME',
    `coinop \\- ${roff(program.description())}`,
    '.SH SYNOPSIS',
    `${bold('coinop')} [global options] command [options] [arguments]`,
    '.SH DESCRIPTION',
    roff(
      'Data goes to stdout, everything else to stderr. Output is a table on a terminal and JSON when piped (-o, --json, or coinop config set output). Every command takes --help, with examples and the exit codes.',
    ),
    '.SH GLOBAL OPTIONS',
    ...options(program),
    '.SH COMMANDS',
    ...commands(program).flatMap(section),
    '.SH ENVIRONMENT',
    roff(
      'COINOP_CONTEXT (old name: COINOP_PROFILE, still read with a note), COINOP_CONFIG_DIR, COINOP_DATA_DIR, COINOP_BASE_URL, COINOP_AUTH_URL, COINOP_WS_URL, COINOP_TOKEN, COINOP_CLIENT_SECRET, COINOP_NO_INPUT, COINOP_OUTPUT, COINOP_PAGER, PAGER, COINOP_BATCH_RATE, COINOP_TIMEOUT_MS, COINOP_RETRY_BASE_MS, COINOP_POLL_MS, COINOP_LOCAL_WAIT_MS, COINOP_STREAM_FPS, COINOP_STREAM_STALE_MS, NO_COLOR, FORCE_COLOR. A variable wins over the configuration file (coinop config list), a flag over both.',
    ),
    '.SH FILES',
    '.TP',
    bold('~/.config/coinop/'),
    roff('config.json (contexts, defaults), secrets.json, tokens.json, policies/ (COINOP_CONFIG_DIR, XDG_CONFIG_HOME)'),
    '.TP',
    bold('~/.local/share/coinop/'),
    roff('the local service database, batch journals, sent ref_ids, the audit log (COINOP_DATA_DIR, XDG_DATA_HOME)'),
    '.SH EXIT STATUS',
    ...exits,
    '.SH SEE ALSO',
    roff('coinop doctor, coinop config list, coinop completion bash|zsh|fish'),
  ].join('\n')}\n`;
}
