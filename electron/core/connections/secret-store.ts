// The secrets port, its Node implementation (a 0600 JSON file with a visible warning), and key resolution for a profile.
import fs from 'node:fs';
import { writeFileAtomicSync } from '../util/atomic-write';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { ConnectionProfile, ConnectionProfileView } from '../../../shared/types/llm';
import type { Logger } from '../ports';
import { silentLogger } from '../ports';
import { ENV_KEY_NAME_PATTERN } from './validate-profile';
import type { Redactor } from './redact';
import { readKeyFile } from './key-file';
import { maskHeaderSecrets } from './header-secrets';

export interface SecretStoreDescription {
  /** 'file' (Node: plaintext 0600 file), 'memory' (tests), 'safeStorage' (Electron, provided by main). */
  backend: string;
  /** Shown to the user wherever keys are entered, when the backend is not encrypted. */
  warning?: string;
  /** S10: keys would only be obfuscated here; none is saved until the person chooses that (allowObfuscated). */
  consent?: 'needed' | 'given';
}

/** API keys by profile id. Implementations must never log a key. */
export interface SecretStore {
  get(profileId: string): string | undefined;
  set(profileId: string, key: string): void;
  delete(profileId: string): void;
  describe(): SecretStoreDescription;
  /** The person chose to keep keys obfuscated where nothing better exists (stores that ask for consent). */
  allowObfuscated?(): void;
}

export const MAX_KEY_LENGTH = 4096;

/** Rejects keys that cannot be a header value; never echoes the key. */
export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.trim() === '') throw new HostFailure({ code: 'INVALID_INPUT', message: 'The API key is empty.', path: '/key' });
  const trimmed = key.trim();
  if (trimmed.length > MAX_KEY_LENGTH) throw new HostFailure({ code: 'INVALID_INPUT', message: 'The API key is too long.', path: '/key' });
  if (hasControlCharacter(trimmed)) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: 'The API key contains control characters or line breaks.', path: '/key' });
  }
  return trimmed;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export class MemorySecretStore implements SecretStore {
  private readonly keys = new Map<string, string>();
  constructor(private readonly redactor?: Redactor) {}
  get(profileId: string): string | undefined {
    return this.keys.get(profileId);
  }
  set(profileId: string, key: string): void {
    const clean = checkKey(key);
    this.redactor?.add(clean);
    this.keys.set(profileId, clean);
  }
  delete(profileId: string): void {
    this.keys.delete(profileId);
  }
  describe(): SecretStoreDescription {
    return { backend: 'memory' };
  }
}

export interface FileSecretStoreOptions {
  dataDir: string;
  /** Every key read or written is registered here, so the logger can scrub it. */
  redactor?: Redactor;
  log?: Logger;
  /** For tests; mode checks are skipped on win32, where POSIX modes mean nothing. */
  platform?: NodeJS.Platform;
}

interface SecretsFile {
  version: 1;
  keys: Record<string, string>;
}

export const SECRETS_FILE_NAME = 'secrets.json';

/**
 * Keys in `<dataDir>/secrets.json`, created with mode 0600 and re-checked on every load and write.
 * Not encrypted: describe() says so, and the UI must show that warning where keys are entered.
 */
export class FileSecretStore implements SecretStore {
  readonly path: string;
  private keys: Record<string, string> = {};
  private readonly log: Logger;
  private readonly checkModes: boolean;

  constructor(private readonly options: FileSecretStoreOptions) {
    this.path = path.join(options.dataDir, SECRETS_FILE_NAME);
    this.log = options.log ?? silentLogger;
    this.checkModes = (options.platform ?? process.platform) !== 'win32';
    this.load();
  }

  get(profileId: string): string | undefined {
    return Object.hasOwn(this.keys, profileId) ? this.keys[profileId] : undefined;
  }

  set(profileId: string, key: string): void {
    const clean = checkKey(key);
    this.options.redactor?.add(clean);
    this.write({ ...this.keys, [profileId]: clean });
  }

  delete(profileId: string): void {
    if (!Object.hasOwn(this.keys, profileId)) return;
    const next = { ...this.keys };
    delete next[profileId];
    this.write(next);
  }

  describe(): SecretStoreDescription {
    return {
      backend: 'file',
      warning: `API keys are stored unencrypted in ${this.path} (readable only by your user account). On a shared machine, prefer an environment variable.`,
    };
  }

  private load(): void {
    const keys = readKeyFile(this.path, this.log, 'secrets file', () => this.enforceMode());
    if (keys === null) return;
    this.keys = keys;
    for (const key of Object.values(this.keys)) this.options.redactor?.add(key);
  }

  /** A file that has become group/world readable is tightened back to 0600, with a warning. */
  private enforceMode(): void {
    if (!this.checkModes) return;
    const mode = fs.statSync(this.path).mode & 0o777;
    if ((mode & 0o077) === 0) return;
    fs.chmodSync(this.path, 0o600);
    this.log.warn(`The secrets file ${this.path} was readable by others (mode ${mode.toString(8)}); it is now 0600.`);
    if ((fs.statSync(this.path).mode & 0o077) !== 0) {
      throw new HostFailure({ code: 'SETTINGS_WRITE_FAILED', message: `Could not restrict ${this.path} to your user account.` });
    }
  }

  private write(keys: Record<string, string>): void {
    const doc: SecretsFile = { version: 1, keys };
    try {
      // 0600 from creation: the file never exists with a wider mode, even for a moment.
      writeFileAtomicSync(this.path, JSON.stringify(doc, null, 2), { mode: 0o600 });
    } catch (err) {
      throw new HostFailure({
        code: 'SETTINGS_WRITE_FAILED',
        message: `Could not save the API key to ${this.path} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
      });
    }
    this.enforceMode();
    this.keys = keys;
  }
}

export type Env = Record<string, string | undefined>;

/**
 * The key a profile uses right now: its env variable or its stored key; undefined when it has none.
 * The key is registered with the redactor before it is returned.
 */
export function resolveApiKey(profile: ConnectionProfile, secrets: SecretStore, env: Env, redactor?: Redactor): string | undefined {
  const ref = profile.keyRef;
  if (!ref) return undefined;
  let key: string | undefined;
  if (ref.kind === 'env') key = ENV_KEY_NAME_PATTERN.test(ref.name) ? env[ref.name]?.trim() : undefined;
  else key = secrets.get(profile.id);
  if (key === '') key = undefined;
  redactor?.add(key);
  return key;
}

/** The last 4 characters, only for keys long enough that 4 characters give nothing useful away. */
export function keyHint(key: string | undefined): string | null {
  if (key === undefined || key.length < 12) return null;
  return key.slice(-4);
}

/** The renderer's view of a profile: whether it has a key and a hint, never the key; stored header values masked. */
export function profileView(profile: ConnectionProfile, secrets: SecretStore, env: Env, redactor?: Redactor): ConnectionProfileView {
  const key = resolveApiKey(profile, secrets, env, redactor);
  return { ...profile, headers: maskHeaderSecrets(profile.headers), hasKey: key !== undefined, keyHint: keyHint(key) };
}
