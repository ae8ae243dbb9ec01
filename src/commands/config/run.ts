// coinop config list, get, set and unset.
import { join } from 'node:path';
import type { Ports } from '../../cli/ports.js';
import { usageError } from '../../cli/errors.js';
import { activeContextName } from '../../config/context.js';
import {
  CONFIG_KEYS,
  CONTEXT_KEY,
  type ConfigKey,
  OUTPUT_SCOPE,
  type Resolved,
  resolveKey,
} from '../../config/settings.js';
import { contextNames } from '../../config/context.js';
import { didYouMean } from '../../contract/suggest.js';
import { PRECEDENCE, parseConfigKey, parseConfigSetOptions } from './options.js';

/** A key's value now: the context from the store's active one, every other key from the environment and file. */
function resolved(contexts: Ports['contexts'], key: ConfigKey): Resolved {
  if (key.key !== CONTEXT_KEY) return resolveKey(key, contexts.env, contexts.store().defaults());
  const store = contexts.store();
  const { context } = contexts.settings();
  const value = activeContextName(store, undefined, { context });
  if (context) return { value, source: 'env', variable: key.variables.find((v) => contexts.env[v]) };
  return { value, source: store.activeContextName() ? 'config' : 'default' };
}

function row(contexts: Ports['contexts'], key: ConfigKey) {
  const r = resolved(contexts, key);
  return {
    key: key.key,
    value: r.value,
    source: r.source,
    variable: r.variable,
    variables: key.variables,
    flag: key.flag,
    default: key.default,
    description: key.description,
  };
}

export type ConfigDeps = Pick<Ports, 'display' | 'contexts'>;

export async function list(deps: ConfigDeps): Promise<void> {
  const rows = CONFIG_KEYS.map((k) => row(deps.contexts, k));
  const out = deps.display.output();
  if (out.format === 'table') {
    out.table(
      rows.map((r) => ({
        ...r,
        value: r.value === '' ? '(unset)' : r.value,
        source: r.variable ? `env ${r.variable}` : r.source,
        env: r.variables.join(', '),
      })),
      [{ key: 'key' }, { key: 'value' }, { key: 'source' }, { key: 'env', header: 'variable' }, { key: 'description' }],
    );
    deps.display.io.err(`${PRECEDENCE}\nFile: ${join(deps.contexts.configDir(), 'config.json')}\n`);
  } else await out.list(rows, [{ key: 'key' }, { key: 'value' }, { key: 'source' }, { key: 'variable' }]);
}

/** Plain text unless JSON is asked for by flag: `$(coinop config get pager)` is the value itself. */
export async function get(deps: ConfigDeps, key: string): Promise<void> {
  const k = CONFIG_KEYS.find((c) => c.key === parseConfigKey(key))!;
  const r = row(deps.contexts, k);
  const { display } = deps;
  if (display.formatGiven() && display.format() !== 'table') display.output().one(r);
  else display.io.out(`${r.value}\n`);
  if (k.key === 'output') display.io.err(`output: ${r.value || '(unset)'} ${OUTPUT_SCOPE}\n`);
}

export async function set(deps: ConfigDeps, key: string, value: string): Promise<void> {
  const o = parseConfigSetOptions(key, value);
  const store = deps.contexts.store();
  store.check();
  if (o.key === CONTEXT_KEY) {
    if (!contextNames(store).includes(o.value))
      throw usageError(
        `${CONTEXT_KEY}: no context named "${o.value}"${didYouMean(o.value, contextNames(store))}`,
        'see coinop context list',
      );
    await store.setActive(o.value);
  } else await store.setDefault(o.key, o.value);
  const shadow = CONFIG_KEYS.find((k) => k.key === o.key)!.variables.find((v) => deps.contexts.env[v]);
  deps.display.io.err(`${o.key} = ${o.value}\n`);
  if (shadow) deps.display.io.err(`note: ${shadow} is set, and wins over the configuration file\n`);
}

export async function unset(deps: ConfigDeps, key: string): Promise<void> {
  const k = parseConfigKey(key);
  const store = deps.contexts.store();
  store.check();
  if (k === CONTEXT_KEY) await store.setActive(undefined);
  else await store.setDefault(k, undefined);
  deps.display.io.err(
    `${k} unset (now: ${row(deps.contexts, CONFIG_KEYS.find((c) => c.key === k)!).value || '(unset)'})\n`,
  );
}
