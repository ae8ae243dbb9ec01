// The control API under /_local (no token, loopback only): health, reset, profiles and balances, the clock,
// state export/import, faults and the request journal.
import type { Router } from '../router.js';
import { ASSETS, decimalPlaces, isAmountString, dec, problems } from '../../api/index.js';
import { iso } from '../clock.js';
import { defaultFaults, defaultRateLimits, defaultStreamFaults, mergeConfig } from '../config.js';
import type { Service } from '../http.js';
import { credit, settleDue } from '../ledger.js';
import { exportState, importState, resetState } from '../state.js';
import { SCHEMA_VERSION } from '../store.js';
import { randomUUID } from 'node:crypto';

const CREDIT_MAX = '1000000000000000';

function bad(field: string, rule: string): never {
  throw problems.badRequest(`${field}: ${rule}`, { issues: [{ field, rule }] });
}

function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) bad('', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

function onlyKnown(body: Record<string, unknown>, known: string[]): void {
  for (const k of Object.keys(body)) if (!known.includes(k)) bad(k, 'is not a known field');
}

export function registerControl(app: Router, svc: Service): void {
  const profileView = (id: string) => {
    const p = svc.store.profile(id)!;
    const balances: Record<string, string> = {};
    for (const b of svc.store.balances(id)) balances[b.asset] = b.amount;
    return { id: p.id, customer_id: p.customer_id, memo_id: p.memo_id, nickname: p.nickname, balances };
  };

  const faultsView = () => ({ ...svc.config.faults, rateLimits: svc.config.rateLimits, stream: svc.config.stream.faults });

  app.get('/_local/health', async () => ({
    status: 'ok', now: iso(svc.clock.now()), clock_offset_ms: svc.clock.offsetMs(), seed: svc.seed, db: svc.store.file,
    schema_version: SCHEMA_VERSION,
  }));

  app.post('/_local/reset', async () => {
    resetState(svc);
    svc.journal.clear();
    svc.limiter.clear();
    return { status: 'ok' };
  });

  app.get('/_local/profiles', async () => {
    settleDue(svc);
    return { items: svc.store.profiles().map((p) => profileView(p.id)) };
  });

  app.post('/_local/profiles', async (req) => {
    const body = objectBody(req.body ?? {});
    onlyKnown(body, ['id', 'customer_id', 'memo_id', 'nickname']);
    for (const k of ['id', 'customer_id', 'memo_id', 'nickname']) {
      if (body[k] !== undefined && (typeof body[k] !== 'string' || !(body[k] as string).length || (body[k] as string).length > 128)) bad(k, 'must be a string of 1 to 128 characters');
    }
    const id = (body.id as string | undefined) ?? randomUUID();
    svc.store.immediate(() => {
      if (svc.store.profile(id)) throw problems.alreadyExists(`profile ${id} already exists`, { existing: profileView(id) });
      if (body.memo_id !== undefined && svc.store.profileByMemo(body.memo_id as string)) bad('memo_id', 'is already used by another profile');
      svc.store.insertProfile({
        id, customer_id: (body.customer_id as string | undefined) ?? randomUUID(), memo_id: (body.memo_id as string | undefined) ?? null,
        nickname: (body.nickname as string | undefined) ?? null,
      });
    });
    return profileView(id);
  });

  app.post('/_local/profiles/:id/balances', async (req) => {
    const { id } = req.params as { id: string };
    const body = objectBody(req.body);
    onlyKnown(body, ['asset', 'amount']);
    if (typeof body.asset !== 'string' || !ASSETS[body.asset]) bad('asset', `must be one of ${Object.keys(ASSETS).join(', ')}`);
    if (!isAmountString(body.amount) || dec(body.amount).lte(0)) bad('amount', 'must be a positive decimal string such as 10.5');
    // Balances are exact to 80 significant digits; a cap per credit keeps every balance far inside that.
    if (dec(body.amount as string).gt(CREDIT_MAX)) bad('amount', `must be at most ${CREDIT_MAX} per credit`);
    // A balance finer than the asset's precision could never be withdrawn to the last unit.
    const decimals = ASSETS[body.asset as string].decimals;
    if (decimalPlaces(body.amount as string) > decimals) bad('amount', `has more than the ${decimals} decimals ${String(body.asset)} allows`);
    const balance = credit(svc, id, body.asset as string, body.amount as string);
    return { profile_id: id, asset: body.asset, balance };
  });

  app.post('/_local/clock/advance', async (req) => {
    const body = objectBody(req.body);
    onlyKnown(body, ['seconds']);
    const s = body.seconds;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 10 * 365 * 86400) bad('seconds', 'must be a number of seconds between 0 and 315360000');
    const now = svc.clock.advance(s as number);
    settleDue(svc);
    return { now: iso(now), clock_offset_ms: svc.clock.offsetMs() };
  });

  app.get('/_local/state', async () => exportState(svc));

  // An export grows with the history, so this one route takes far bigger bodies than the API does.
  app.put('/_local/state', { bodyLimit: 512 * 1024 * 1024 }, async (req) => {
    importState(svc, req.body);
    return { status: 'ok' };
  });

  app.get('/_local/faults', async () => faultsView());

  // PUT sets the faults to exactly the body over the defaults, so PUT {} switches every fault off.
  app.put('/_local/faults', async (req) => {
    const body = { ...objectBody(req.body) };
    const { rateLimits, stream, ...faults } = body;
    const f = mergeConfig(defaultFaults(), faults);
    const r = mergeConfig(defaultRateLimits(), rateLimits, 'rateLimits');
    const s = mergeConfig(defaultStreamFaults(), stream, 'stream');
    const issues = [...f.issues, ...r.issues, ...s.issues];
    if (issues.length) throw problems.badRequest(issues.map((i) => `${i.field}: ${i.rule}`).join('; '), { issues });
    // Assigned in place: the stream and other holders of these objects see the change.
    Object.assign(svc.config.faults, f.value);
    Object.assign(svc.config.rateLimits, r.value);
    Object.assign(svc.config.stream.faults, s.value);
    svc.faults.restart();
    svc.limiter.clear();
    return faultsView();
  });

  app.get('/_local/journal', async (req) => {
    const raw = (req.query as Record<string, unknown>).limit;
    const limit = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
    return { items: svc.journal.recent(limit) };
  });
}
