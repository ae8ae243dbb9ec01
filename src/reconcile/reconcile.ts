// A reconciliation: every intent coinop recorded in a period against the service's transfers of that period, and
// every transfer against an intent. Intents are indexed first (by ref_id and by content, in the book: SQLite on
// disk); the transfers then stream through a page at a time, each classed as it comes, except what can only be
// decided once all are in (credit legs of internal transfers, matches by content), kept in the book until the end.
import { unsaltedRefId } from '../batch/ref-ids.js';
import { type Decimal, dec, type Event, fmt, type Transfer } from '../contract/index.js';
import { Book } from './book.js';
import { CLASSES, EXPLAINED, type Line, type LineClass, type SummaryRow } from './classes.js';
import { ENDED_UNPAID, judged, lineOf } from './compare.js';
import { type ConversionSource, conversionMovement, type Movement } from './conversions.js';
import { type FeedState, keepEvents, withFeed } from './feed.js';
import { contentKey, type Intent, type IntentReader, type IntentScope } from './intents.js';

/** How a reconciliation reads the service. */
export interface TransferSource {
  /** The transfers created in the period (of the scope's profiles), a page at a time. */
  pages(): AsyncIterable<Transfer[]>;
  /** Transfers by ref_id (at most 100 ref_ids), whenever created. */
  byRefIds(refIds: string[]): Promise<Transfer[]>;
  /** Transfers by group id (at most 100). */
  byGroupIds(groupIds: string[]): Promise<Transfer[]>;
  /** The service's stablecoin conversions (none: not read). */
  conversions?: ConversionSource;
  /** The event feed from the period's start to now, a page at a time, oldest first (none: not read). */
  events?(): AsyncIterable<Event[]>;
}

export interface Reconciliation {
  /** The summary per asset and class (assets in order, classes in CLASSES' order). */
  summary: SummaryRow[];
  /** The lines, in the order they were classed: transfers as they came, then what the end decided. */
  lines(): IterableIterator<Line>;
  intents: number;
  transfers: number;
  /** Conversions of the period read (0 when not read). */
  conversions: number;
  /** Events read that name a transfer or a conversion (0 when the feed is not read). */
  events: number;
  /** Lines of classes that are not explained. */
  unexplained: number;
  close(): void;
}

/** How many ref_ids or group ids one lookup names (the OpenAPI's limit for these filters). */
const LOOKUP = 100;

const DEPOSIT_REASON = 'a deposit: money that came in, which no intent of coinop covers';

class Run {
  readonly totals = new Map<string, { lines: number; amount: Decimal }>();
  transfers = 0;
  constructor(
    readonly book: Book,
    readonly source: TransferSource,
  ) {}

  add(judgedLine: Line): void {
    const line = judgedLine.transfer_id
      ? withFeed(judgedLine, this.book.event<FeedState>(judgedLine.transfer_id))
      : judgedLine;
    this.book.addLine(line);
    const k = `${line.asset}\u0000${line.class}`;
    const t = this.totals.get(k) ?? { lines: 0, amount: dec(0) };
    t.lines++;
    try {
      t.amount = t.amount.plus(dec(line.amount || '0'));
    } catch {
      /* an amount that is no number adds nothing */
    }
    this.totals.set(k, t);
  }

  /** One transfer of the period, classed now or kept for the end. */
  transfer(transfer: Movement): void {
    const t = transfer;
    this.transfers++;
    const line = t.ref_id ? this.byRefId(t, t.ref_id) : undefined;
    if (line) return this.add(line);
    if (t.type === 'INTERNAL_TRANSFER_CREDIT' && t.group_id) return this.book.later('credit', t);
    if (t.direction === 'DEBIT' && this.contentKeys(t).some((k) => this.book.byContent(k).length))
      return this.book.later('content', t);
    this.add(this.unintended(t));
  }

  /**
   * The line of a transfer whose ref_id is an intent's, or the salted ref_id of a repeat of one (paid twice: the
   * same intent under another ref_id); undefined when its ref_id says nothing. `note` is added to the reason.
   */
  byRefId(transfer: Transfer, ref: string, note?: string): Line | undefined {
    const t = transfer;
    const own = this.book.intent(ref);
    const base = unsaltedRefId(ref);
    const repeated = base ? this.book.intent(base) : undefined;
    if (own) this.book.match(ref);
    if (repeated || own?.repeat_of) {
      const of = repeated?.ref_id ?? own?.repeat_of;
      const i = own ?? repeated!;
      const why = [
        `pays ${of} again, under the salted ref_id ${ref}${own?.repeat_of ? ' (a repeat run: withdraw batch --allow-repeat)' : ''}`,
        note,
      ]
        .filter(Boolean)
        .join('; ');
      return ENDED_UNPAID.includes(t.status) ? judged(t, i, why) : lineOf('paid_twice', t, i, why);
    }
    if (!own) return undefined;
    if (t.group_id && own.kind === 'internal_transfer') this.book.addGroup(t.group_id);
    return judged(t, own, note);
  }

  contentKeys(transfer: Movement): string[] {
    const t = transfer;
    const p = {
      profile_id: t.profile_id,
      asset: t.asset,
      network: t.crypto_network,
      destination: t.destination_address ?? t.fiat_account_id,
      target_asset: t.target_asset,
    };
    return [contentKey({ ...p, amount: t.amount }), contentKey({ ...p, total: t.total })].filter(
      (k): k is string => !!k,
    );
  }

  unintended(transfer: Transfer, why?: string): Line {
    const t = transfer;
    const reason =
      why ??
      (t.direction === 'CREDIT'
        ? DEPOSIT_REASON
        : 'made elsewhere: no intent of this coinop has its ref_id or pays the same');
    return lineOf('unintended', t, undefined, reason);
  }

  /** Transfers matched by content once every transfer is in: the first pays an intent no ref_id matched. */
  contentMatches(): void {
    for (const { body } of this.book.laterOf('content')) {
      const t = body as unknown as Transfer;
      const found = this.contentKeys(t).flatMap((k) => this.book.byContent(k));
      const open = found.find((i) => !i.matched);
      if (open) {
        this.book.match(open.ref_id);
        this.add(judged(t, open, `matched by content: paid under ref_id ${t.ref_id ?? '(none)'}, not ${open.ref_id}`));
      } else
        this.add(
          lineOf(
            'paid_twice',
            t,
            found[0],
            `pays what ${found[0].ref_id} paid (same profile, asset, network, destination and amount) a second time`,
          ),
        );
    }
  }

  /** Credit legs of internal transfers: the other side of one this coinop made, or unintended. */
  async credits(): Promise<void> {
    let chunk: Transfer[] = [];
    const flush = async () => {
      const unknown = chunk.filter((t) => !this.book.hasGroup(t.group_id!));
      const debits = unknown.length ? await this.source.byGroupIds([...new Set(unknown.map((t) => t.group_id!))]) : [];
      for (const d of debits)
        if (d.ref_id && d.type === 'INTERNAL_TRANSFER_DEBIT' && this.book.intent(d.ref_id))
          this.book.addGroup(d.group_id!);
      for (const t of chunk) {
        if (!this.book.hasGroup(t.group_id!)) {
          this.add(this.unintended(t, 'an internal transfer credit whose debit no intent of this coinop made'));
          continue;
        }
        const debit = debits.find((d) => d.group_id === t.group_id);
        const i = debit?.ref_id ? this.book.intent(debit.ref_id) : undefined;
        this.add(
          judged(
            t,
            {
              ...(i ?? { ref_id: '', kind: 'internal_transfer', source: '', at: '', recorded: 'sent' }),
              profile_id: undefined,
              destination: undefined,
              fee: undefined,
              total: undefined,
            } as Intent,
            `the credit side of internal transfer group ${t.group_id}`,
          ),
        );
      }
      chunk = [];
    };
    for (const { body } of this.book.laterOf('credit')) {
      chunk.push(body as unknown as Transfer);
      if (chunk.length >= LOOKUP) await flush();
    }
    if (chunk.length) await flush();
  }

  /** Intents no transfer of the period paid: looked up by ref_id (created outside the period?), else classed. */
  async unpaid(): Promise<void> {
    let after = '';
    for (;;) {
      const page = this.book.unmatched(after, LOOKUP);
      if (!page.length) return;
      after = page[page.length - 1].ref_id;
      const found = await this.lookUp(page);
      this.book.batch(() => {
        for (const i of page) {
          const t = found.get(i.ref_id);
          const line = t?.ref_id && this.byRefId(t, t.ref_id, `created ${t.created_at}, outside the period`);
          this.add(line || unpaidLine(i));
        }
      });
    }
  }

  /** The transfers (and conversions) of these intents' ref_ids, whenever created. */
  async lookUp(intents: Intent[]): Promise<Map<string | undefined, Movement>> {
    const conversions = this.source.conversions;
    const converting = conversions ? intents.filter((i) => i.kind === 'conversion') : [];
    const others = intents.filter((i) => !converting.includes(i));
    const found: Movement[] = others.length ? await this.source.byRefIds(others.map((i) => i.ref_id)) : [];
    for (const i of converting) {
      const c = await conversions!.byRefId(i.ref_id);
      if (c) found.push(conversionMovement(c));
    }
    return new Map(found.map((t) => [t.ref_id, t]));
  }

  summary(): SummaryRow[] {
    const rows: SummaryRow[] = [];
    for (const [k, v] of this.totals) {
      const [asset, cls] = k.split('\u0000') as [string, LineClass];
      rows.push({ asset, class: cls, lines: v.lines, amount: fmt(v.amount), explained: EXPLAINED.includes(cls) });
    }
    return rows.sort((a, b) => a.asset.localeCompare(b.asset) || CLASSES.indexOf(a.class) - CLASSES.indexOf(b.class));
  }
}

/** An intent the service holds no transfer for. */
function unpaidLine(intent: Intent): Line {
  const i = intent;
  switch (i.recorded) {
    case 'failed':
      return lineOf('failed', undefined, i, i.reason ?? 'coinop recorded it as failed');
    case 'held':
      return lineOf('in_flight', undefined, i, 'held for approvals at a coinop gateway; not sent yet');
    case 'planned':
      return lineOf('missing', undefined, i, 'never sent: its batch stopped before this row (withdraw batch --resume)');
    case 'sent':
      return lineOf(
        'missing',
        undefined,
        i,
        `the service answered it${i.transfer_id ? ` (transfer ${i.transfer_id})` : ''}, and holds no such transfer now`,
      );
    default:
      return lineOf(
        'missing',
        undefined,
        i,
        `recorded as ${i.recorded === 'attempt' ? 'about to be sent' : 'sent without an answer'}; the service holds no transfer with its ref_id`,
      );
  }
}

/**
 * Reconciles the scope: the readers' intents against the source's transfers. The result's lines are read from the
 * book, which close() removes.
 */
export async function reconcile(
  source: TransferSource,
  readers: readonly IntentReader[],
  scope: IntentScope,
): Promise<Reconciliation> {
  const book = new Book();
  try {
    for (const r of readers) await book.addIntents(r.read(scope));
    const intents = book.scope(scope);
    const run = new Run(book, source);
    let events = 0;
    const end = scope.to ?? new Date().toISOString();
    for await (const page of source.events?.() ?? []) events += book.batch(() => keepEvents(book, page, end));
    for await (const page of source.pages())
      book.batch(() => {
        for (const t of page) run.transfer(t);
      });
    const transfers = run.transfers;
    for await (const page of source.conversions?.pages() ?? [])
      book.batch(() => {
        for (const c of page) run.transfer(conversionMovement(c));
      });
    book.batch(() => run.contentMatches());
    await run.credits();
    await run.unpaid();
    const summary = run.summary();
    return {
      summary,
      lines: () => book.lines() as IterableIterator<Line>,
      intents,
      transfers,
      conversions: run.transfers - transfers,
      events,
      unexplained: summary.filter((r) => !r.explained).reduce((n, r) => n + r.lines, 0),
      close: () => book.close(),
    };
  } catch (e) {
    book.close();
    throw e;
  }
}
