// S10, S11: the desktop secret store over Electron safeStorage (replaced here by a stand-in with the same calls,
// since the Electron binary cannot run in these tests): no keyring, no encryption, and blobs that stop decrypting.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { profileView } from '../../../electron/core/connections/secret-store';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { captureLogger } from '../llm/helpers';

const safe = vi.hoisted(() => ({
  backend: 'gnome_libsecret',
  available: true,
  /** The machine's secret: a blob written under another one no longer decrypts. */
  machine: 'm1',
}));

vi.mock('electron', () => ({
  safeStorage: {
    getSelectedStorageBackend: () => safe.backend,
    isEncryptionAvailable: () => safe.available,
    encryptString: (text: string) => Buffer.from(`${safe.machine}:${Buffer.from(text).toString('hex')}`),
    decryptString: (blob: Buffer) => {
      const [machine, hex] = blob.toString().split(':');
      if (machine !== safe.machine) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(hex!, 'hex').toString();
    },
  },
}));

const { SafeStorageSecretStore, SAFE_SECRETS_FILE_NAME, OBFUSCATION_CONSENT_FILE_NAME } = await import('../../../electron/main/safe-storage-secrets');

const KEY = 'sk-desktop-canary-0123456789';
const profile: ConnectionProfile = { id: 'openai', name: 'OpenAI', provider: 'openai', baseUrl: 'https://api.openai.com/v1', defaultModel: '', headers: {}, keyRef: { kind: 'stored' } };

beforeEach(() => Object.assign(safe, { backend: 'gnome_libsecret', available: true, machine: 'm1' }));
afterEach(cleanupTempDirs);

describe('S10, S11: the desktop secret store', () => {
  it('S10: with no keyring (basic_text) it says the keys are only obfuscated, at start and wherever keys are typed', () => {
    safe.backend = 'basic_text';
    const log = captureLogger();
    const store = new SafeStorageSecretStore({ dataDir: tempDir(), log: log.logger });
    expect(log.lines.join('\n')).toMatch(/basic_text.*only obfuscated/);
    expect(store.describe()).toMatchObject({ backend: 'safeStorage:basic_text', warning: expect.stringMatching(/not real encryption/) });
  });

  it('S10: with no keyring (basic_text) no key is saved until the person chooses obfuscation; the choice is remembered', () => {
    safe.backend = 'basic_text';
    const dir = tempDir();
    const store = new SafeStorageSecretStore({ dataDir: dir });
    expect(store.describe().consent).toBe('needed');
    expect(() => store.set('openai', KEY)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'SETTINGS_WRITE_FAILED', path: '/key', hint: expect.stringMatching(/Store keys obfuscated.*environment variable/) }) }));
    expect(fs.readdirSync(dir)).toEqual([]);

    store.allowObfuscated();
    expect(store.describe().consent).toBe('given');
    if (process.platform !== 'win32') expect(fs.statSync(path.join(dir, OBFUSCATION_CONSENT_FILE_NAME)).mode & 0o777).toBe(0o600);
    store.set('openai', KEY);
    expect(fs.readFileSync(path.join(dir, SAFE_SECRETS_FILE_NAME), 'utf8')).not.toContain(KEY);
    const later = new SafeStorageSecretStore({ dataDir: dir });
    expect(later.describe().consent).toBe('given');
    expect(later.get('openai')).toBe(KEY);
  });

  it('S10: with a real keyring nothing is asked', () => {
    const store = new SafeStorageSecretStore({ dataDir: tempDir() });
    expect(store.describe().consent).toBeUndefined();
    store.allowObfuscated();
    expect(store.describe().consent).toBeUndefined();
  });

  it('S10: without encryption a key is refused, never written in plain text', () => {
    safe.available = false;
    const dir = tempDir();
    const store = new SafeStorageSecretStore({ dataDir: dir });
    expect(() => store.set('openai', KEY)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'SETTINGS_WRITE_FAILED', hint: expect.stringMatching(/environment variable/) }) }));
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(store.get('openai')).toBeUndefined();
  });

  it('S10: a saved key is in its file only as an encrypted blob (0600)', () => {
    const dir = tempDir();
    new SafeStorageSecretStore({ dataDir: dir }).set('openai', KEY);
    const file = path.join(dir, SAFE_SECRETS_FILE_NAME);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(new SafeStorageSecretStore({ dataDir: dir }).get('openai')).toBe(KEY);
  });

  it('S11: a key that no longer decrypts (another machine, a changed keychain) makes the profile "needs key", with a warning and no crash', () => {
    const dir = tempDir();
    new SafeStorageSecretStore({ dataDir: dir }).set('openai', KEY);
    safe.machine = 'm2';
    const log = captureLogger();
    const store = new SafeStorageSecretStore({ dataDir: dir, log: log.logger });
    expect(store.get('openai')).toBeUndefined();
    expect(profileView(profile, store, {})).toMatchObject({ hasKey: false, keyHint: null });
    expect(log.lines.join('\n')).toMatch(/API key for connection openai could not be decrypted; enter it again/);
    // Typing it again re-encrypts it for this machine.
    store.set('openai', KEY);
    expect(new SafeStorageSecretStore({ dataDir: dir }).get('openai')).toBe(KEY);
  });
});
