// Injected faults of the local service (added latency, 429/500/503 answers, connection resets before the
// handler runs or after it committed), drawn from a seeded generator so a run can be repeated.
import { seededRng, type Rng } from '../market-data/rng.js';
import type { LocalConfig } from './config.js';

export type FaultAction = 'none' | 'reset-before' | '429' | '500' | '503' | 'reset-after';

export interface FaultDecision {
  latencyMs: number;
  action: FaultAction;
}

const NONE: FaultDecision = { latencyMs: 0, action: 'none' };

export class Faults {
  private rng: Rng;

  constructor(
    private readonly config: LocalConfig,
    private readonly serviceSeed: number,
  ) {
    this.rng = seededRng(this.seed());
  }

  private seed(): number {
    return this.config.faults.seed ?? this.serviceSeed;
  }

  /** Restarts the generator (after the fault settings change), so the same settings give the same run. */
  restart(): void {
    this.rng = seededRng(this.seed());
  }

  /** What to do to one /v2 or /oauth2 request. */
  decide(method: string, path: string): FaultDecision {
    const f = this.config.faults;
    if (f.pathPrefix && !path.startsWith(f.pathPrefix)) return NONE;
    if (f.method && f.method.toUpperCase() !== method) return NONE;
    const anyAction = f.resetBeforeRate + f.rate429 + f.rate500 + f.rate503 + f.resetAfterRate > 0;
    if (!f.latencyMs && !f.latencyJitterMs && !anyAction) return NONE;
    const latencyMs = f.latencyMs + (f.latencyJitterMs ? Math.floor(this.rng() * f.latencyJitterMs) : 0);
    let action: FaultAction = 'none';
    if (anyAction && (f.budget === null || f.budget > 0)) {
      const r = this.rng();
      let edge = 0;
      for (const [p, a] of [
        [f.resetBeforeRate, 'reset-before'],
        [f.rate429, '429'],
        [f.rate500, '500'],
        [f.rate503, '503'],
        [f.resetAfterRate, 'reset-after'],
      ] as const) {
        edge += p;
        if (r < edge) {
          action = a;
          break;
        }
      }
      if (action !== 'none' && f.budget !== null) f.budget -= 1;
    }
    return { latencyMs, action };
  }
}
