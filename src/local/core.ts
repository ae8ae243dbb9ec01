// What every part of the local service shares: the store, the clock, the live config and the price seed.
import type { ServiceClock } from './service-clock.js';
import type { LocalConfig } from './config.js';
import type { Store } from './store.js';

export interface Core {
  store: Store;
  clock: ServiceClock;
  config: LocalConfig;
  seed: number;
}
