// coinop's global flags, declared once: the program declares them (src/commands/program-base.ts), the hook before
// every action reads their typed values into ctx.globals, the lazy loader skips their values (VALUE_FLAGS), and the
// commands that read a global flag with their own (stream's output, login's context) read it from this table.
import { defineFlags } from './flags.js';
import { FORMATS } from '../render/output.js';

export const GLOBAL_FLAG_TABLE = defineFlags({
  context: {
    kind: 'text',
    flag: '--context <name>',
    help: 'context to use: saved endpoints and credentials (default: COINOP_CONTEXT, the active context, or local)',
  },
  // The old name of --context, still taken (with a note); hidden from help and completion.
  profile: { kind: 'text', flag: '--profile <name>', help: 'old name of --context', hidden: true },
  output: {
    kind: 'choice',
    flag: '-o, --output <format>',
    help: 'output format (default: json when piped; on a terminal, table or the configured one)',
    choices: FORMATS,
  },
  json: { kind: 'switch', flag: '--json', help: 'short for -o json' },
  input: {
    kind: 'switch',
    flag: '--no-input',
    help: 'never prompt; a missing value is a usage error (also COINOP_NO_INPUT=1)',
  },
  color: { kind: 'switch', flag: '--no-color', help: 'no colour (also NO_COLOR)' },
  pager: {
    kind: 'switch',
    flag: '--no-pager',
    help: 'never page long tables (default: through COINOP_PAGER, PAGER or less -FRX on a terminal)',
  },
  debug: { kind: 'switch', flag: '--debug', help: 'log every request and response to stderr (secrets redacted)' },
} as const);

/** The global flags as parsed, before the hook resolves --context and --profile into one context name. */
export type GlobalFlagValues = ReturnType<typeof GLOBAL_FLAG_TABLE.read>;

/** The global flags as a command sees them (ctx.globals): --context and its old name --profile made one context. */
export type GlobalOptions = Partial<Omit<GlobalFlagValues, 'profile'>>;

/** Every spelling of the global flags that take a value, so the value is not taken for a command's name. */
export const VALUE_FLAGS: ReadonlySet<string> = new Set(GLOBAL_FLAG_TABLE.valueSpellings());
