// The command folders whose work is built into the rare bundle (rare.cjs), not main.cjs: the MCP server, the gateway,
// the event feed, the policy, approval and audit tooling, the raw API command, doctor, batch withdrawals, statements,
// reconciliation and the month's close, conversions, the Travel Rule's commands, fiat accounts and fiat withdrawals.
// (addresses verify stays in main.cjs; its curves are vendor.cjs's, which rare.cjs could load as well.) Written once here: scripts/build.mjs splits these folders, and test/structure/startup-imports.test.ts
// checks that a plain request reaches none of their work.
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
];
