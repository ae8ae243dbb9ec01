// The context store: contexts in config.json (through conf), client secrets and cached tokens in separate
// owner-only files, every change made under a lock and written atomically.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { warnIfOpen } from './private-files.js';
import { join } from 'node:path';
import { CoinopError } from '../errors.js';
import { ENVIRONMENTS, type Environment } from './environments.js';
import { withLock, writeFileAtomic } from './lock.js';

export interface StoredContext {
  environment: Environment;
  baseUrl: string;
  authUrl: string;
  wsUrl: string;
  clientId: string;
  scopes: string[];
  /** The service's profile (profile_id) that withdrawals and deposit addresses default to. */
  profileId?: string;
}

export interface CachedToken {
  accessToken: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  scope: string;
}

/** config.json as saved; its keys keep the old word (profiles, activeProfile) so existing files read as they are. */
interface ConfigShape {
  /** The active context's name. */
  activeProfile?: string;
  /** The saved contexts by name. */
  profiles?: Record<string, StoredContext>;
  /** coinop config set: defaults by key (src/config/settings.ts CONFIG_KEYS), as strings. */
  defaults?: Record<string, string>;
}

type ConfInstance = { store: ConfigShape; path: string };

export class ConfigStore {
  readonly dir: string;
  private conf?: ConfInstance;

  /** `dir`: the configuration directory (Settings.configDir). */
  constructor(dir: string) {
    this.dir = dir;
  }

  private get secretsFile(): string {
    return join(this.dir, 'secrets.json');
  }
  private get tokensFile(): string {
    return join(this.dir, 'tokens.json');
  }
  private get lockFile(): string {
    return join(this.dir, '.lock');
  }

  /** The directory, created owner-only; an existing one is tightened to 0700 (coinop's own, it writes there). */
  ensureDir(): void {
    if (existsSync(this.dir) && !statSync(this.dir).isDirectory()) {
      throw new CoinopError('file', `the configuration directory ${this.dir} is not a directory`, {
        hint: `move that file aside, or set COINOP_CONFIG_DIR to a directory`,
      });
    }
    if (!existsSync(this.dir)) mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if ((statSync(this.dir).mode & 0o077) !== 0) chmodSync(this.dir, 0o700);
  }

  private async config(): Promise<ConfInstance> {
    if (!this.conf) {
      this.ensureDir();
      // conf writes atomically; the lock below keeps read-modify-write whole across processes.
      const { default: Conf } = await import('conf');
      this.conf = new Conf<ConfigShape>({
        cwd: this.dir,
        configName: 'config',
        projectName: 'coinop',
        configFileMode: 0o600,
        clearInvalidConfig: false,
      }) as unknown as ConfInstance;
    }
    return this.conf;
  }

  /**
   * Reads config.json without loading conf when the file does not exist (the common first run). A damaged file is
   * refused, never reset: falling back to no contexts would quietly send the next command somewhere else.
   */
  private readConfig(): ConfigShape {
    const file = join(this.dir, 'config.json');
    if (!existsSync(file)) return {};
    warnIfOpen(file);
    const damaged = (why: string) =>
      new CoinopError('file', `the configuration ${file} is damaged (${why})`, {
        hint: `fix it, or move it aside and log in again: mv '${file}' '${file}.damaged' && coinop login (secrets.json is kept)`,
      });
    let v: unknown;
    try {
      v = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw damaged(
        e instanceof SyntaxError
          ? 'not valid JSON'
          : `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    const why = configIssue(v);
    if (why) throw damaged(why);
    return v as ConfigShape;
  }

  private async update(fn: (c: ConfigShape) => void): Promise<void> {
    // Checked before conf reads it: conf would throw its own SyntaxError on a damaged file.
    this.readConfig();
    const conf = await this.config();
    await withLock(this.lockFile, () => {
      const next = structuredClone(this.readConfig());
      fn(next);
      conf.store = next;
    });
  }

  activeContextName(): string | undefined {
    return this.readConfig().activeProfile;
  }

  contexts(): Record<string, StoredContext> {
    return this.readConfig().profiles ?? {};
  }

  /** Own entries only: a context named "constructor" or "toString" is not found on Object.prototype. */
  context(name: string): StoredContext | undefined {
    const all = this.contexts();
    return Object.hasOwn(all, name) ? all[name] : undefined;
  }

  async saveContext(
    name: string,
    context: StoredContext,
    secret: string | undefined,
    makeActive: boolean,
  ): Promise<void> {
    // A damaged config is refused before the secret is written, so a failed save leaves every file as it was.
    this.readConfig();
    this.ensureDir();
    if (secret !== undefined)
      await this.updateJson<Record<string, string>>(this.secretsFile, (s) => void (s[name] = secret));
    await this.update((shape) => {
      shape.profiles = { ...(shape.profiles ?? {}), [name]: context };
      if (makeActive) shape.activeProfile = name;
    });
    await this.clearTokens(name);
  }

  /** Refuses a damaged config.json (a CoinopError naming the file and the way out); for commands about to save. */
  check(): void {
    this.ensureDir();
    this.readConfig();
  }

  async removeContext(name: string): Promise<boolean> {
    this.readConfig();
    const existed = !!this.context(name) || this.secret(name) !== undefined;
    await this.updateJson<Record<string, string>>(this.secretsFile, (s) => void delete s[name]);
    await this.clearTokens(name);
    if (this.context(name) || this.activeContextName() === name) {
      await this.update((shape) => {
        if (shape.profiles) delete shape.profiles[name];
        if (shape.activeProfile === name) delete shape.activeProfile;
      });
    }
    return existed;
  }

  /** The defaults saved by coinop config set, by key. */
  defaults(): Record<string, string> {
    return this.readConfig().defaults ?? {};
  }

  /** Saves a default (value given) or removes it (undefined). */
  async setDefault(key: string, value: string | undefined): Promise<void> {
    await this.update((shape) => {
      const d = { ...(shape.defaults ?? {}) };
      if (value === undefined) delete d[key];
      else d[key] = value;
      if (Object.keys(d).length) shape.defaults = d;
      else delete shape.defaults;
    });
  }

  /** Sets or clears a saved profile's service profile id; false when no such profile is saved. */
  async setProfileId(name: string, profileId: string | undefined): Promise<boolean> {
    if (!this.context(name)) return false;
    await this.update((shape) => {
      const p = shape.profiles?.[name];
      if (!p) return;
      if (profileId === undefined) delete p.profileId;
      else p.profileId = profileId;
    });
    return true;
  }

  /**
   * Renames a saved context with its secret (the cached tokens, keyed by name, are dropped and fetched again); the
   * active context follows. The caller has checked that `from` exists and `to` does not.
   */
  async renameContext(from: string, to: string): Promise<void> {
    this.readConfig();
    const secret = this.secret(from);
    if (secret !== undefined)
      await this.updateJson<Record<string, string>>(this.secretsFile, (settings) => {
        settings[to] = secret;
        delete settings[from];
      });
    await this.update((shape) => {
      const contexts = { ...(shape.profiles ?? {}) };
      const p = contexts[from];
      if (p) {
        delete contexts[from];
        contexts[to] = p;
      }
      shape.profiles = contexts;
      if (shape.activeProfile === from) shape.activeProfile = to;
    });
    await this.clearTokens(from);
  }

  /** Makes a context the active one; undefined: none (the built-in local one is used). */
  async setActive(name: string | undefined): Promise<void> {
    await this.update((shape) => {
      if (name === undefined) delete shape.activeProfile;
      else shape.activeProfile = name;
    });
  }

  secret(name: string): string | undefined {
    const all = this.readJson<Record<string, unknown>>(this.secretsFile).value;
    const v = Object.hasOwn(all, name) ? all[name] : undefined;
    return typeof v === 'string' ? v : undefined;
  }

  /** Why the secrets file cannot be read, when it is damaged (a secret then looks missing). */
  secretsDamage(): string | undefined {
    const { damaged, value } = this.readJson<Record<string, unknown>>(this.secretsFile);
    if (damaged) return `${this.secretsFile} is damaged (${damaged})`;
    const bad = Object.keys(value).find((k) => typeof value[k] !== 'string');
    return bad === undefined ? undefined : `${this.secretsFile} is damaged (the secret of "${bad}" is not a string)`;
  }

  /** A damaged or misshapen cache entry is no token: it is fetched again. */
  token(key: string): CachedToken | undefined {
    const all = this.readJson<Record<string, unknown>>(this.tokensFile).value;
    const t = (Object.hasOwn(all, key) ? all[key] : undefined) as Partial<CachedToken> | undefined;
    if (
      !t ||
      typeof t !== 'object' ||
      typeof t.accessToken !== 'string' ||
      !t.accessToken ||
      typeof t.expiresAt !== 'number' ||
      !Number.isFinite(t.expiresAt)
    )
      return undefined;
    return { accessToken: t.accessToken, expiresAt: t.expiresAt, scope: typeof t.scope === 'string' ? t.scope : '' };
  }

  /** Where the last write moved a damaged secrets file (kept, never deleted), for the command to say so. */
  movedAside?: string;

  async saveToken(key: string, token: CachedToken): Promise<void> {
    this.ensureDir();
    await this.updateJson<Record<string, CachedToken>>(this.tokensFile, (all) => {
      // Expired entries are dropped on every write so the cache never grows without bound.
      for (const [k, v] of Object.entries(all))
        if (!v || typeof v.expiresAt !== 'number' || v.expiresAt < Date.now()) delete all[k];
      all[key] = token;
    });
  }

  async dropToken(key: string): Promise<void> {
    if (!existsSync(this.tokensFile)) return;
    await this.updateJson<Record<string, CachedToken>>(this.tokensFile, (all) => void delete all[key]);
  }

  async clearTokens(context: string): Promise<void> {
    if (!existsSync(this.tokensFile)) return;
    await this.updateJson<Record<string, CachedToken>>(this.tokensFile, (all) => {
      for (const k of Object.keys(all)) if (k.startsWith(`${context}|`)) delete all[k];
    });
  }

  /** A JSON object file; anything else (unreadable, not JSON, not an object) reads as empty and says why. */
  private readJson<T extends object>(file: string): { value: T; damaged?: string } {
    if (!existsSync(file)) return { value: {} as T };
    warnIfOpen(file);
    let v: unknown;
    try {
      v = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      return {
        value: {} as T,
        damaged:
          e instanceof SyntaxError
            ? 'not valid JSON'
            : `cannot be read: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
      };
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { value: {} as T, damaged: 'not a JSON object' };
    return { value: v as T };
  }

  private async updateJson<T extends object>(file: string, fn: (v: T) => void): Promise<void> {
    this.ensureDir();
    await withLock(this.lockFile, () => {
      const read = this.readJson<T>(file);
      const { value } = read;
      const damaged = read.damaged ?? (file === this.secretsFile ? this.secretsDamage() : undefined);
      // The token cache is only a cache; a damaged secrets file may still hold other contexts' secrets by hand.
      if (damaged && file === this.secretsFile) {
        const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        renameSync(file, aside);
        this.movedAside = aside;
        // What is still a secret stays; the rest is in the file moved aside.
        for (const k of Object.keys(value))
          if (typeof (value as Record<string, unknown>)[k] !== 'string') delete (value as Record<string, unknown>)[k];
      }
      fn(value);
      writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, 0o600);
    });
  }
}

/** Why a parsed config.json is not the shape coinop wrote, or undefined when it is. */
function configIssue(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const c = value as Record<string, unknown>;
  if (c.activeProfile !== undefined && typeof c.activeProfile !== 'string') return 'activeProfile is not a string';
  if (c.defaults !== undefined) {
    if (!c.defaults || typeof c.defaults !== 'object' || Array.isArray(c.defaults)) return 'defaults is not an object';
    for (const [k, v] of Object.entries(c.defaults as Record<string, unknown>))
      if (typeof v !== 'string') return `defaults: ${k} is not a string`;
  }
  if (c.profiles === undefined) return undefined;
  if (!c.profiles || typeof c.profiles !== 'object' || Array.isArray(c.profiles)) return 'profiles is not an object';
  for (const [name, p] of Object.entries(c.profiles as Record<string, unknown>)) {
    if (!p || typeof p !== 'object' || Array.isArray(p)) return `context "${name}" is not an object`;
    const q = p as Record<string, unknown>;
    if (!(ENVIRONMENTS as readonly unknown[]).includes(q.environment))
      return `context "${name}": environment is not one of ${ENVIRONMENTS.join(', ')}`;
    for (const k of ['baseUrl', 'authUrl', 'wsUrl', 'clientId'] as const)
      if (typeof q[k] !== 'string') return `context "${name}": ${k} is not a string`;
    if (!Array.isArray(q.scopes) || !q.scopes.every((x) => typeof x === 'string'))
      return `context "${name}": scopes is not a list of strings`;
    if (q.profileId !== undefined && typeof q.profileId !== 'string')
      return `profile "${name}": profileId is not a string`;
  }
  return undefined;
}
