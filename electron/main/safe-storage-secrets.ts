// The desktop SecretStore: API keys encrypted with Electron safeStorage in <dataDir>/secrets.safe.json (0600, atomic writes).
import { writeFileAtomicSync } from '../core/util/atomic-write';
import fs from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import { HostFailure } from '../../shared/errors';
import { checkKey, type SecretStore, type SecretStoreDescription } from '../core/connections/secret-store';
import type { Redactor } from '../core/connections/redact';
import { readKeyFile } from '../core/connections/key-file';
import { silentLogger, type Logger } from '../core/ports';

export const SAFE_SECRETS_FILE_NAME = 'secrets.safe.json';
/** S10: present once the person chose to keep keys obfuscated on a machine without a keyring (basic_text). */
export const OBFUSCATION_CONSENT_FILE_NAME = 'secrets.obfuscation-accepted';

interface SafeSecretsFile {
  version: 1;
  /** profile id → base64 of safeStorage.encryptString(key). */
  keys: Record<string, string>;
}

export interface SafeStorageSecretsOptions {
  dataDir: string;
  redactor?: Redactor;
  log?: Logger;
}

/**
 * Call after app 'ready' (safeStorage needs it). A blob that no longer decrypts (another machine,
 * a changed keychain) reads as "no key": the profile shows "needs key" instead of crashing.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly path: string;
  private blobs: Record<string, string> = {};
  private readonly cache = new Map<string, string>();
  private readonly log: Logger;
  private readonly backend: string;
  /** S10: the person chose obfuscated keys here (read once; allowObfuscated sets it). */
  private obfuscationAccepted: boolean;

  constructor(private readonly options: SafeStorageSecretsOptions) {
    this.path = path.join(options.dataDir, SAFE_SECRETS_FILE_NAME);
    this.log = options.log ?? silentLogger;
    this.backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os';
    this.obfuscationAccepted = this.backend === 'basic_text' && fs.existsSync(path.join(options.dataDir, OBFUSCATION_CONSENT_FILE_NAME));
    if (this.backend === 'basic_text') {
      this.log.warn('safeStorage has no keyring here (basic_text): API keys are only obfuscated, not encrypted. Prefer environment variables.');
    }
    this.load();
  }

  get(profileId: string): string | undefined {
    if (this.cache.has(profileId)) return this.cache.get(profileId);
    const blob = Object.hasOwn(this.blobs, profileId) ? this.blobs[profileId] : undefined;
    if (blob === undefined) return undefined;
    try {
      const key = safeStorage.decryptString(Buffer.from(blob, 'base64'));
      this.options.redactor?.add(key);
      this.cache.set(profileId, key);
      return key;
    } catch {
      // Ids are connection profiles, or mcp:<server>:<field>:<name> for MCP credentials (mcp/secret-config-store.ts).
      const what = profileId.startsWith('mcp:') ? `MCP credential ${profileId.slice(4)}` : `API key for connection ${profileId}`;
      this.log.warn(`The stored ${what} could not be decrypted; enter it again.`);
      return undefined;
    }
  }

  set(profileId: string, key: string): void {
    const clean = checkKey(key);
    this.options.redactor?.add(clean);
    if (this.describe().consent === 'needed') {
      throw new HostFailure({
        code: 'SETTINGS_WRITE_FAILED',
        message: 'No system keyring was found, so the key would only be obfuscated; it was not saved.',
        hint: 'Choose “Store keys obfuscated” where keys are typed, or use an environment variable for this connection.',
        path: '/key',
      });
    }
    if (!safeStorage.isEncryptionAvailable()) {
      throw new HostFailure({
        code: 'SETTINGS_WRITE_FAILED',
        message: 'Encryption is not available on this system, so the key was not saved.',
        hint: 'Use an environment variable (e.g. OPENAI_API_KEY) for this connection instead.',
      });
    }
    const blob = safeStorage.encryptString(clean).toString('base64');
    this.write({ ...this.blobs, [profileId]: blob });
    this.cache.set(profileId, clean);
  }

  delete(profileId: string): void {
    this.cache.delete(profileId);
    if (!Object.hasOwn(this.blobs, profileId)) return;
    const next = { ...this.blobs };
    delete next[profileId];
    this.write(next);
  }

  allowObfuscated(): void {
    if (this.backend !== 'basic_text') return;
    writeFileAtomicSync(path.join(this.options.dataDir, OBFUSCATION_CONSENT_FILE_NAME), `${new Date().toISOString()}\n`, { mode: 0o600 });
    this.obfuscationAccepted = true;
    this.log.warn('API keys will be kept obfuscated (no system keyring): the person chose this in Connections.');
  }

  describe(): SecretStoreDescription {
    if (this.backend === 'basic_text') {
      return {
        backend: 'safeStorage:basic_text',
        warning: 'No system keyring was found, so API keys are stored with a fixed obfuscation key, not real encryption. On a shared machine, prefer environment variables.',
        consent: this.obfuscationAccepted ? 'given' : 'needed',
      };
    }
    return { backend: `safeStorage:${this.backend}` };
  }

  private load(): void {
    const blobs = readKeyFile(this.path, this.log, 'encrypted keys file');
    if (blobs !== null) this.blobs = blobs;
  }

  private write(blobs: Record<string, string>): void {
    const doc: SafeSecretsFile = { version: 1, keys: blobs };
    try {
      writeFileAtomicSync(this.path, JSON.stringify(doc, null, 2), { mode: 0o600 });
    } catch (err) {
      throw new HostFailure({ code: 'SETTINGS_WRITE_FAILED', message: `Could not save the API key (${(err as NodeJS.ErrnoException).code ?? 'error'}).` });
    }
    this.blobs = blobs;
  }
}
