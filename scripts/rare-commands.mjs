// The command folders whose work is built into the rare bundle (rare.cjs), not main.cjs: the MCP server, the gateway,
// the event feed, the policy, approval and audit tooling, the raw API command, doctor, batch withdrawals, statements,
// reconciliation and the month's close, conversions, the Travel Rule's commands, fiat accounts and fiat withdrawals;
// and addresses create and verify (the gate and the curves, where `addresses list` is an everyday read). Written
// once here: scripts/build.mjs splits these folders, and test/structure/startup-imports.test.ts checks that a plain
// request reaches none of their work.
export const RARE_COMMAND_DIRS = [
  'src/commands/mcp/',
  'src/commands/gateway/',
  'src/commands/events/',
  'src/commands/policy/',
  'src/commands/approve/',
  'src/commands/approvals/',
  'src/commands/audit/',
  'src/commands/api/',
  'src/commands/doctor/',
  'src/commands/withdraw/batch/',
  'src/commands/statements/',
  'src/commands/reconcile/',
  'src/commands/statement/',
  'src/commands/close/',
  'src/commands/conversions/',
  'src/commands/travel-rule/',
  'src/commands/fiat-accounts/',
  'src/commands/withdraw/fiat/',
  'src/commands/addresses/create/',
  'src/commands/addresses/verify/',
];

// The command groups main.cjs holds whole (their folders under src/commands): the everyday reads, whose start-up the
// benchmarks measure (a request on a running service, the embedded default, the live book). Every other group is
// built into rare.cjs from its index.ts down (what main.cjs does not hold itself), imported when a command line names
// it (src/commands/program-base.ts's loaders): a plain request reads, deserializes and evaluates none of their code.
// rare.cjs has a code cache of its own (scripts/code-cache.cjs trains it on the commands of RARE_TRAINING).
export const CORE_COMMAND_GROUPS = ['prices', 'markets', 'addresses', 'transfers', 'stream'];
