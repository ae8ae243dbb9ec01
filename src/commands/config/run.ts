// coinop config list, get, set and unset.
import { join } from 'node:path';
import type { Invocation } from '../../cli/invocation.js';
import { usageError } from '../../cli/errors.js';
import { activeContextName } from '../../config/context.js';
import { CONFIG_KEYS, CONTEXT_KEY, type ConfigKey, type Resolved, resolveKey } from '../../config/settings.js';
import { contextNames } from '../../config/context.js';
import { PRECEDENCE, parseConfigKey, parseConfigSetOptions } from './options.js';

/** A key's value now: the context from the store's active one, every other key from the environment and file. */
function resolved(ctx: Invocation, key: ConfigKey): Resolved {
  if (key.key !== CONTEXT_KEY) return resolveKey(key, ctx.env, ctx.store().defaults());
  const store = ctx.store();
  const value = activeContextName(store, undefined, ctx.settings);
  if (ctx.settings.profile) return { value, source: 'env', variable: key.variables.find((v) => ctx.env[v]) };
  return { value, source: store.activeProfileName() ? 'config' : 'default' };
}

function row(ctx: Invocation, key: ConfigKey) {
  const r = resolved(ctx, key);
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

export async function list(ctx: Invocation): Promise<void> {
  const rows = CONFIG_KEYS.map((k) => row(ctx, k));
  const out = ctx.output();
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
    ctx.io.err(`${PRECEDENCE}\nFile: ${join(ctx.settings.configDir, 'config.json')}\n`);
  } else await out.list(rows, [{ key: 'key' }, { key: 'value' }, { key: 'source' }, { key: 'variable' }]);
}

/** Plain text unless JSON is asked for by flag: `$(coinop config get pager)` is the value itself. */
export async function get(ctx: Invocation, key: string): Promise<void> {
  const k = CONFIG_KEYS.find((c) => c.key === parseConfigKey(key))!;
  const r = row(ctx, k);
  const asked = ctx.globals.json || ctx.globals.output;
  if (asked && ctx.format() !== 'table') ctx.output().one(r);
  else ctx.io.out(`${r.value}\n`);
}

export async function set(ctx: Invocation, key: string, value: string): Promise<void> {
  const o = parseConfigSetOptions(key, value);
  const store = ctx.store();
  store.check();
  if (o.key === CONTEXT_KEY) {
    if (!contextNames(ctx.store()).includes(o.value))
      throw usageError(`${CONTEXT_KEY}: no context named "${o.value}" (see coinop context list)`);
    await store.setActive(o.value);
  } else await store.setDefault(o.key, o.value);
  const shadow = CONFIG_KEYS.find((k) => k.key === o.key)!.variables.find((v) => ctx.env[v]);
  ctx.io.err(`${o.key} = ${o.value}\n`);
  if (shadow) ctx.io.err(`note: ${shadow} is set, and wins over the configuration file\n`);
}

export async function unset(ctx: Invocation, key: string): Promise<void> {
  const k = parseConfigKey(key);
  const store = ctx.store();
  store.check();
  if (k === CONTEXT_KEY) await store.setActive(undefined);
  else await store.setDefault(k, undefined);
  ctx.io.err(`${k} unset (now: ${row(ctx, CONFIG_KEYS.find((c) => c.key === k)!).value || '(unset)'})\n`);
}
