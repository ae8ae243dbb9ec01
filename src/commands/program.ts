// The whole command tree, every group loaded statically (what tests build); coinop itself builds it through
// programFor() in program-base.ts, which loads only the groups a command line names.
import type { Command } from 'commander';
import type { Invocation } from '../cli/invocation.js';
import {
  baseProgram,
  GROUP_ORDER,
  type Group,
  groupNamed,
  type Register,
  ROOT_PORTS,
  withExitCodes,
} from './program-base.js';
import { register as registerAuth } from './auth/index.js';
import { register as registerContext } from './context/index.js';
import { register as registerConfig } from './config/index.js';
import { register as registerDoctor } from './doctor/index.js';
import { register as registerWithdraw } from './withdraw/index.js';
import { register as registerFee } from './fee/index.js';
import { register as registerAddresses } from './addresses/index.js';
import { register as registerSandbox } from './sandbox/index.js';
import { register as registerPrices } from './prices/index.js';
import { register as registerMarkets } from './markets/index.js';
import { register as registerTransfers } from './transfers/index.js';
import { register as registerApi } from './api/index.js';
import { register as registerCompletion } from './completion/index.js';
import { register as registerLocal } from './local/index.js';
import { register as registerStream } from './stream/index.js';
import { register as registerProfiles } from './profiles/index.js';
import { register as registerBalances } from './balances/index.js';
import { register as registerTransfer } from './internal-transfer/index.js';
import { register as registerDestinations } from './destinations/index.js';
import { register as registerLimits } from './limits/index.js';
import { register as registerDepositInstructions } from './deposit-instructions/index.js';
import { register as registerFiatAccounts } from './fiat-accounts/index.js';
import { register as registerTravelRule } from './travel-rule/index.js';
import { register as registerConversions } from './conversions/index.js';
import { register as registerStatements } from './statements/index.js';
import { register as registerMcp } from './mcp/index.js';
import { register as registerPolicy } from './policy/index.js';
import { register as registerApprove } from './approve/index.js';
import { register as registerAudit } from './audit/index.js';
import { register as registerReconcile } from './reconcile/index.js';
import { register as registerStatement } from './statement/index.js';
import { register as registerClose } from './close/index.js';
import { register as registerEvents } from './events/index.js';
import { register as registerGateway } from './gateway/index.js';
import { register as registerApprovals } from './approvals/index.js';

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
  'fiat-accounts': registerFiatAccounts,
  'travel-rule': registerTravelRule,
  conversions: registerConversions,
  statements: registerStatements,
  mcp: registerMcp,
  policy: registerPolicy,
  approve: registerApprove,
  audit: registerAudit,
  reconcile: registerReconcile,
  statement: registerStatement,
  close: registerClose,
  events: registerEvents,
  gateway: registerGateway,
  approvals: registerApprovals,
};
const GROUPS: Register[] = GROUP_ORDER.map((g) => BY_GROUP[g]);

/** The groups a command line needs: the one it names, or all. */
export function groupsFor(argv: string[] | undefined): Register[] {
  const named = groupNamed(argv);
  return named ? [BY_GROUP[named]] : GROUPS;
}

export function makeProgram(ctx: Invocation, argv?: string[]): Command {
  const program = baseProgram(ctx);
  for (const register of groupsFor(argv)) register(program, ctx, ROOT_PORTS);
  withExitCodes(program);
  return program;
}
