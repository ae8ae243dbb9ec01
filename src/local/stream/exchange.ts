// The service's simulated markets, one per symbol, shared by the WebSocket stream and the HTTP market data
// snapshots (order book, ticker, recent executions, prices), so a snapshot and the stream always tell the same story.
// The stream steps a market while someone watches it; a snapshot of a market nobody watches first brings it to now.
import type { Market } from '../../contract/enums.js';
import { SimulatedMarket } from './market.js';

export class SimulatedExchange {
  private readonly markets = new Map<Market, SimulatedMarket>();
  /** Subscriptions per market across the stream's market channels: a market steps only while this is above zero. */
  private readonly watchers = new Map<Market, number>();

  constructor(
    private readonly seed: number,
    private readonly now: () => number,
  ) {}

  /** The market's simulation, made on first use. */
  market(market: Market): SimulatedMarket {
    let sim = this.markets.get(market);
    if (!sim) {
      sim = new SimulatedMarket(market, this.seed);
      this.markets.set(market, sim);
    }
    return sim;
  }

  /**
   * The market as of now: one the stream steps is as its subscribers last saw it (a snapshot must not move it on
   * behind their backs); one nobody watches is brought to the current time first.
   */
  current(market: Market): SimulatedMarket {
    const sim = this.market(market);
    if (!this.watchers.get(market)) sim.catchUp(this.now());
    return sim;
  }

  /** One more subscription to a market; the first brings it to now. Returns the market. */
  watch(market: Market): SimulatedMarket {
    const sim = this.current(market);
    this.watchers.set(market, (this.watchers.get(market) ?? 0) + 1);
    return sim;
  }

  /** One subscription fewer; at none the market stops stepping. */
  unwatch(market: Market): void {
    const n = (this.watchers.get(market) ?? 1) - 1;
    if (n > 0) this.watchers.set(market, n);
    else this.watchers.delete(market);
  }

  /** The markets someone watches (the stream steps these). */
  watched(): IterableIterator<Market> {
    return this.watchers.keys();
  }

  get watchedCount(): number {
    return this.watchers.size;
  }
}
