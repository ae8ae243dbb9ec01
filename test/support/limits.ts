// The local service's default transfer limits, as its limits endpoint and coinop limits show them.

/** The limit on each crypto withdrawal. */
export const PER_WITHDRAWAL_LIMIT = {
  rule_id: 'crypto-withdrawal-per-transfer',
  transfer_types: ['CRYPTO_WITHDRAWAL'],
  period_seconds: '0',
  limit: '10000000',
  remaining: '10000000',
  limit_asset: 'USD',
};
