// The scopes a command needs, checked against the context's saved scopes before anything is printed, asked or sent:
// a read-only client's context refuses `withdraw` at once, naming the scope, instead of after a confirmation and a
// 403. A context without saved scopes (an older one, a COINOP_TOKEN) is not checked: the service decides.
// From operations.ts itself, not the contract's barrel: every command runs this check (src/commands/program-base.ts),
// and the barrel evaluates every contract module, the address codecs' among them.
import { type Operation, type OperationId, operations } from '../contract/operations.js';
import type { ResolvedContext } from '../config/context.js';
import { CoinopError } from './errors.js';

/** The operation each command exists to call (its main request; what it reads on the way is left to the service). */
export const COMMAND_OPERATIONS: Readonly<Record<string, OperationId>> = {
  withdraw: 'createCryptoWithdrawal',
  'withdraw batch': 'createCryptoWithdrawal',
  'withdraw fiat': 'createFiatWithdrawal',
  'transfer internal': 'createInternalTransfer',
  'transfer paxos': 'createPaxosTransfer',
  convert: 'createStablecoinConversion',
  'conversions list': 'listStablecoinConversions',
  'conversions get': 'getStablecoinConversion',
  'conversions cancel': 'cancelStablecoinConversion',
  balances: 'listProfileBalances',
  'profiles list': 'listProfiles',
  'profiles get': 'getProfile',
  'profiles create': 'createProfile',
  'fee quote': 'createCryptoWithdrawalFee',
  'addresses list': 'listDepositAddresses',
  'addresses create': 'createDepositAddress',
  'addresses verify': 'createVerification',
  'addresses verifications list': 'listVerifications',
  'addresses verifications get': 'getVerification',
  'addresses verifications submit': 'submitVerificationSignature',
  'transfers list': 'listTransfers',
  'transfers get': 'getTransfer',
  'transfers watch': 'getTransfer',
  'events list': 'listEvents',
  'events get': 'getEvent',
  'events watch': 'listEvents',
  'events listen': 'listEvents',
  'destinations list': 'listCryptoDestinationAddresses',
  'destinations put': 'putCryptoDestinationAddress',
  limits: 'listTransferLimits',
  'deposit-instructions create': 'createFiatDepositInstructions',
  'deposit-instructions list': 'listFiatDepositInstructions',
  'deposit-instructions get': 'getFiatDepositInstructions',
  'fiat-accounts create': 'createFiatAccount',
  'fiat-accounts list': 'listFiatAccounts',
  'fiat-accounts get': 'getFiatAccount',
  'fiat-accounts update': 'updateFiatAccount',
  'fiat-accounts delete': 'deleteFiatAccount',
  'deposits update': 'updateCryptoDeposit',
  'deposits reject': 'rejectCryptoDeposit',
  'statements list': 'listStatements',
  'statements payments': 'listPayments',
  'sandbox deposit': 'initiateSandboxFiatDeposit',
};

/** The scope the command needs that the context's saved scopes lack, if any (unchecked contexts: none). */
export function missingScope(command: string, context: ResolvedContext): string | undefined {
  const id = COMMAND_OPERATIONS[command];
  const scope = id ? (operations[id] as Operation).scope : undefined;
  if (!scope || context.envToken || !context.scopes.length) return undefined;
  return context.scopes.includes(scope) ? undefined : scope;
}

/** Refuses the command when the context's saved scopes cannot do it: one line naming the scope, and the fix. */
export function checkScopes(command: string, context: ResolvedContext): void {
  const scope = missingScope(command, context);
  if (!scope) return;
  throw new CoinopError(
    'auth',
    `${command}: context "${context.name}" cannot do this: its client was not given the scope ${scope}`,
    {
      hint: `log in with a client that has ${scope} (coinop login --name ${context.name} ...), or use another context (--context)`,
    },
  );
}
