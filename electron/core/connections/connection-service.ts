// Connection profiles as a service: list views (never keys), save with validation, keys in the SecretStore, test, list models, detect local servers.
import { HostFailure } from '../../../shared/errors';
import type { ConnectionProfile, ConnectionProfileView, ConnectionTestResult, DetectedServer } from '../../../shared/types/llm';
import { silentLogger, type Logger, type Timers } from '../ports';
import { detectLocalServers, type DetectOptions } from './detect';
import { forgetHeaderSecrets, stashHeaderSecrets } from './header-secrets';
import type { FetchLike } from './http';
import { listModels, testConnection } from './models';
import { generateImage, type GeneratedImage, type ImageRequest } from './image-generation';
import { Redactor } from './redact';
import { checkKey, profileView, type Env, type SecretStore, type SecretStoreDescription } from './secret-store';
import { profileWarnings, validateProfile } from './validate-profile';

/**
 * Where profiles are kept (the settings document in the app; memory in tests). Keys are never part of a
 * profile. Changes name one profile, never the whole list, so a store shared with other writers applies
 * each to the list as it is then.
 */
export interface ProfileRepository {
  load(): ConnectionProfile[];
  put(profile: ConnectionProfile): void;
  remove(id: string): void;
}

/** The list after putting one profile in (replacing the one with its id, else appended) or taking one out. */
export function withProfile(profiles: readonly ConnectionProfile[], profile: ConnectionProfile): ConnectionProfile[] {
  const index = profiles.findIndex((p) => p.id === profile.id);
  return index < 0 ? [...profiles, profile] : profiles.map((p, i) => (i === index ? profile : p));
}
export const withoutProfile = (profiles: readonly ConnectionProfile[], id: string): ConnectionProfile[] => profiles.filter((p) => p.id !== id);

export class MemoryProfileRepository implements ProfileRepository {
  constructor(private profiles: ConnectionProfile[] = []) {}
  load(): ConnectionProfile[] {
    return this.profiles.map((p) => ({ ...p, headers: { ...p.headers } }));
  }
  put(profile: ConnectionProfile): void {
    this.profiles = withProfile(this.profiles, { ...profile, headers: { ...profile.headers } });
  }
  remove(id: string): void {
    this.profiles = withoutProfile(this.profiles, id);
  }
}

export interface ConnectionServiceOptions {
  repository: ProfileRepository;
  secrets: SecretStore;
  env?: Env;
  redactor?: Redactor;
  log?: Logger;
  fetch?: FetchLike;
  /** For the model list and connection test. Default 10 s. */
  timeoutMs?: number;
  detect?: DetectOptions;
  /** For the request timeouts (fake time in tests). */
  timers?: Timers;
  /** The local model library's ids: a local connection's models. */
  localModels?: () => string[];
}

export interface SaveProfileResult {
  profile: ConnectionProfileView;
  /** Things to confirm with the user (plain http to another machine). */
  warnings: string[];
}

export const MAX_PROFILES = 100;

export class ConnectionService {
  readonly redactor: Redactor;
  private readonly env: Env;
  private readonly log: Logger;

  constructor(private readonly options: ConnectionServiceOptions) {
    this.redactor = options.redactor ?? new Redactor();
    this.env = options.env ?? process.env;
    this.log = options.log ?? silentLogger;
  }

  list(): ConnectionProfileView[] {
    return this.options.repository.load().map((p) => this.view(p));
  }

  /** The full profile, for the core only (the LLM client); the renderer gets views. One a restore held is not used. */
  get(id: string): ConnectionProfile {
    const profile = this.stored(id);
    if (profile.held !== undefined) {
      throw new HostFailure({ code: 'CONNECTION_HELD', message: `The connection "${profile.name}" came back from a backup and waits for you to confirm it: ${profile.held}.`, hint: 'Check its address, then confirm it in Connections (CLI: connections confirm <id>).', path: '/id' });
    }
    return profile;
  }

  /** Takes a restored connection into use (its key, if any, is added again by the person). */
  confirm(id: string): ConnectionProfileView {
    const { held: _confirmed, ...profile } = this.stored(id);
    this.options.repository.put(profile);
    this.log.info(`Connection ${id} confirmed after a restore (${profile.baseUrl})`);
    return this.view(profile);
  }

  private stored(id: string): ConnectionProfile {
    const profile = this.options.repository.load().find((p) => p.id === id);
    if (!profile) throw new HostFailure({ code: 'NOT_FOUND', message: `There is no connection ${id}.`, path: '/id' });
    return profile;
  }

  /**
   * Creates or replaces a profile. A key, when given, is stored (and keyRef set to stored); a
   * profile switched away from a stored key loses the stored key. Credentials in extra headers go
   * to the secret store too (header-secrets.ts).
   */
  save(input: unknown, key?: string): SaveProfileResult {
    const checked = validateProfile(input);
    if (!checked.ok) throw new HostFailure(checked.error);
    let profile = checked.value;
    const cleanKey = key === undefined ? undefined : checkKey(key);
    if (cleanKey !== undefined) profile = { ...profile, keyRef: { kind: 'stored' } };
    const profiles = this.options.repository.load();
    const previous = profiles.find((p) => p.id === profile.id);
    if (!previous && profiles.length >= MAX_PROFILES) throw new HostFailure({ code: 'INVALID_INPUT', message: `At most ${MAX_PROFILES} connections.` });
    // Saving a held connection at the same address keeps it held: only Confirm (or a new address) takes it into use.
    if (previous?.held !== undefined && previous.baseUrl === profile.baseUrl && previous.provider === profile.provider) profile = { ...profile, held: previous.held };
    profile = stashHeaderSecrets(profile, previous, this.options.secrets);
    if (cleanKey !== undefined) this.options.secrets.set(profile.id, cleanKey);
    this.options.repository.put(profile);
    if (profile.keyRef?.kind !== 'stored') this.options.secrets.delete(profile.id);
    this.log.info(`Connection ${profile.id} saved (${profile.provider}, ${profile.baseUrl})`);
    return { profile: this.view(profile), warnings: profileWarnings(profile) };
  }

  remove(id: string): { removed: boolean } {
    const previous = this.options.repository.load().find((p) => p.id === id);
    if (!previous) return { removed: false };
    this.options.repository.remove(id);
    forgetHeaderSecrets(previous, this.options.secrets);
    this.options.secrets.delete(id);
    return { removed: true };
  }

  setKey(id: string, key: string): ConnectionProfileView {
    const profile = this.stored(id);
    return this.save(profile, key).profile;
  }

  clearKey(id: string): ConnectionProfileView {
    const profile = this.stored(id);
    const { keyRef: _dropped, ...rest } = profile;
    return this.save(rest).profile;
  }

  /** Tests a saved profile, or an unsaved one (the connection dialog's "Test" before "Save"), with an optional key to try. */
  async test(target: string | ConnectionProfile, options: { key?: string; signal?: AbortSignal } = {}): Promise<ConnectionTestResult> {
    let profile: ConnectionProfile;
    let deps: ReturnType<ConnectionService['modelDeps']>;
    try {
      profile = typeof target === 'string' ? this.get(target) : target;
      deps = this.modelDeps(options.key);
    } catch (err) {
      if (err instanceof HostFailure) return { ok: false, models: [], error: err.error };
      throw err;
    }
    return testConnection(options.key !== undefined ? { ...profile, keyRef: { kind: 'stored' } } : profile, {
      ...deps,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** An image from a saved connection that makes images (its image model): the key stays here. */
  generateImage(id: string, request: ImageRequest, options: { signal?: AbortSignal } = {}): Promise<GeneratedImage> {
    const { secrets, env, redactor } = this.modelDeps(undefined);
    return generateImage(this.get(id), request, {
      secrets,
      env,
      redactor,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.timers ? { timers: this.options.timers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  async listModels(id: string, options: { signal?: AbortSignal } = {}): Promise<string[]> {
    return listModels(this.get(id), { ...this.modelDeps(undefined), ...(options.signal ? { signal: options.signal } : {}) });
  }

  detect(options: DetectOptions = {}): Promise<DetectedServer[]> {
    return detectLocalServers({ ...this.options.detect, ...(this.options.fetch ? { fetch: this.options.fetch } : {}), ...(this.options.timers ? { timers: this.options.timers } : {}), ...options });
  }

  describeSecrets(): SecretStoreDescription {
    return this.options.secrets.describe();
  }

  allowObfuscatedKeys(): SecretStoreDescription {
    this.options.secrets.allowObfuscated?.();
    return this.options.secrets.describe();
  }

  private view(profile: ConnectionProfile): ConnectionProfileView {
    return profileView(profile, this.options.secrets, this.env, this.redactor);
  }

  /** A trial key goes through a throwaway store, so testing never saves it. */
  private modelDeps(trialKey: string | undefined) {
    const secrets: SecretStore =
      trialKey === undefined
        ? this.options.secrets
        : (() => {
            const clean = checkKey(trialKey);
            this.redactor.add(clean);
            return { get: () => clean, set: () => {}, delete: () => {}, describe: () => ({ backend: 'memory' }) };
          })();
    return {
      secrets,
      env: this.env,
      redactor: this.redactor,
      timeoutMs: this.options.timeoutMs ?? 10_000,
      ...(this.options.localModels ? { localModels: this.options.localModels } : {}),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.timers ? { timers: this.options.timers } : {}),
    };
  }
}
