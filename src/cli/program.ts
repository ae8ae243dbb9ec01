// The whole command tree, every group loaded statically (what tests build); coinop itself builds it through
// programFor() in program-base.ts, which loads only the groups a command line names.
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { baseProgram, GROUP_ORDER, type Group, groupNamed, type Register, withExitCodes } from './program-base.js';
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

const BY_GROUP: Record<Group, Register> = {
  auth: registerAuth,
  context: registerContext,
  config: registerConfig,
  doctor: registerDoctor,
  withdraw: registerWithdraw,
  fee: registerFee,
  addresses: registerAddresses,
  sandbox: registerSandbox,
  prices: registerPrices,
  markets: registerMarkets,
  transfers: registerTransfers,
  api: registerApi,
  completion: registerCompletion,
  local: registerLocal,
  stream: registerStream,
  profiles: registerProfiles,
  balances: registerBalances,
  transfer: registerTransfer,
  destinations: registerDestinations,
  limits: registerLimits,
  'deposit-instructions': registerDepositInstructions,
  mcp: registerMcp,
  policy: registerPolicy,
  approve: registerApprove,
  audit: registerAudit,
  events: registerEvents,
};
const GROUPS: Register[] = GROUP_ORDER.map((g) => BY_GROUP[g]);

/** The groups a command line needs: the one it names, or all. */
export function groupsFor(argv: string[] | undefined): Register[] {
  const named = groupNamed(argv);
  return named ? [BY_GROUP[named]] : GROUPS;
}

export function makeProgram(ctx: CliContext, argv?: string[]): Command {
  const program = baseProgram(ctx);
  for (const register of groupsFor(argv)) register(program, ctx);
  withExitCodes(program);
  return program;
}
