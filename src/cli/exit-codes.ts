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
  /**
   * not reconciled: `coinop reconcile` found a line that is not explained (failed, paid otherwise, intended but not
   * found, never intended, paid twice)
   */
  unreconciled: 11,
  /** a close bundle does not verify: a file's SHA-256 is not the manifest's (`coinop close verify`) */
  bundleChanged: 12,
  /** a close bundle does not verify: a file the manifest lists, or the manifest itself, is missing */
  bundleMissing: 13,
  /** a close bundle does not verify: a file the manifest does not list was added */
  bundleExtra: 14,
  /** a close bundle does not verify: the signature is missing, does not match, or is not the given key's */
  bundleSignature: 15,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Each code's line in `--help` and the man page: shorter than its meaning above, said for someone at the terminal. */
const EXIT_HELP: Record<keyof typeof EXIT, string> = {
  ok: 'success',
  api: 'API error: the service refused the request (coinop doctor: a check failed)',
  usage: 'usage or validation error: nothing was sent',
  cancelled: 'cancelled: the operator said no, or Ctrl-C',
  auth: 'authentication: cannot authenticate, 401, or missing scope (run: coinop login)',
  network: 'network: the service is unreachable or timed out after retries',
  failed: 'failed outcome: a transfer ended FAILED under --wait, or some batch rows failed',
  nothingSent: 'nothing sent: no row of a batch was sent',
  policy:
    "refused by policy: a rule of the context's policy, or missing approvals (coinop policy show); nothing was sent",
  integrity: 'the audit log does not verify: a line was edited, removed, inserted or moved (coinop audit verify)',
  timeout: 'still pending: a watch (transfers watch, --wait) reached its --wait-timeout',
  unreconciled: 'not reconciled: coinop reconcile found a line that is not explained (docs/reconciliation.md)',
  bundleChanged: "close verify: a file's SHA-256 is not the manifest's",
  bundleMissing: 'close verify: a file the manifest lists (or the manifest) is missing',
  bundleExtra: 'close verify: a file the manifest does not list was added',
  bundleSignature: 'close verify: the signature is missing, does not match, or is not the given key',
};

/** The exit codes as `--help` and the man page list them: every code of EXIT, in its order. */
export const EXIT_CODE_HELP = [
  'Exit codes:',
  ...(Object.keys(EXIT) as (keyof typeof EXIT)[]).map((k) => `  ${String(EXIT[k]).padEnd(3)}${EXIT_HELP[k]}`),
].join('\n');
