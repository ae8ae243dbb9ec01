// coinop fee quote's flags, declared once (the withdrawal request's, in fee quote's words): index.ts declares them,
// options.ts reads their typed values.
import { defineFlags } from '../../cli/flags.js';
import { WITHDRAWAL_FIELD_SPECS as W } from '../../cli/withdrawal-specs.js';

export const FEE_QUOTE_FLAG_TABLE = defineFlags({
  asset: { ...W.asset, help: 'asset to withdraw' },
  network: { ...W.network, help: 'crypto network' },
  address: W.address,
  amount: { ...W.amount, help: 'amount to send' },
  total: { ...W.total, help: 'total including the fee (instead of --amount)' },
});
