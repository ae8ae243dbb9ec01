// coinop fee quote: the raw flags, checked once; values left out are asked for on a terminal by the run.
import { amountFlag, amountXorTotal, nameFlag, type RawFlags, readFlags } from '../../cli/options.js';

export interface FeeQuoteOptions {
  asset?: string;
  network?: string;
  address?: string;
  /** At most one of amount and total, each a plain decimal string. */
  amount?: string;
  total?: string;
}

export function parseFeeQuoteOptions(raw: RawFlags): FeeQuoteOptions {
  const f = readFlags(raw);
  const amount = f.text('amount');
  const total = f.text('total');
  amountXorTotal(amount, total);
  return {
    asset: nameFlag('--asset', f.text('asset')),
    network: nameFlag('--network', f.text('network')),
    address: f.text('address'),
    amount: amountFlag('--amount', amount),
    total: amountFlag('--total', total),
  };
}
