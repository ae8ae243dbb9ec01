// coinop fee quote: the raw flags, checked once; values left out are asked for on a terminal by the run.
import { amountFlag, amountXorTotal, nameFlag, type RawFlags } from '../../cli/options.js';
import { FEE_QUOTE_FLAG_TABLE } from './flags.js';

export interface FeeQuoteOptions {
  asset?: string;
  network?: string;
  address?: string;
  /** At most one of amount and total, each a plain decimal string. */
  amount?: string;
  total?: string;
}

export function parseFeeQuoteOptions(raw: RawFlags): FeeQuoteOptions {
  const f = FEE_QUOTE_FLAG_TABLE.read(raw);
  const amount = f.amount;
  const total = f.total;
  amountXorTotal(amount, total);
  return {
    asset: nameFlag('--asset', f.asset),
    network: nameFlag('--network', f.network),
    address: f.address,
    amount: amountFlag('--amount', amount),
    total: amountFlag('--total', total),
  };
}
