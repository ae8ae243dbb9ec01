// coinop config set: a key and a value checked into the value kept (pure: no file read).
import { configKey } from '../../config/settings.js';

/** Said by coinop config --help and config list (and docs/contexts-and-configuration.md). */
export const PRECEDENCE =
  'Precedence: a flag, then the environment variable, then the configuration file (coinop config set), then the default.';

export interface ConfigSetOptions {
  key: string;
  /** The value in its canonical spelling. */
  value: string;
}

/** An unknown key or a value outside the key's rule is a usage error naming the key and the rule. */
export function parseConfigSetOptions(key: string, value: string): ConfigSetOptions {
  const k = configKey(key);
  return { key: k.key, value: k.check(k.key, value) };
}

/** A key of coinop config get or unset; unknown: a usage error listing the keys. */
export function parseConfigKey(key: string): string {
  return configKey(key).key;
}
