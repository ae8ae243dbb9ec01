// Evaluating a policy, as pure functions of the requests and what is known around them: each rule's verdict and
// violations, the 24-hour sums (the service's withdrawals plus this run, a request already sent counted once), the
// hours in a time zone (over midnight, daylight saving time), and when approvals are needed and enough.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ContentBuilder, type ApprovalResult } from '../../src/policy/approvals.js';
import {
  bookWriteProblem,
  evaluate,
  type PolicyContext,
  type PolicyRequest,
  type PolicyVerdict,
} from '../../src/policy/evaluate.js';
import { checkWithdrawals } from '../../src/policy/check.js';
import { inWindow, parseWindow, type HoursWindow } from '../../src/policy/hours.js';
import type { ServiceClient } from '../../src/client/service-client.js';
import { parsePolicy } from '../../src/policy/load.js';
import { BTC_ADDRESS as BTC, ETH_ADDRESS as ETH } from '../support/addresses.js';

const BTC2 = 'bc1qaf3e3jk48cp6fzyyyssgxzshvqnsg8z356z7xm';
const NOON_UTC = Date.parse('2026-06-15T12:00:00Z');

const policy = (yaml: string) => parsePolicy(yaml, 'p.yaml');
const w = (over: Partial<PolicyRequest> = {}): PolicyRequest => ({
  kind: 'withdrawal',
  asset: 'BTC',
  amount: '0.1',
  crypto_network: 'BITCOIN',
  destination_address: BTC,
  ...over,
});
const ctx = (over: Partial<PolicyContext> = {}): PolicyContext => ({
  environment: 'production',
  now: NOON_UTC,
  clock: 'service',
  ...over,
});
const rule = (v: PolicyVerdict, name: string) => v.rules.find((r) => r.rule === name)!;
const messages = (v: PolicyVerdict, name: string) =>
  rule(v, name).violations.map((x) => (x.row !== undefined ? `row ${x.row}: ${x.message}` : x.message));

/** A BTC address, another one, an ETH address on ETHEREUM and on BASE: rows 1 to 4. */
const FOUR_ROWS = [
  w({ row: 1 }),
  w({ row: 2, destination_address: BTC2 }),
  w({ row: 3, destination_address: ETH, crypto_network: 'ETHEREUM', asset: 'ETH' }),
  w({ row: 4, destination_address: ETH, crypto_network: 'BASE', asset: 'ETH' }),
];

describe('evaluating a policy', () => {
  it('without a policy file every rule is off and everything is allowed', () => {
    const v = evaluate(undefined, [w({ amount: '1000000' })], ctx());
    expect(v).toMatchObject({ allowed: true, file: null, requests: 1, clock: 'service' });
    expect(v.rules.map((r) => r.status)).toEqual(Array(8).fill('off'));
  });

  it('checks every row and lists every violation, each with its row', () => {
    const p = policy('networks: [BITCOIN]\nassets: [BTC]\nmax_per_withdrawal:\n  BTC: 0.5\n  "*": 10\n');
    const rows = [
      w({ row: 1 }),
      w({ row: 2, amount: '0.6' }),
      w({ row: 3, asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: ETH, amount: '11' }),
      w({ row: 4, amount: '0.5' }),
    ];
    const v = evaluate(p, rows, ctx());
    expect(v.allowed).toBe(false);
    expect(v.requests).toBe(4);
    expect(messages(v, 'networks')).toEqual(['row 3: ETHEREUM is not a network the policy allows']);
    expect(messages(v, 'assets')).toEqual(['row 3: ETH is not an asset the policy allows']);
    expect(messages(v, 'max_per_withdrawal')).toEqual([
      'row 2: 0.6 BTC is over the most one withdrawal may send, 0.5 BTC',
      'row 3: 11 ETH is over the most one withdrawal may send, 10 ETH',
    ]);
    expect(rule(v, 'destinations').status).toBe('off');
    expect(evaluate(p, [rows[0], rows[3]], ctx()).allowed).toBe(true);
  });

  it('bookmarked_only: the address must be bookmarked in the address book, on the same network', () => {
    const p = policy('destinations: bookmarked_only\n');
    const book = [
      { address: BTC, crypto_network: 'BITCOIN', nickname: 'cold', bookmarked: true },
      { address: BTC2, crypto_network: 'BITCOIN', nickname: 'hot', bookmarked: false },
      { address: ETH.toLowerCase(), crypto_network: 'ETHEREUM', bookmarked: true },
    ];
    const v = evaluate(p, FOUR_ROWS, ctx({ book }));
    expect(messages(v, 'destinations')).toEqual([
      `row 2: ${BTC2} (BITCOIN) is in the address book as hot but not bookmarked`,
      `row 4: ${ETH} (BASE) is not a bookmarked address of the address book`,
    ]);
  });

  it('verified_only: the address must have an APPROVED verification by the service, on the same network', () => {
    const p = policy('verified_only: true\n');
    const verified = [
      { network: 'BITCOIN', address: BTC },
      { network: 'ETHEREUM', address: ETH.toLowerCase() },
    ];
    const v = evaluate(p, FOUR_ROWS, ctx({ verified }));
    expect(v.allowed).toBe(false);
    expect(messages(v, 'verified_only')).toEqual([
      `row 2: ${BTC2} (BITCOIN) is not verified by the service as the customer's own: prove it with coinop addresses verify --network BITCOIN --address ${BTC2}`,
      `row 4: ${ETH} (BASE) is not verified by the service as the customer's own (it is on ETHEREUM, not BASE): prove it with coinop addresses verify --network BASE --address ${ETH}`,
    ]);
    expect(rule(v, 'destinations').status).toBe('off');
    // Internal transfers and fiat withdrawals have no crypto address: the rule does not judge them.
    const internal = evaluate(p, [{ kind: 'internal', asset: 'BTC', amount: '1' }], ctx());
    expect(rule(internal, 'verified_only').status).toBe('n/a');
    const fiat = evaluate(p, [{ kind: 'fiat', asset: 'USD', amount: '1', fiat_account_id: 'fa' }], ctx());
    expect(fiat.allowed).toBe(true);
    expect(rule(fiat, 'verified_only').status).toBe('pass');
    expect(rule(evaluate(policy('assets: [BTC]\n'), [w()], ctx()), 'verified_only').status).toBe('off');
  });

  it('a list of destinations: nicknames resolve through the address book, addresses match as written', () => {
    const p = policy(`destinations: [cold, ${ETH.toLowerCase()}]\n`);
    const book = [{ address: BTC, crypto_network: 'BITCOIN', nickname: 'cold' }];
    const v = evaluate(
      p,
      [
        w({ row: 1 }),
        w({ row: 2, destination_address: BTC2 }),
        w({ row: 3, destination_address: ETH, crypto_network: 'BASE', asset: 'ETH' }),
      ],
      ctx({ book }),
    );
    expect(messages(v, 'destinations')).toEqual([`row 2: ${BTC2} (BITCOIN) is not among the policy's destinations`]);
    // Without the book's answer, a nickname matches nothing: never more than the policy says.
    expect(messages(evaluate(p, [w()], ctx({ book: [] })), 'destinations')).toEqual([
      `${BTC} (BITCOIN) is not among the policy's destinations`,
    ]);
  });

  it('a pinned nickname allows its pinned address only: the address book cannot re-point it', () => {
    const p = policy(`destinations:\n  - cold\n  - {nickname: treasury, address: ${BTC}, network: BITCOIN}\n`);
    // The book moved treasury to BTC2 (and holds BTC under another name): BTC still goes, BTC2 does not.
    const book = [
      { address: BTC2, crypto_network: 'BITCOIN', nickname: 'treasury' },
      { address: BTC, crypto_network: 'BITCOIN', nickname: 'was-treasury' },
    ];
    const v = evaluate(
      p,
      [w({ row: 1 }), w({ row: 2, destination_address: BTC2 }), w({ row: 3, crypto_network: 'BITCOIN_CASH' })],
      ctx({ book }),
    );
    expect(messages(v, 'destinations')).toEqual([
      `row 2: ${BTC2} (BITCOIN) is treasury in the address book, but the policy pins treasury to ${BTC} (BITCOIN)`,
      `row 3: ${BTC} (BITCOIN_CASH) is not among the policy's destinations`,
    ]);
    // Pinned, the address needs no book at all.
    expect(rule(evaluate(p, [w()], ctx({ book: [] })), 'destinations').status).toBe('pass');
  });

  it('an address-book write: an allowed nickname only where it is, where the policy pins it, or on a listed address', () => {
    const p = policy(
      `destinations:\n  - cold\n  - ${ETH}\n  - {nickname: treasury, address: ${BTC}, network: BITCOIN}\n`,
    ).policy;
    const write = (nickname: string, address: string, crypto_network = 'BITCOIN') => ({
      nickname,
      address,
      crypto_network,
    });
    const cold = { address: BTC, crypto_network: 'BITCOIN', nickname: 'cold' };
    expect(bookWriteProblem(p, write('hot', BTC2), [])).toBeUndefined();
    expect(bookWriteProblem(p, write('cold', BTC), [cold])).toBeUndefined();
    expect(bookWriteProblem(p, write('cold', BTC2), [cold])).toBe(
      `cold is a destination the policy allows; giving it to ${BTC2} (BITCOIN) in place of ${BTC} (BITCOIN) would let withdrawals go there without a change of the policy file (pin it there: destinations: [{nickname: cold, address: ${BTC2}, network: BITCOIN}])`,
    );
    expect(bookWriteProblem(p, write('cold', BTC2), [])).toMatch(
      /^cold is a destination the policy allows; giving it to \S+ \(BITCOIN\) would let/,
    );
    expect(bookWriteProblem(p, write('cold', ETH.toLowerCase(), 'ETHEREUM'), [])).toBeUndefined();
    expect(bookWriteProblem(p, write('treasury', BTC), [])).toBeUndefined();
    expect(bookWriteProblem(p, write('treasury', BTC, 'BITCOIN_CASH'), [])).toBe(
      `the policy pins treasury to ${BTC} (BITCOIN); the address book cannot give it to ${BTC} (BITCOIN_CASH)`,
    );
    // bookmarked_only, or no destinations rule: the book's nicknames are not what the policy trusts.
    expect(
      bookWriteProblem(policy('destinations: bookmarked_only\n').policy, write('cold', BTC2), [cold]),
    ).toBeUndefined();
  });

  it('a listed address matches its other spellings on a network it is valid on, and only there (issue 23)', () => {
    const BC1 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    const CASH = 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a';
    const p = policy(
      `destinations: [${BC1.toUpperCase()}, ${CASH.slice('bitcoincash:'.length)}, ${ETH.toLowerCase()}, ${BTC}]\n`,
    );
    const bch = { asset: 'BCH', crypto_network: 'BITCOIN_CASH' };
    const v = evaluate(
      p,
      [
        // Other spellings of listed destinations: the same destination.
        w({ row: 1, destination_address: BC1 }),
        w({ row: 2, destination_address: CASH, ...bch }),
        w({ row: 3, destination_address: CASH.toUpperCase(), ...bch }),
        w({ row: 4, destination_address: `0x${ETH.slice(2).toUpperCase()}`, crypto_network: 'BASE', asset: 'ETH' }),
        w({ row: 5 }),
        // A listed address on a network it is no address of.
        w({ row: 6, destination_address: ETH, crypto_network: 'SOLANA', asset: 'SOL' }),
        w({ row: 7, destination_address: BTC, ...bch }),
        w({ row: 8, destination_address: BC1, crypto_network: 'LITECOIN', asset: 'LTC' }),
      ],
      ctx(),
    );
    expect(messages(v, 'destinations')).toEqual([
      `row 6: ${ETH} (SOLANA) is not among the policy's destinations`,
      `row 7: ${BTC} (BITCOIN_CASH) is not among the policy's destinations`,
      `row 8: ${BC1} (LITECOIN) is not among the policy's destinations`,
    ]);
    // The address book's entries compare the same way.
    const book = [
      { address: CASH.slice('bitcoincash:'.length).toUpperCase(), crypto_network: 'BITCOIN_CASH', bookmarked: true },
    ];
    const bookmarked = evaluate(
      policy('destinations: bookmarked_only\n'),
      [w({ destination_address: CASH, ...bch })],
      ctx({ book }),
    );
    expect(bookmarked.allowed).toBe(true);
  });

  it("24 hours: the service's withdrawals plus this run, per asset; a request the service holds counts once", () => {
    const p = policy('max_per_24h:\n  BTC: 1\n');
    const recent = [
      { asset: 'BTC', amount: '0.4', ref_id: 'a' },
      { asset: 'BTC', amount: '0.3', ref_id: 'b' },
      { asset: 'ETH', amount: '100' },
    ];
    const since = NOON_UTC - 86_400_000;
    const ok = evaluate(p, [w({ amount: '0.3', ref_id: 'c' })], ctx({ recent, since }));
    expect(ok.allowed).toBe(true);
    expect(rule(ok, 'max_per_24h').detail).toBe('BTC 0.7 sent + 0.3 now of 1');
    const over = evaluate(p, [w({ row: 1, amount: '0.2' }), w({ row: 2, amount: '0.2' })], ctx({ recent, since }));
    expect(messages(over, 'max_per_24h')).toEqual([
      "BTC: 0.7 sent since 2026-06-14T12:00:00.000Z (the service's withdrawals) + 0.4 in this run = 1.1, over the 24-hour limit of 1 BTC (from row 2 on)",
    ]);
    // A resumed row whose ref_id the service already holds is not counted again.
    const again = evaluate(p, [w({ amount: '0.3', ref_id: 'b' }), w({ amount: '0.3', ref_id: 'c' })], ctx({ recent }));
    expect(again.allowed).toBe(true);
  });

  it('hours: in the zone of the window, over midnight too', () => {
    const zurich = parseWindow('09:00-18:00 Europe/Zurich') as HoursWindow;
    // Summer: Zurich is UTC+2; winter: UTC+1.
    expect(inWindow(zurich, Date.parse('2026-06-15T06:59:00Z'))).toBe(false);
    expect(inWindow(zurich, Date.parse('2026-06-15T07:00:00Z'))).toBe(true);
    expect(inWindow(zurich, Date.parse('2026-01-15T07:30:00Z'))).toBe(false);
    expect(inWindow(zurich, Date.parse('2026-01-15T16:59:00Z'))).toBe(true);
    expect(inWindow(zurich, Date.parse('2026-01-15T17:00:00Z'))).toBe(false);
    const night = parseWindow('22:00-06:00 UTC') as HoursWindow;
    expect([23, 2, 6, 12, 22].map((h) => inWindow(night, Date.UTC(2026, 0, 1, h)))).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);
    const p = policy('hours: "09:00-11:00 Europe/Zurich"\n');
    const v = evaluate(p, [w()], ctx({ now: NOON_UTC }));
    expect(messages(v, 'hours')).toEqual([
      "sending is allowed 09:00-11:00 Europe/Zurich; it is 14:00 Europe/Zurich (by the service's clock)",
    ]);
    expect(evaluate(p, [w()], ctx({ now: NOON_UTC - 4 * 3600_000 })).allowed).toBe(true);
  });

  it('internal transfers: the asset and hours rules apply, the withdrawal rules do not', () => {
    const p = policy('assets: [USD]\nmax_per_withdrawal:\n  "*": 1\ndestinations: bookmarked_only\n');
    const internal: PolicyRequest = { kind: 'internal', asset: 'BTC', amount: '5' };
    const v = evaluate(p, [internal], ctx());
    expect(messages(v, 'assets')).toEqual(['BTC is not an asset the policy allows']);
    expect(rule(v, 'max_per_withdrawal').status).toBe('n/a');
    expect(rule(v, 'destinations').status).toBe('n/a');
    expect(evaluate(p, [{ ...internal, asset: 'USD' }], ctx()).allowed).toBe(true);
  });
});

describe('when approvals are needed', () => {
  const key = () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    return `ed25519:${Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('base64')}`;
  };
  const p = policy(`approvals:\n  required: 2\n  keys: [${key()}, ${key()}, ${key()}]\n  above: { BTC: 1 }\n`);
  const content = (amount: string, asset = 'BTC') => {
    const b = new ContentBuilder({ kind: 'batch', environment: 'production', service: 'x', profileId: '-' });
    b.add({ asset, crypto_network: 'BITCOIN', amount, destination_address: BTC });
    return b.finish();
  };
  const valid = (id: string): ApprovalResult => ({ file: `${id}.txt`, status: 'valid', key_id: id });

  it('not in an environment the rule does not name; not below the threshold', () => {
    expect(rule(evaluate(p, [w()], ctx({ environment: 'sandbox' })), 'approvals')).toMatchObject({
      status: 'n/a',
      detail: 'approvals are needed in production, not sandbox',
    });
    const v = evaluate(p, [w({ amount: '1' })], ctx({ approvals: { content: content('1'), results: [] } }));
    expect(rule(v, 'approvals')).toMatchObject({ status: 'pass', detail: 'not needed: BTC 1 is not above 1' });
  });

  it('above it (or for an asset the threshold does not name) the required count of valid approvals', () => {
    const need = (c: ReturnType<typeof content>, results: ApprovalResult[]) =>
      evaluate(p, [w()], ctx({ approvals: { content: c, results } }));
    const one = need(content('1.5'), [valid('a'), { file: 'b.txt', status: 'duplicate', reason: 'the same key' }]);
    expect(one.allowed).toBe(false);
    expect(messages(one, 'approvals')).toEqual([
      expect.stringMatching(/^needs 2 approvals by distinct keys of the policy over exactly this content .*has 1$/),
      'b.txt: not counted: the same key',
    ]);
    expect(need(content('1.5'), [valid('a'), valid('b')]).allowed).toBe(true);
    expect(need(content('0.001', 'ETH'), [valid('a')]).allowed).toBe(false);
    expect(one.approvals).toHaveLength(2);
  });
});

describe('checking a run whose number of requests is known (a batch: one per valid row)', () => {
  // The requests of a batch are its staged rows, read from disk on every pass: without a policy there is nothing to
  // check in them, so a known count spares that pass; with a policy every request is still checked.
  const counted = (rows: PolicyRequest[]) => {
    let reads = 0;
    return {
      reads: () => reads,
      requests: function* () {
        reads++;
        yield* rows;
      },
    };
  };
  const options = (requests: () => Iterable<PolicyRequest>, loaded: ReturnType<typeof policy> | undefined) => ({
    client: {} as ServiceClient,
    policy: loaded,
    environment: 'production',
    requests,
    count: 4,
    machineNow: () => NOON_UTC,
  });

  it('without a policy file, the count is the verdict’s and no request is read', async () => {
    const run = counted(FOUR_ROWS);
    const v = await checkWithdrawals(options(run.requests, undefined));
    expect(v).toMatchObject({ allowed: true, file: null, requests: 4 });
    expect(run.reads()).toBe(0);
  });

  it('with a policy, every request is read and checked whatever the count', async () => {
    const run = counted(FOUR_ROWS);
    const v = await checkWithdrawals(options(run.requests, policy('networks: [BITCOIN]\n')));
    expect(v.allowed).toBe(false);
    expect(messages(v, 'networks')).toEqual([expect.stringMatching(/^row 3: /), expect.stringMatching(/^row 4: /)]);
    expect(run.reads()).toBeGreaterThan(0);
  });
});
