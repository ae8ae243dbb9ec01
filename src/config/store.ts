// The profile store: profiles in config.json (through conf), client secrets and cached tokens in separate
// owner-only files, every change made under a lock and written atomically.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from './environments.js';
import { withLock, writeFileAtomic } from './lock.js';
import { configDir } from './paths.js';

export interface StoredProfile {
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

interface ConfigShape {
  activeProfile?: string;
  profiles?: Record<string, StoredProfile>;
}

type ConfInstance = { store: ConfigShape; path: string };

export class ConfigStore {
  readonly dir: string;
  private conf?: ConfInstance;

  constructor(env: Record<string, string | undefined>) {
    this.dir = configDir(env);
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

  /** The directory, created owner-only; an existing one is tightened to 0700. */
  ensureDir(): void {
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

  /** Reads config.json without loading conf when the file does not exist (the common first run). */
  private readConfig(): ConfigShape {
    const file = join(this.dir, 'config.json');
    if (!existsSync(file)) return {};
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ConfigShape;
    } catch {
      throw new Error(`cannot read ${file}: it is not valid JSON (fix or remove it)`);
    }
  }

  private async update(fn: (c: ConfigShape) => void): Promise<void> {
    const conf = await this.config();
    await withLock(this.lockFile, () => {
      const next = structuredClone(this.readConfig());
      fn(next);
      conf.store = next;
    });
  }

  activeProfileName(): string | undefined {
    return this.readConfig().activeProfile;
  }

  profiles(): Record<string, StoredProfile> {
    return this.readConfig().profiles ?? {};
  }

  profile(name: string): StoredProfile | undefined {
    return this.profiles()[name];
  }

  async saveProfile(name: string, p: StoredProfile, secret: string | undefined, makeActive: boolean): Promise<void> {
    this.ensureDir();
    if (secret !== undefined) await this.updateJson<Record<string, string>>(this.secretsFile, (s) => void (s[name] = secret));
    await this.update((c) => {
      c.profiles = { ...(c.profiles ?? {}), [name]: p };
      if (makeActive) c.activeProfile = name;
    });
    await this.clearTokens(name);
  }

  async removeProfile(name: string): Promise<boolean> {
    const existed = !!this.profile(name) || this.secret(name) !== undefined;
    await this.updateJson<Record<string, string>>(this.secretsFile, (s) => void delete s[name]);
    await this.clearTokens(name);
    if (this.profile(name) || this.activeProfileName() === name) {
      await this.update((c) => {
        if (c.profiles) delete c.profiles[name];
        if (c.activeProfile === name) delete c.activeProfile;
      });
    }
    return existed;
  }

  async setActive(name: string): Promise<void> {
    await this.update((c) => void (c.activeProfile = name));
  }

  secret(name: string): string | undefined {
    return this.readJson<Record<string, string>>(this.secretsFile)[name];
  }

  token(key: string): CachedToken | undefined {
    return this.readJson<Record<string, CachedToken>>(this.tokensFile)[key];
  }

  async saveToken(key: string, t: CachedToken): Promise<void> {
    this.ensureDir();
    await this.updateJson<Record<string, CachedToken>>(this.tokensFile, (all) => {
      // Expired entries are dropped on every write so the cache never grows without bound.
      for (const [k, v] of Object.entries(all)) if (v.expiresAt < Date.now()) delete all[k];
      all[key] = t;
    });
  }

  async dropToken(key: string): Promise<void> {
    if (!existsSync(this.tokensFile)) return;
    await this.updateJson<Record<string, CachedToken>>(this.tokensFile, (all) => void delete all[key]);
  }

  async clearTokens(profile: string): Promise<void> {
    if (!existsSync(this.tokensFile)) return;
    await this.updateJson<Record<string, CachedToken>>(this.tokensFile, (all) => {
      for (const k of Object.keys(all)) if (k.startsWith(`${profile}|`)) delete all[k];
    });
  }

  private readJson<T extends object>(file: string): T {
    if (!existsSync(file)) return {} as T;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      return {} as T;
    }
  }

  private async updateJson<T extends object>(file: string, fn: (v: T) => void): Promise<void> {
    this.ensureDir();
    await withLock(this.lockFile, () => {
      const v = this.readJson<T>(file);
      fn(v);
      writeFileAtomic(file, JSON.stringify(v, null, 2) + '\n', 0o600);
    });
  }
}
