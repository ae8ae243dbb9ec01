// The exit codes of coinop: few, stable and documented in `coinop --help`. Each code's comment is its meaning in
// the table of docs/output-errors-exit-codes.md, which `node scripts/docs-exit-codes.mjs` writes from this file
// (test/structure/docs.test.ts fails when the two differ).

export const EXIT = {
  /** success */
  ok: 0,
  /** API error: the service refused the request; `coinop doctor`: a check failed */
  api: 1,
  /** usage or validation error: nothing was sent */
  usage: 2,
  /** cancelled: the operator said no, or Ctrl-C (at a prompt, during a request, or in a live view) */
  cancelled: 3,
  /** authentication: cannot authenticate, 401, or missing scope */
  auth: 4,
  /**
   * network: the service is unreachable, gave no answer, timed out, or answered 502/503/504 after every retry
   * (unavailable); a stream with `--count` that cannot reach it
   */
  network: 5,
  /** failed outcome: a transfer ended FAILED under `--wait`, or some batch rows failed */
  failed: 6,
  /** nothing sent: no row of a batch was sent */
  nothingSent: 7,
  /**
   * refused by policy: a rule of the context's policy, missing approvals, or a policy file that does not load;
   * nothing was sent
   */
  policy: 8,
  /**
   * the audit log does not verify: a line was edited, removed, inserted or moved (`coinop audit verify`,
   * `audit export`)
   */
  integrity: 9,
  /** still pending: a watch (`transfers watch`, `--wait`) reached its `--wait-timeout`; the transfers go on */
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
  8  refused by policy: a rule of the context's policy, or missing approvals (coinop policy show); nothing was sent
  9  the audit log does not verify: a line was edited, removed, inserted or moved (coinop audit verify)
  10 still pending: a watch (transfers watch, --wait) reached its --wait-timeout`;
