// The whole command tree: global options, every command group, help with examples and exit codes.
import { Command, Option } from 'commander';
import { FORMATS } from '../render/output.js';
import type { CliContext } from './context.js';
import { EXIT_CODE_HELP } from './exit-codes.js';
import { usageError } from './errors.js';
import { applyFlags } from './io.js';
import { choiceOption } from './options.js';
import { register as registerAuth } from '../commands/auth/index.js';
import { register as registerContext } from '../commands/context/index.js';
import { register as registerConfig } from '../commands/config/index.js';
import { register as registerDoctor } from '../commands/doctor/index.js';
import { register as registerWithdraw } from '../commands/withdraw/index.js';
import { register as registerFee } from '../commands/fee/index.js';
import { register as registerAddresses } from '../commands/addresses/index.js';
import { register as registerSandbox } from '../commands/sandbox/index.js';
import { register as registerPrices } from '../commands/prices/index.js';
import { register as registerMarkets } from '../commands/markets/index.js';
import { register as registerTransfers } from '../commands/transfers/index.js';
import { register as registerApi } from '../commands/api/index.js';
import { register as registerCompletion } from '../commands/completion/index.js';
import { register as registerLocal } from '../commands/local/index.js';
import { register as registerStream } from '../commands/stream/index.js';
import { register as registerProfiles } from '../commands/profiles/index.js';
import { register as registerBalances } from '../commands/balances/index.js';
import { register as registerTransfer } from '../commands/transfer/index.js';
import { register as registerDestinations } from '../commands/destinations/index.js';
import { register as registerLimits } from '../commands/limits/index.js';
import { register as registerDepositInstructions } from '../commands/deposit-instructions/index.js';
import { register as registerMcp } from '../commands/mcp/index.js';
import { register as registerPolicy } from '../commands/policy/index.js';
import { register as registerApprove } from '../commands/approve/index.js';
import { register as registerAudit } from '../commands/audit/index.js';
import { register as registerEvents } from '../commands/events/index.js';

type Register = (program: Command, ctx: CliContext) => void;

// Every group in help order. A command line that names a group builds only that group's commands (building the
// whole tree costs a few milliseconds of every start); help, completion and anything unknown build all of them.
const GROUPS: Register[] = [
  registerAuth,
  registerContext,
  registerConfig,
  registerProfiles,
  registerBalances,
  registerWithdraw,
  registerFee,
  registerAddresses,
  registerTransfers,
  registerTransfer,
  registerEvents,
  registerDestinations,
  registerLimits,
  registerPolicy,
  registerApprove,
  registerDepositInstructions,
  registerSandbox,
  registerAudit,
  registerPrices,
  registerMarkets,
  registerApi,
  registerDoctor,
  registerStream,
  registerMcp,
  registerLocal,
  registerCompletion,
];
const BY_COMMAND: Record<string, Register[]> = {
  login: [registerAuth],
  logout: [registerAuth],
  auth: [registerAuth],
  context: [registerContext],
  profile: [registerContext],
  config: [registerConfig],
  doctor: [registerDoctor],
  withdraw: [registerWithdraw],
  fee: [registerFee],
  addresses: [registerAddresses],
  transfers: [registerTransfers],
  sandbox: [registerSandbox],
  prices: [registerPrices],
  markets: [registerMarkets],
  ticker: [registerMarkets],
  book: [registerMarkets],
  trades: [registerMarkets],
  api: [registerApi],
  stream: [registerStream],
  local: [registerLocal],
  profiles: [registerProfiles],
  balances: [registerBalances],
  transfer: [registerTransfer],
  destinations: [registerDestinations],
  limits: [registerLimits],
  policy: [registerPolicy],
  approve: [registerApprove],
  'deposit-instructions': [registerDepositInstructions],
  mcp: [registerMcp],
  __complete: [registerCompletion],
  audit: [registerAudit],
  events: [registerEvents],
};
/** Global options that take a value, so the value is not taken for the command's name. */
const VALUE_OPTIONS = new Set(['--context', '--profile', '-o', '--output']);

/** The groups a command line needs: the one it names, or all. */
export function groupsFor(argv: string[] | undefined): Register[] {
  if (!argv) return GROUPS;
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return GROUPS;
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    // Own keys only: `coinop constructor` or `coinop toString` must not find Object.prototype's functions.
    const groups = Object.hasOwn(BY_COMMAND, a) ? BY_COMMAND[a] : undefined;
    // After the command's name, --help is that command's help: its own group is enough.
    return groups ?? GROUPS;
  }
  return GROUPS;
}

/**
 * Output flags that contradict each other are a usage error naming both, rather than one silently winning: --json with
 * another -o, and --columns (a table's or CSV's) with JSON output.
 */
function checkOutputFlags(ctx: CliContext, own: Record<string, unknown>): void {
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
 * context's name is kept as globals.profile.
 */
function contextFlag(ctx: CliContext, g: { context?: string; profile?: string }): string | undefined {
  if (g.profile === undefined) return g.context;
  if (g.context !== undefined && g.context !== g.profile)
    throw usageError(
      `--context ${g.context} and --profile ${g.profile}: --profile is the old name of --context; give one`,
    );
  ctx.io.err('note: --profile is now --context\n');
  return g.profile;
}

export function makeProgram(ctx: CliContext, argv?: string[]): Command {
  const program = new Command('coinop');
  program
    .description('Operator CLI for crypto transfers and market data (and a local service to try it on)')
    .version(ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option(
      '--context <name>',
      'context to use: saved endpoints and credentials (default: COINOP_CONTEXT, the active context, or local)',
    )
    // The old name of --context, still taken (with a note); hidden from help and completion.
    .addOption(new Option('--profile <name>', 'old name of --context').hideHelp())
    .addOption(
      choiceOption('-o, --output <format>', 'output format (default: table on a terminal, json when piped)', FORMATS),
    )
    .option('--json', 'short for -o json')
    .option('--no-input', 'never prompt; a missing value is a usage error (also COINOP_NO_INPUT=1)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--no-pager', 'never page long tables (default: through COINOP_PAGER, PAGER or less -FRX on a terminal)')
    .option('--debug', 'log every request and response to stderr (secrets redacted)')
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.out(s),
      writeErr: (s) => ctx.io.err(s),
      // One line; with --json / -o json main() writes the error as a JSON object instead.
      outputError: (s, write) => {
        if (!ctx.globals.json) write(s.replace(/\n(?!$)/g, ' '));
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
    const g = action.optsWithGlobals();
    ctx.globals = {
      profile: contextFlag(ctx, g),
      output: g.output,
      json: g.json,
      debug: g.debug,
      input: g.input,
      color: g.color,
      pager: g.pager,
    };
    applyFlags(ctx.io, ctx.env, { noInput: g.input === false || ctx.settings.noInput, noColour: g.color === false });
    // A command's --yes asks nothing at all: not the confirmation, and not a missing or refused value (issue 23).
    if (action.opts().yes === true) ctx.prompter.askNothing('--yes');
    checkOutputFlags(ctx, action.opts());
  });

  for (const register of groupsFor(argv)) register(program, ctx);
  withExitCodes(program);
  return program;
}

/** Every command's --help ends with the exit codes (the program's own help has them before its examples). */
function withExitCodes(cmd: Command): void {
  for (const c of cmd.commands) {
    // After an Examples section (which ends in a blank line), or after the options (then one blank line first).
    c.addHelpText(
      'after',
      `${(c as unknown as NodeJS.EventEmitter).listenerCount('afterHelp') ? '' : '\n'}${EXIT_CODE_HELP}\n`,
    );
    withExitCodes(c);
  }
}
