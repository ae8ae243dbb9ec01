// The command tree without its commands (global options, help text, the hook that runs before every action), and
// the command groups by name, each loaded (src/commands/<group>/index.ts and what it imports) only when a command
// line names it: a plain `coinop prices` evaluates the prices group alone, not the 26 groups' modules. Help,
// completion and anything unknown build every group (src/commands/program.ts has the same tree, loaded statically).
import { Command } from 'commander';
import type { Invocation } from '../cli/invocation.js';
import type { RootPorts } from '../cli/ports.js';
import { EXIT_CODE_HELP } from '../cli/exit-codes.js';
import { usageError } from '../cli/errors.js';
import { refuseUnknownCommands } from '../cli/command-suggest.js';
import { applyFlags } from '../cli/io.js';
import { defineFlags } from '../cli/flags.js';
import { GLOBAL_FLAG_TABLE, type GlobalFlagValues, VALUE_FLAGS } from '../cli/global-flags.js';
import { TABLE_FLAG_TABLE } from '../cli/list-flags.js';

/**
 * The flags of a command that the hook before its action reads (each declared by the command that has it): --yes
 * (asks nothing) and --columns (checked against the output format).
 */
const HOOK_FLAG_TABLE = defineFlags({
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask' },
  columns: TABLE_FLAG_TABLE.specs.columns,
});

/** A group's commands added to the program; `root`: what the root command hands groups that need another's work. */
export type Register = (program: Command, ctx: Invocation, root: RootPorts) => void;

/** The root command's ports (src/cli/ports.ts RootPorts), each loaded when first used. */
export const ROOT_PORTS: RootPorts = {
  mcpBatch: async () => (await import('./mcp-batch.js')).batchPort,
};

/** Every group (its folder under src/commands) in help order. */
export const GROUP_ORDER = [
  'auth',
  'context',
  'config',
  'profiles',
  'balances',
  'withdraw',
  'fee',
  'addresses',
  'transfers',
  'transfer',
  'events',
  'destinations',
  'limits',
  'policy',
  'approve',
  'deposit-instructions',
  'fiat-accounts',
  'travel-rule',
  'conversions',
  'statements',
  'sandbox',
  'audit',
  'reconcile',
  'statement',
  'close',
  'prices',
  'markets',
  'api',
  'doctor',
  'stream',
  'mcp',
  'gateway',
  'approvals',
  'local',
  'completion',
] as const;
export type Group = (typeof GROUP_ORDER)[number];

/** Each group's register, loaded when first asked for. */
const LOADERS: Record<Group, () => Promise<Register>> = {
  auth: async () => (await import('./auth/index.js')).register,
  context: async () => (await import('./context/index.js')).register,
  config: async () => (await import('./config/index.js')).register,
  profiles: async () => (await import('./profiles/index.js')).register,
  balances: async () => (await import('./balances/index.js')).register,
  withdraw: async () => (await import('./withdraw/index.js')).register,
  fee: async () => (await import('./fee/index.js')).register,
  addresses: async () => (await import('./addresses/index.js')).register,
  transfers: async () => (await import('./transfers/index.js')).register,
  transfer: async () => (await import('./internal-transfer/index.js')).register,
  events: async () => (await import('./events/index.js')).register,
  destinations: async () => (await import('./destinations/index.js')).register,
  limits: async () => (await import('./limits/index.js')).register,
  policy: async () => (await import('./policy/index.js')).register,
  approve: async () => (await import('./approve/index.js')).register,
  'deposit-instructions': async () => (await import('./deposit-instructions/index.js')).register,
  'fiat-accounts': async () => (await import('./fiat-accounts/index.js')).register,
  'travel-rule': async () => (await import('./travel-rule/index.js')).register,
  conversions: async () => (await import('./conversions/index.js')).register,
  statements: async () => (await import('./statements/index.js')).register,
  sandbox: async () => (await import('./sandbox/index.js')).register,
  close: async () => (await import('./close/index.js')).register,
  statement: async () => (await import('./statement/index.js')).register,
  audit: async () => (await import('./audit/index.js')).register,
  reconcile: async () => (await import('./reconcile/index.js')).register,
  prices: async () => (await import('./prices/index.js')).register,
  markets: async () => (await import('./markets/index.js')).register,
  api: async () => (await import('./api/index.js')).register,
  doctor: async () => (await import('./doctor/index.js')).register,
  stream: async () => (await import('./stream/index.js')).register,
  mcp: async () => (await import('./mcp/index.js')).register,
  gateway: async () => (await import('./gateway/index.js')).register,
  approvals: async () => (await import('./approvals/index.js')).register,
  local: async () => (await import('./local/index.js')).register,
  completion: async () => (await import('./completion/index.js')).register,
};

/** The group each top-level command is in. */
const GROUP_OF: Record<string, Group> = {
  login: 'auth',
  logout: 'auth',
  auth: 'auth',
  context: 'context',
  profile: 'context',
  config: 'config',
  doctor: 'doctor',
  withdraw: 'withdraw',
  fee: 'fee',
  addresses: 'addresses',
  transfers: 'transfers',
  sandbox: 'sandbox',
  prices: 'prices',
  markets: 'markets',
  ticker: 'markets',
  book: 'markets',
  trades: 'markets',
  api: 'api',
  stream: 'stream',
  local: 'local',
  profiles: 'profiles',
  balances: 'balances',
  transfer: 'transfer',
  destinations: 'destinations',
  limits: 'limits',
  policy: 'policy',
  approve: 'approve',
  'deposit-instructions': 'deposit-instructions',
  'fiat-accounts': 'fiat-accounts',
  vasps: 'travel-rule',
  deposits: 'travel-rule',
  convert: 'conversions',
  conversions: 'conversions',
  statements: 'statements',
  mcp: 'mcp',
  gateway: 'gateway',
  approvals: 'approvals',
  __complete: 'completion',
  audit: 'audit',
  reconcile: 'reconcile',
  statement: 'statement',
  close: 'close',
  events: 'events',
};

/** The group a command line names, or undefined when it needs them all (help, completion, an unknown word, `--`). */
export function groupNamed(argv: string[] | undefined): Group | undefined {
  if (!argv) return undefined;
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return undefined;
    if (VALUE_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    // Own keys only: `coinop constructor` or `coinop toString` must not find Object.prototype's functions.
    // After the command's name, --help is that command's help: its own group is enough.
    return Object.hasOwn(GROUP_OF, a) ? GROUP_OF[a] : undefined;
  }
  return undefined;
}

/** The tree a command line needs, each group it builds loaded now: the one it names, or all of them. */
export async function programFor(ctx: Invocation, argv: string[]): Promise<Command> {
  const named = groupNamed(argv);
  const registers = await Promise.all((named ? [named] : GROUP_ORDER).map((g) => LOADERS[g]()));
  const program = baseProgram(ctx);
  for (const register of registers) register(program, ctx, ROOT_PORTS);
  withExitCodes(program);
  refuseUnknownCommands(program);
  return program;
}

/**
 * Output flags that contradict each other are a usage error naming both, rather than one silently winning: --json with
 * another -o, and --columns (a table's or CSV's) with JSON output.
 */
function checkOutputFlags(ctx: Invocation, own: { columns: string[] | undefined }): void {
  const { json, output } = ctx.globals;
  if (json && output !== undefined && output !== 'json')
    throw usageError(`--json and -o ${output}: give one output format (--json is short for -o json)`);
  const format = ctx.format();
  if (own.columns !== undefined && (format === 'json' || format === 'ndjson')) {
    const why =
      json || output ? (json ? '--json' : `-o ${format}`) : `-o ${format} (the default when stdout is not a terminal)`;
    throw usageError(`--columns and ${why}: --columns chooses table and CSV columns; add -o table or -o csv`);
  }
}

/**
 * --context, or its old name --profile (said once on stderr); both naming different contexts is a usage error. The
 * context's name is kept as globals.context.
 */
function contextFlag(ctx: Invocation, globals: Pick<GlobalFlagValues, 'context' | 'profile'>): string | undefined {
  if (globals.profile === undefined) return globals.context;
  if (globals.context !== undefined && globals.context !== globals.profile)
    throw usageError(
      `--context ${globals.context} and --profile ${globals.profile}: --profile is the old name of --context; give one`,
    );
  ctx.io.err('note: --profile is now --context\n');
  return globals.profile;
}

/** The program with its global options, help text and hooks, and no commands yet. */
export function baseProgram(ctx: Invocation): Command {
  const program = new Command('coinop');
  program
    .description('Operator CLI for crypto transfers and market data (and a local service to try it on)')
    .version(ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help');
  GLOBAL_FLAG_TABLE.declare(program)
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.out(s),
      writeErr: (s) => ctx.io.err(s),
      // One line; with --json / -o json main() writes the error as a JSON object instead.
      outputError: (text, write) => {
        if (!ctx.globals.json) write(text.replace(/\n(?!$)/g, ' '));
      },
    });
  program.addHelpText(
    'after',
    `
Environment:
  COINOP_CONTEXT (old name: COINOP_PROFILE), COINOP_CONFIG_DIR, COINOP_DATA_DIR, COINOP_NO_INPUT=1, NO_COLOR / FORCE_COLOR
  COINOP_BASE_URL, COINOP_AUTH_URL, COINOP_WS_URL  override the context's addresses
  COINOP_TOKEN                                     a bearer token to use as is (no token request)
  COINOP_CLIENT_SECRET                             the client secret for coinop login without a terminal

${EXIT_CODE_HELP}

Examples:
  $ coinop prices BTCUSD
  $ coinop withdraw --asset BTC --network BITCOIN --address 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 --amount 0.01
  $ coinop transfers list --status PENDING -o ndjson
  $ coinop login --env sandbox --client-id ID --client-secret-stdin < secret.txt
`,
  );
  program.hook('preAction', async (_this, action) => {
    await ctx.prepare();
    const names: string[] = [];
    for (let c: Command | null = action; c?.parent; c = c.parent) names.unshift(c.name());
    ctx.command = names.join(' ');
    ctx.tableFlags = action.options.some((o) => o.long === '--wide');
    const { profile: _oldName, ...g } = GLOBAL_FLAG_TABLE.read(action.optsWithGlobals());
    ctx.globals = { ...g, context: contextFlag(ctx, { context: g.context, profile: _oldName }) };
    applyFlags(ctx.io, ctx.env, { noInput: !g.input || ctx.settings.noInput, noColour: !g.color });
    const own = HOOK_FLAG_TABLE.read(action.opts());
    // A command's --yes asks nothing at all: not the confirmation, and not a missing or refused value (issue 23).
    if (own.yes) ctx.prompter.askNothing('--yes');
    checkOutputFlags(ctx, own);
    await scopesFirst(ctx, action);
  });

  return program;
}

/**
 * A command the context's saved scopes cannot do is refused here, before its action prints, asks or sends anything
 * (a dry run sends nothing and is let through).
 */
async function scopesFirst(ctx: Invocation, action: Command): Promise<void> {
  const command = ctx.command;
  if (!command || action.opts().dryRun) return;
  const { checkScopes, COMMAND_OPERATIONS } = await import('../cli/scope-check.js');
  if (!COMMAND_OPERATIONS[command]) return;
  let context: ReturnType<Invocation['context']>;
  try {
    context = ctx.context();
  } catch {
    // A context that cannot be resolved is the command's own error to say.
    return;
  }
  checkScopes(command, context);
}

/** Every command's --help ends with the exit codes (the program's own help has them before its examples). */
export function withExitCodes(cmd: Command): void {
  for (const c of cmd.commands) {
    // After an Examples section (which ends in a blank line), or after the options (then one blank line first).
    c.addHelpText(
      'after',
      `${(c as unknown as NodeJS.EventEmitter).listenerCount('afterHelp') ? '' : '\n'}${EXIT_CODE_HELP}\n`,
    );
    withExitCodes(c);
  }
}
