// The memo id of a sandbox deposit when --memo-id does not give it: from fiat deposit instructions (--instructions),
// or on a terminal picked from the newest instructions (the operator's profile's first), or typed.
import type { FiatDepositInstructions } from '../../contract/index.js';
import type { Ports } from '../../cli/ports.js';
import { CoinopError } from '../../cli/errors.js';
import { pickInstructions, recentInstructions } from '../../cli/deposit-instruction-pick.js';

/** The memo id of the instructions --instructions names (looked up once the rest of the request passed its checks). */
export async function instructionsMemo(ctx: Pick<Ports, 'service'>, id: string): Promise<string> {
  const conn = await ctx.service.connect();
  const { data } = await conn.client.call('getFiatDepositInstructions', { params: { id } }, { id: '--instructions' });
  return data.memo_id;
}

const TYPE_IT = '\u0000type';

/** Asks on a terminal: the instructions to credit, or (none readable, or the operator's choice) a memo id typed. */
export async function askMemo(
  ctx: Pick<Ports, 'service' | 'prompter'>,
  memoDefault: string | undefined,
): Promise<string> {
  const pr = ctx.prompter;
  let items: FiatDepositInstructions[] = [];
  try {
    items = await recentInstructions(await ctx.service.connect());
  } catch (e) {
    // Credentials without the read scope, or a service without the endpoint: the memo id is typed instead.
    if (!(e instanceof CoinopError) || (e.category !== 'auth' && e.category !== 'api')) throw e;
  }
  if (items.length) {
    const id = await pickInstructions(pr, 'Memo id (of the deposit instructions to credit)', items, {
      profileId: ctx.service.context().profileId,
      other: { value: TYPE_IT, name: 'another memo id (type it)' },
    });
    const chosen = items.find((i) => i.id === id);
    if (chosen) return chosen.memo_id;
  }
  return pr.text('Memo id (credits the profile with this memo)', { default: memoDefault });
}
