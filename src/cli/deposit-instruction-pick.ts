// Choosing fiat deposit instructions on a terminal (deposit-instructions get, sandbox deposit): the newest page of
// them, the operator's own profile's first.
import type { FiatDepositInstructions } from '../contract/index.js';
import type { Connection } from './invocation.js';
import type { Choice, Prompter } from './prompt.js';

/** The network of instructions, from the kind of instructions they hold ("wire" is WIRE). */
export function fiatNetworkOf(
  instruction: Pick<FiatDepositInstructions, 'fiat_network_instructions'>,
): string | undefined {
  const kind = Object.keys(instruction.fiat_network_instructions ?? {})[0];
  return kind?.toUpperCase();
}

/** A choice per set of instructions: the memo id, its network and profile. */
export function instructionChoices(items: FiatDepositInstructions[]): Choice[] {
  return items.map((i) => ({
    value: i.id,
    name: `${i.memo_id}  ${fiatNetworkOf(i) ?? '-'}  profile ${i.profile_id}${i.ref_id ? `  ref ${i.ref_id}` : ''}`,
    description: `instructions ${i.id}${i.created_at ? `, created ${i.created_at}` : ''}`,
  }));
}

/** The first page of instructions (newest first, at most 100). */
export async function recentInstructions(conn: Connection): Promise<FiatDepositInstructions[]> {
  const { data } = await conn.client.call('listFiatDepositInstructions', {
    query: { limit: 100 },
  });
  return data.items ?? [];
}

/**
 * Asks which instructions to use; the default is the first of the operator's profile. `other` adds a last choice
 * (answered as its value) for something not in the list.
 */
export async function pickInstructions(
  pr: Prompter,
  message: string,
  items: FiatDepositInstructions[],
  opts: { profileId?: string; other?: Choice } = {},
): Promise<string> {
  const own = items.find((i) => i.profile_id === opts.profileId);
  const choices = [...instructionChoices(items), ...(opts.other ? [opts.other] : [])];
  return pr.select(message, choices, own?.id ?? choices[0]?.value);
}
