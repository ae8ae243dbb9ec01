// The simulated market follows its price model over a day, in every market: a property of the simulation, proved by
// stepping every market through its day (many seconds of CPU; a proof, apart from the fast loop).
import { describe, expect, it } from 'vitest';
import { SimulatedMarket } from '../../src/local/stream/market.js';
import { midPriceFloat } from '../../src/market-data/price-model.js';
import { MARKETS } from '../../src/contract/enums.js';

describe('simulated market', () => {
  it('follows the price model for every market: the book mid stays by the model mid over a day', () => {
    const t0 = Date.UTC(2026, 2, 1);
    const STEP = 5000; // the longest step that is not an idle market's rebuild
    const DAY = 86_400_000 / STEP;
    // What the book's following depends on: the price in ticks (to the order of magnitude), the amount's decimals
    // and whether the model moves in a day. One market of each kind is followed for the whole day, every other one
    // for its first two hours (a drift of its own shows by then; the day is the kind's).
    const kinds = new Set<string>();
    for (const market of MARKETS) {
      const sim = new SimulatedMarket(market, 11);
      const day = Array.from({ length: 145 }, (_, i) => midPriceFloat(11, market, t0 + i * 600_000));
      const ticks = Math.floor(Math.log10(day[0] * 10 ** sim.info.priceDecimals));
      const moving = Math.max(...day) / Math.min(...day) - 1 > 0.03;
      const kind = `${ticks}|${sim.info.amountDecimals}|${moving}`;
      const steps = kinds.has(kind) ? DAY / 12 : DAY;
      kinds.add(kind);
      sim.rebuild(t0);
      const tick = 10 ** -sim.info.priceDecimals;
      // Five-second steps, sampled every ten minutes.
      for (let i = 1; i <= steps; i++) {
        sim.step(t0 + i * STEP, null);
        if (i % 120 === 0) {
          const model = midPriceFloat(11, market, t0 + i * STEP);
          const mid = sim.bookMid()!;
          // Within 0.3%, plus a few ticks where the tick is coarse against the price.
          expect(Math.abs(mid / model - 1), `${market} at +${i * 5} s`).toBeLessThan(0.003 + (4 * tick) / model);
        }
      }
    }
    // The kinds are many (a change that made every market one kind would test one market for a day).
    expect(kinds.size).toBeGreaterThan(15);
  });
});
