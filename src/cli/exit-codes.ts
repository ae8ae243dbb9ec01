// The exit codes of coinop: few, stable and documented in `coinop --help`.

export const EXIT = {
  ok: 0,
  /** The service refused the request (a problem answer other than authentication); coinop doctor: a check failed. */
  api: 1,
  /** A flag, argument or value is missing or invalid; nothing was sent. */
  usage: 2,
  /** The operator said no, or pressed Ctrl-C. */
  cancelled: 3,
  /** No credentials, a 401, or a token that lacks the scope. */
  auth: 4,
  /** The service could not be reached, or timed out after retries. */
  network: 5,
  /** The request went through but the outcome failed: a transfer ended FAILED under --wait, or batch rows failed. */
  failed: 6,
  /** A batch where no row was sent. */
  nothingSent: 7,
  /** Refused by the profile's policy (a rule, missing approvals, or a policy file that does not load); nothing sent. */
  policy: 8,
  /** The audit log does not verify: a line was edited, removed, inserted or moved (coinop audit verify). */
  integrity: 9,
  /** A watch (transfers watch, --wait) gave up at its --wait-timeout with transfers still PENDING; they go on. */
  timeout: 10,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_HELP = `Exit codes:
  0  success
  1  API error: the service refused the request (coinop doctor: a check failed)
  2  usage or validation error: nothing was sent
  3  cancelled: the operator said no, or Ctrl-C
  4  authentication: cannot authenticate, 401, or missing scope (run: coinop login)
  5  network: the service is unreachable or timed out after retries
  6  failed outcome: a transfer ended FAILED under --wait, or some batch rows failed
  7  nothing sent: no row of a batch was sent
  8  refused by policy: a rule of the profile's policy, or missing approvals (coinop policy show); nothing was sent
  9  the audit log does not verify: a line was edited, removed, inserted or moved (coinop audit verify)
  10 still pending: a watch (transfers watch, --wait) reached its --wait-timeout`;
