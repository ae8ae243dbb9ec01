#!/usr/bin/env node
// Load with faults: many concurrent clients withdraw for a while from a local service (own process, file database)
// that injects 429/500/503 answers and connection resets before and after commit. Each client retries with the same
// ref_id until it gets a definite answer, as a client must. At the end: no balance ever went negative (polled during
// the run), no ref_id made more than one transfer, every transfer a client was told about exists and the reverse, and
// for every profile and asset the starting balance = final balance + the totals (amount + fee) of withdrawals that did
// not fail, to the last decimal, before and after every withdrawal settles. Exits 1 on any violation.
//
//   node scripts/proof/load.mjs [--clients 100] [--seconds 60] [--seed N] [--json]
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { seededRng as mulberry32 } from '../../dist/market-data/rng.js';

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const o = { clients: 100, seconds: 60, seed: Math.floor(Math.random() * 2 ** 31), json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') o.json = true;
    else if (a === '--clients' || a === '--seconds' || a === '--seed') {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0) throw new Error(`${a}: must be a number >= 0`);
      o[a.slice(2)] = v;
    } else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node scripts/proof/load.mjs [--clients 100] [--seconds 60] [--seed N] [--json]\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

// ---- Exact decimals as BigInt units of 10^-18 ---------------------------------------------------------------------
const SCALE = 18;
function units(s) {
  if (typeof s !== 'string' || !/^[0-9]*\.?[0-9]+$/.test(s))
    throw new Error(`not a decimal string: ${JSON.stringify(s)}`);
  const [i, f = ''] = s.split('.');
  if (f.length > SCALE) throw new Error(`${s} has more than ${SCALE} decimals`);
  return BigInt((i || '0') + f.padEnd(SCALE, '0'));
}
function show(n) {
  const neg = n < 0n;
  const s = (neg ? -n : n).toString().padStart(SCALE + 1, '0');
  const f = s.slice(-SCALE).replace(/0+$/, '');
  return `${neg ? '-' : ''}${s.slice(0, -SCALE)}${f ? `.${f}` : ''}`;
}
function fromUnits(n, decimals) {
  const s = n.toString().padStart(decimals + 1, '0');
  const f = s.slice(s.length - decimals).replace(/0+$/, '');
  return `${s.slice(0, s.length - decimals)}${f ? `.${f}` : ''}`;
}

// ---- HTTP ---------------------------------------------------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function request(base, method, path, { body, headers = {}, timeoutMs = 15_000 } = {}) {
  const url = new URL(path, base);
  return new Promise((resolve) => {
    const h = { ...headers };
    if (body !== undefined) h['content-length'] = Buffer.byteLength(body);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        headers: h,
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode, headers: res.headers, json, text });
        });
        res.on('error', (e) => resolve({ status: 0, error: e.code ?? e.message }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (e) => resolve({ status: 0, error: e.code ?? e.message }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const json = (base, method, path, body) =>
  request(base, method, path, {
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });

// ---- The scenario -------------------------------------------------------------------------------------------------
const ADDR = {
  BITCOIN: ['1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '1jkkQTKF4qkopGZg3G7A5KEN5o37sdEAd'],
  ETHEREUM: ['0xF0Aa84466e353E5390be37FE2934301c07c19a55', '0x000000000000000000000000000000000000dEaD'],
  BASE: ['0xF0Aa84466e353E5390be37FE2934301c07c19a55', '0x000000000000000000000000000000000000dEaD'],
  SOLANA: ['7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCdead'],
};
// Amount ranges in units of the asset's smallest step, so every decimal place gets used.
const KINDS = [
  { asset: 'BTC', network: 'BITCOIN', decimals: 8, min: 10_000n, max: 1_000_000n, fee: 2_000n },
  { asset: 'ETH', network: 'ETHEREUM', decimals: 18, min: 10n ** 15n, max: 2n * 10n ** 17n, fee: 5n * 10n ** 14n },
  { asset: 'ETH', network: 'BASE', decimals: 18, min: 10n ** 15n, max: 2n * 10n ** 17n, fee: 10n ** 13n },
  { asset: 'SOL', network: 'SOLANA', decimals: 9, min: 10n ** 7n, max: 5n * 10n ** 9n, fee: 5_000n },
  {
    asset: 'USDP',
    network: 'ETHEREUM',
    decimals: 6,
    min: 10n ** 6n,
    max: 50n * 10n ** 6n,
    fee: 2_500_000n,
    balanceAsset: 'USD',
  },
  { asset: 'USDP', network: 'SOLANA', decimals: 6, min: 10n ** 6n, max: 50n * 10n ** 6n, fee: 10_000n },
];
// Deliberately short of what the run wants, so balances reach zero and clients race for the last of them.
const START_BALANCES = {
  BTC: '0.05',
  ETH: '1.523456789012345678',
  SOL: '40.123456789',
  USD: '600.37',
  USDP: '600.123456',
};
// Credited to every profile twice a second while the run lasts, so balances hover near zero instead of running dry.
const REFILL = {
  BTC: '0.01000001',
  ETH: '0.300000000000000001',
  SOL: '8.000000001',
  USD: '120.01',
  USDP: '120.000001',
};
const PROFILES = 4;
const FAULTS = {
  rate429: 0.04,
  rate500: 0.04,
  rate503: 0.04,
  resetBeforeRate: 0.03,
  resetAfterRate: 0.05,
  latencyJitterMs: 3,
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const log = (s) => process.stderr.write(`${s}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'coinop-load-'));
  const child = spawn(
    process.execPath,
    [
      join(here, 'service-child.mjs'),
      JSON.stringify({
        dbFile: join(dir, 'load.db'),
        seed: opts.seed,
        config: { withdrawalSettleSeconds: 3, faults: { ...FAULTS, seed: opts.seed } },
      }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const violations = [];
  const violate = (s) => {
    if (violations.length < 50) violations.push(s);
  };
  try {
    const first = await new Promise((resolve, reject) => {
      const rl = createInterface({ input: child.stdout });
      rl.once('line', (l) => resolve(JSON.parse(l)));
      child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it started`)));
    });
    const base = first.baseUrl;

    // No transfer limits: the proof is about money and ref_ids under faults, and a long run sends more than the demo
    // limits allow a day (50,000,000 USD of crypto withdrawals).
    const limits = await json(base, 'PUT', '/_local/limits', { rules: [] });
    if (limits.status !== 200) throw new Error(`removing the transfer limits: ${limits.status} ${limits.text}`);
    // Profiles and their starting balances (the control API has no faults).
    const profiles = [];
    for (let i = 0; i < PROFILES; i++) {
      const p = await json(base, 'POST', '/_local/profiles', { nickname: `load-${i}` });
      if (p.status !== 200) throw new Error(`creating a profile: ${p.status} ${p.text}`);
      for (const [asset, amount] of Object.entries(START_BALANCES)) {
        const r = await json(base, 'POST', `/_local/profiles/${p.json.id}/balances`, { asset, amount });
        if (r.status !== 200) throw new Error(`crediting: ${r.status} ${r.text}`);
      }
      profiles.push(p.json.id);
    }
    const balancesNow = async () => {
      const r = await json(base, 'GET', '/_local/profiles');
      const out = {};
      for (const p of r.json.items) if (profiles.includes(p.id)) out[p.id] = p.balances;
      return out;
    };
    const start = await balancesNow();
    const credited = {};
    for (const p of profiles) for (const a of Object.keys(REFILL)) credited[`${p} ${a}`] = 0n;
    let refilling = true;
    const refiller = (async () => {
      while (refilling) {
        await sleep(500);
        if (!refilling) break;
        for (const p of profiles) {
          for (const [asset, each] of Object.entries(REFILL)) {
            // More clients want more: the refill grows with them (one REFILL per 20 clients).
            const amount = show(units(each) * BigInt(Math.max(1, Math.round(opts.clients / 20))));
            const r = await json(base, 'POST', `/_local/profiles/${p}/balances`, { asset, amount });
            if (r.status === 200) credited[`${p} ${asset}`] += units(amount);
            else violate(`refill: ${r.status} ${r.text.slice(0, 200)}`);
          }
        }
      }
    })();

    // Balances are polled all along: none may ever be negative.
    let polling = true;
    let polls = 0;
    const poller = (async () => {
      while (polling) {
        const b = await balancesNow();
        polls++;
        for (const [id, bal] of Object.entries(b)) {
          for (const [asset, amount] of Object.entries(bal))
            if (!/^[0-9]*\.?[0-9]+$/.test(amount)) violate(`balance ${asset} of ${id} was ${amount} during the run`);
        }
        await sleep(100);
      }
    })();

    const stats = {
      attempts: 0,
      created: 0,
      recovered409: 0,
      refused: 0,
      gaveUp: 0,
      statuses: {},
      networkErrors: 0,
      tokenFetches: 0,
    };
    const told = new Map(); // ref_id -> transfer id the client was told about
    const deadline = Date.now() + opts.seconds * 1000;
    const hardStop = deadline + 60_000;

    const clientRun = async (c) => {
      const rng = mulberry32(opts.seed * 1000 + c);
      let token;
      const getToken = async () => {
        for (;;) {
          stats.tokenFetches++;
          const r = await request(base, 'POST', '/oauth2/token', {
            body: 'grant_type=client_credentials&client_id=local-admin&client_secret=local-secret',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          if (r.status === 200) return r.json.access_token;
          if (Date.now() > hardStop) throw new Error('no token before the hard stop');
          await sleep(r.status === 0 ? 20 : 50 + rng() * 100);
        }
      };
      token = await getToken();
      let n = 0;
      while (Date.now() < deadline) {
        const k = KINDS[Math.floor(rng() * KINDS.length)];
        const amountUnits = k.min + BigInt(Math.floor(rng() * Number(k.max - k.min)));
        const byTotal = rng() < 0.3;
        const refId = `load-${opts.seed}-${c}-${n++}`;
        const body = JSON.stringify({
          profile_id: profiles[Math.floor(rng() * profiles.length)],
          asset: k.asset,
          crypto_network: k.network,
          destination_address: ADDR[k.network][rng() < 0.15 ? 1 : 0],
          [byTotal ? 'total' : 'amount']: fromUnits(amountUnits + (byTotal ? k.fee : 0n), k.decimals),
          ref_id: refId,
          ...(k.balanceAsset ? { balance_asset: k.balanceAsset } : {}),
        });
        for (let attempt = 1; ; attempt++) {
          if (Date.now() > hardStop) {
            stats.gaveUp++;
            break;
          }
          stats.attempts++;
          const r = await request(base, 'POST', '/v2/transfer/crypto-withdrawals', {
            body,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          });
          stats.statuses[r.status || r.error] = (stats.statuses[r.status || r.error] ?? 0) + 1;
          if (r.status === 200) {
            stats.created++;
            told.set(refId, r.json.id);
            break;
          }
          if (r.status === 409) {
            const existing = r.json?.meta?.existing;
            if (attempt === 1 || !existing?.id) violate(`${refId}: 409 on attempt ${attempt}: ${r.text.slice(0, 200)}`);
            else {
              stats.recovered409++;
              told.set(refId, existing.id);
            }
            break;
          }
          if (r.status === 403 && /insufficient/i.test(r.json?.type ?? '')) {
            stats.refused++;
            break;
          }
          if (r.status === 401) {
            token = await getToken();
            continue;
          }
          if (r.status === 0) {
            stats.networkErrors++;
            await sleep(10 + rng() * 40);
            continue;
          }
          if (r.status === 429 || r.status === 500 || r.status === 503) {
            const after = Number(r.headers['retry-after']);
            // Retry-After honoured, capped so a short run still sees many rounds.
            await sleep(Math.min(Number.isFinite(after) ? after * 1000 : 100, 500) * (0.5 + rng()));
            continue;
          }
          violate(`${refId}: unexpected answer ${r.status} ${r.text.slice(0, 200)}`);
          break;
        }
      }
    };
    const began = Date.now();
    await Promise.all(Array.from({ length: opts.clients }, (_, c) => clientRun(c)));
    const elapsed = (Date.now() - began) / 1000;
    polling = false;
    refilling = false;
    await Promise.all([poller, refiller]);

    // The books, with faults off so that reading them is plain.
    await json(base, 'PUT', '/_local/faults', {});
    const tok = (
      await request(base, 'POST', '/oauth2/token', {
        body: 'grant_type=client_credentials&client_id=local-admin&client_secret=local-secret',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    ).json.access_token;
    const transfersNow = async () => {
      const all = [];
      let cursor;
      do {
        const q = new URLSearchParams({ order: 'ASC', limit: '1000' });
        for (const p of profiles) q.append('profile_ids', p);
        if (cursor) q.set('page_cursor', cursor);
        const r = await request(base, 'GET', `/v2/transfer/transfers?${q}`, {
          headers: { authorization: `Bearer ${tok}` },
        });
        if (r.status !== 200) throw new Error(`listing transfers: ${r.status} ${r.text.slice(0, 200)}`);
        all.push(...r.json.items);
        cursor = r.json.next_page_cursor;
      } while (cursor);
      return all;
    };

    // One export is one consistent snapshot of balances and transfers (reading them apart races with settlement).
    const snapshot = async () => {
      const r = await json(base, 'GET', '/_local/state');
      if (r.status !== 200) throw new Error(`exporting the state: ${r.status}`);
      const transfers = r.json.tables.transfers
        .filter((row) => profiles.includes(row.profile_id))
        .map((row) => ({ ...JSON.parse(row.body), status: row.status }));
      const final = {};
      for (const b of r.json.tables.balances)
        if (profiles.includes(b.profile_id)) (final[b.profile_id] ??= {})[b.asset] = b.amount;
      return { transfers, final };
    };

    const check = (label, { transfers, final }) => {
      const byRef = new Map();
      for (const t of transfers) {
        if (!t.ref_id?.startsWith(`load-${opts.seed}-`))
          violate(`${label}: transfer ${t.id} has no ref_id of this run`);
        if (byRef.has(t.ref_id)) violate(`${label}: ref_id ${t.ref_id} made more than one transfer`);
        byRef.set(t.ref_id, t);
        if (units(t.amount) + units(t.fee) !== units(t.total))
          violate(`${label}: ${t.id}: amount ${t.amount} + fee ${t.fee} != total ${t.total}`);
      }
      for (const [ref, id] of told)
        if (byRef.get(ref)?.id !== id)
          violate(
            `${label}: ${ref}: the client was told of transfer ${id}, the service has ${byRef.get(ref)?.id ?? 'none'}`,
          );
      const unacknowledged = transfers.filter((t) => !told.has(t.ref_id)).length;
      if (unacknowledged > stats.gaveUp)
        violate(`${label}: ${unacknowledged} transfers no client was told about (clients gave up on ${stats.gaveUp})`);
      const sums = {};
      for (const t of transfers) {
        if (t.status === 'FAILED') continue;
        const key = `${t.profile_id} ${t.balance_asset}`;
        sums[key] = (sums[key] ?? 0n) + units(t.total);
      }
      const lines = [];
      for (const p of profiles) {
        for (const asset of Object.keys(START_BALANCES)) {
          const s = units(start[p][asset] ?? '0');
          const c = credited[`${p} ${asset}`] ?? 0n;
          const f = units(final[p]?.[asset] ?? '0');
          const w = sums[`${p} ${asset}`] ?? 0n;
          if (s + c !== f + w)
            violate(
              `${label}: ${asset} of ${p}: start ${show(s)} + credited ${show(c)} != final ${show(f)} + withdrawn ${show(w)} (off by ${show(s + c - f - w)})`,
            );
          lines.push({ profile: p, asset, start: show(s), credited: show(c), final: show(f), withdrawn: show(w) });
        }
      }
      const status = {};
      for (const t of transfers) status[t.status] = (status[t.status] ?? 0) + 1;
      return { transfers: transfers.length, status, lines };
    };

    const atEnd = check('at the end', await snapshot());
    // Let every withdrawal settle: failed ones are refunded, and the books must still balance.
    await json(base, 'POST', '/_local/clock/advance', { seconds: 60 });
    const settled = check('after settling', await snapshot());
    if (settled.status.PENDING) violate(`after settling: ${settled.status.PENDING} withdrawals still PENDING`);
    // The API's own list agrees with the export: every transfer, once.
    const listed = await transfersNow();
    if (listed.length !== settled.transfers || new Set(listed.map((t) => t.id)).size !== listed.length) {
      violate(
        `the transfer list has ${listed.length} items (${new Set(listed.map((t) => t.id)).size} distinct), the state ${settled.transfers}`,
      );
    }

    const report = {
      seed: opts.seed,
      clients: opts.clients,
      seconds: opts.seconds,
      elapsed_s: Math.round(elapsed * 10) / 10,
      attempts: stats.attempts,
      attempts_per_s: Math.round(stats.attempts / elapsed),
      withdrawals_created: stats.created,
      recovered_after_lost_answer_409: stats.recovered409,
      refused_insufficient_funds: stats.refused,
      gave_up: stats.gaveUp,
      network_errors: stats.networkErrors,
      answers: stats.statuses,
      token_fetches: stats.tokenFetches,
      balance_polls: polls,
      transfers_at_end: atEnd.status,
      transfers_after_settling: settled.status,
      violations,
    };
    if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      log(
        `load with faults: ${opts.clients} clients for ${opts.seconds} s (seed ${opts.seed}, faults ${JSON.stringify(FAULTS)})`,
      );
      log(
        `  ${stats.attempts} withdrawal requests (${report.attempts_per_s}/s): answers ${JSON.stringify(stats.statuses)}`,
      );
      log(
        `  ${stats.created} created, ${stats.recovered409} recovered with 409 after a lost answer, ${stats.refused} refused for funds, ${stats.gaveUp} given up`,
      );
      log(
        `  transfers at the end ${JSON.stringify(atEnd.status)}, after settling ${JSON.stringify(settled.status)}; ${polls} balance polls`,
      );
      for (const l of settled.lines)
        log(
          `  ${l.profile.slice(0, 8)} ${l.asset.padEnd(4)} start ${l.start} + credited ${l.credited} = final ${l.final} + withdrawn ${l.withdrawn}`,
        );
      log(
        violations.length
          ? `VIOLATIONS (${violations.length}):\n  ${violations.join('\n  ')}`
          : '  no violations: no negative balance, no ref_id twice, every balance accounted for to the last decimal',
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(violations.length ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`load: ${e.stack ?? e}\n`);
  process.exit(2);
});
