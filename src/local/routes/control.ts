// The control API under /_local (no token, loopback only): health, reset, profiles and balances, the clock,
// state export/import, faults and the request journal.
import type { Router } from '../router.js';
import { ASSETS, decimalPlaces, isAmountString, dec, problems } from '../../contract/index.js';
import { isoMillis } from '../service-clock.js';
import { defaultFaults, defaultStreamFaults, mergeConfig, type LocalConfig } from '../config.js';
import type { Service } from '../route-helpers.js';
import { createDepositInstructions } from '../deposit-instructions.js';
import { credit, settleDue } from '../ledger.js';
import { exportState, importState, resetState } from '../state.js';
import { SCHEMA_VERSION } from '../store.js';
import { randomUUID } from '../lazy-crypto.js';
import { createRequire } from 'node:module';

// node:v8 on first use (a state import): not a cost of every start.
const require = createRequire(import.meta.url);

const CREDIT_MAX = '1000000000000000';

export function bad(field: string, rule: string): never {
  throw problems.badRequest(`${field}: ${rule}`, { issues: [{ field, rule }] });
}

export function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) bad('', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

export function onlyKnown(body: Record<string, unknown>, known: string[]): void {
  for (const k of Object.keys(body)) if (!known.includes(k)) bad(k, 'is not a known field');
}

/** The largest state import: the setting, capped at an eighth of the heap (a parsed export takes ~6x its size). */
export function stateImportLimit(config: LocalConfig): number {
  return Math.min(
    config.stateBodyLimitBytes,
    Math.floor((require('node:v8') as typeof import('node:v8')).getHeapStatistics().heap_size_limit / 8),
  );
}

function stateTooLarge(limit: number): string {
  return (
    `the state is larger than ${limit} bytes (${(limit / 2 ** 20).toFixed(0)} MiB), the most PUT /_local/state takes ` +
    '(the stateBodyLimitBytes setting, at most an eighth of the heap; an export is about 1 KB per transfer and per event)'
  );
}

export function registerControl(app: Router, svc: Service): void {
  app.get('/_local/health', async () => ({
    status: 'ok',
    now: isoMillis(svc.clock.now()),
    clock_offset_ms: svc.clock.offsetMs(),
    seed: svc.seed,
    db: svc.store.file,
    schema_version: SCHEMA_VERSION,
    instance_id: svc.store.instanceId(),
  }));

  app.post('/_local/reset', async () => {
    resetState(svc);
    svc.requestLog.clear();
    svc.requestLimits.clear();
    return { status: 'ok' };
  });

  registerProfiles(app, svc);
  registerClockAndState(app, svc);
  registerFaults(app, svc);

  app.get('/_local/journal', async (req) => {
    const raw = (req.query as Record<string, unknown>).limit;
    const limit = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
    return { items: svc.requestLog.recent(limit) };
  });
}

function profileView(svc: Service, id: string) {
  const p = svc.store.profile(id)!;
  const balances: Record<string, string> = {};
  for (const b of svc.store.balances(id)) balances[b.asset] = b.amount;
  // memo_ids live on deposit instructions; a profile shows the first of its own.
  const memoId = svc.store.firstMemoId(id) ?? null;
  return { id: p.id, customer_id: p.customer_id, memo_id: memoId, nickname: p.nickname, type: p.type, balances };
}

/** The body of POST /_local/profiles/{id}/balances, checked: an asset and a positive amount it can hold. */
function creditBody(raw: unknown): { asset: string; amount: string } {
  const body = objectBody(raw);
  onlyKnown(body, ['asset', 'amount']);
  if (typeof body.asset !== 'string' || !ASSETS[body.asset])
    bad('asset', `must be one of ${Object.keys(ASSETS).join(', ')}`);
  return { asset: body.asset as string, amount: creditAmount(body.asset as string, body.amount) };
}

/** An amount to add to a balance of a known asset: positive, capped, within the asset's precision (else a 400). */
export function creditAmount(asset: string, amount: unknown): string {
  if (!isAmountString(amount) || dec(amount).lte(0)) bad('amount', 'must be a positive decimal string such as 10.5');
  // Balances are exact to 80 significant digits; a cap per credit keeps every balance far inside that.
  if (dec(amount).gt(CREDIT_MAX)) bad('amount', `must be at most ${CREDIT_MAX} per credit`);
  // A balance finer than the asset's precision could never be withdrawn to the last unit.
  const decimals = ASSETS[asset].decimals;
  if (decimalPlaces(amount) > decimals) bad('amount', `has more than the ${decimals} decimals ${asset} allows`);
  return amount;
}

function registerProfiles(app: Router, svc: Service): void {
  app.get('/_local/profiles', async () => {
    settleDue(svc);
    return { items: svc.store.profiles().map((p) => profileView(svc, p.id)) };
  });

  app.post('/_local/profiles', async (req) => {
    const body = objectBody(req.body ?? {});
    onlyKnown(body, ['id', 'customer_id', 'memo_id', 'nickname']);
    for (const k of ['id', 'customer_id', 'memo_id', 'nickname']) {
      if (
        body[k] !== undefined &&
        (typeof body[k] !== 'string' || !(body[k] as string).length || (body[k] as string).length > 128)
      )
        bad(k, 'must be a string of 1 to 128 characters');
    }
    const id = (body.id as string | undefined) ?? randomUUID();
    svc.store.immediate(() => {
      if (svc.store.profile(id))
        throw problems.alreadyExists(`profile ${id} already exists`, { existing: profileView(svc, id) });
      if (body.memo_id !== undefined && svc.store.depositInstructionsByMemo(body.memo_id as string))
        bad('memo_id', 'is already used by another profile');
      svc.store.insertProfile({
        id,
        customer_id: (body.customer_id as string | undefined) ?? randomUUID(),
        nickname: (body.nickname as string | undefined) ?? null,
        created_ms: svc.clock.now(),
      });
      // A memo_id given here is held by WIRE deposit instructions of the new profile, as every memo_id is.
      if (body.memo_id !== undefined)
        createDepositInstructions(svc, { profile_id: id, fiat_network: 'WIRE' }, { memoId: body.memo_id as string });
    });
    return profileView(svc, id);
  });

  app.post('/_local/profiles/:id/balances', async (req) => {
    const { id } = req.params as { id: string };
    const { asset, amount } = creditBody(req.body);
    const balance = credit(svc, id, asset, amount);
    return { profile_id: id, asset, balance };
  });
}

function registerClockAndState(app: Router, svc: Service): void {
  app.post('/_local/clock/advance', async (req) => {
    const body = objectBody(req.body);
    onlyKnown(body, ['seconds']);
    const s = body.seconds;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 10 * 365 * 86400)
      bad('seconds', 'must be a number of seconds between 0 and 315360000');
    const now = svc.clock.advance(s as number);
    settleDue(svc);
    return { now: isoMillis(now), clock_offset_ms: svc.clock.offsetMs() };
  });

  app.get('/_local/state', async () => exportState(svc));

  // An export grows with the history, so this one route takes far bigger bodies than the API does, up to what the
  // service can hold while it parses one.
  app.put(
    '/_local/state',
    { bodyLimit: () => stateImportLimit(svc.config), bodyTooLarge: stateTooLarge },
    async (req) => {
      importState(svc, req.body);
      return { status: 'ok' };
    },
  );
}

function registerFaults(app: Router, svc: Service): void {
  // What PUT puts the rate limits back to: the settings the service started with (on, unless started without them).
  const startRateLimits = { ...svc.config.rateLimits };
  const faultsView = () => ({
    ...svc.config.faults,
    rateLimits: svc.config.rateLimits,
    stream: svc.config.stream.faults,
  });

  app.get('/_local/faults', async () => faultsView());

  // PUT sets the faults to exactly the body over the defaults, so PUT {} switches every fault off (and puts the rate
  // limits back as the service started).
  app.put('/_local/faults', async (req) => {
    const body = { ...objectBody(req.body) };
    const { rateLimits, stream, ...faults } = body;
    const f = mergeConfig(defaultFaults(), faults);
    const r = mergeConfig(startRateLimits, rateLimits, 'rateLimits');
    const s = mergeConfig(defaultStreamFaults(), stream, 'stream');
    const issues = [...f.issues, ...r.issues, ...s.issues];
    if (issues.length) throw problems.badRequest(issues.map((i) => `${i.field}: ${i.rule}`).join('; '), { issues });
    // Assigned in place: the stream and other holders of these objects see the change.
    Object.assign(svc.config.faults, f.value);
    Object.assign(svc.config.rateLimits, r.value);
    Object.assign(svc.config.stream.faults, s.value);
    svc.faults.restart();
    svc.requestLimits.clear();
    return faultsView();
  });
}
