// The local service's public surface for the CLI and for integrators' tests.
export { startLocalService, DEFAULT_SEED, type LocalService, type LocalServiceOptions } from './service.js';
export { DEMO } from '../embedded/demo.js';
export { defaultDbFile } from './paths.js';
export { dataDir } from '../config/paths.js';
export { defaultConfig, type LocalConfig, type DeepPartial } from './config.js';
