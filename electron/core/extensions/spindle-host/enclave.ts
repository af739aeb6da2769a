// spindle.enclave: an extension's secrets, kept in the same secret store as the API keys (encrypted on
// the desktop by safeStorage; a 0600 file in Node). Only the key names are listed beside it.
import path from 'node:path';
import type { SecretStore } from '../../connections/secret-store';
import { JsonDocument } from './json-document';
import { fail, text, unknownMethod, type Caller, type NamespaceHandler } from './namespace';

/** Lumiverse's rule for enclave keys. */
const KEY = /^[a-zA-Z0-9_\-.]{1,128}$/;
/** The secret store holds values up to this long (connections/secret-store.ts MAX_KEY_LENGTH), as stored. */
export const ENCLAVE_MAX_VALUE_CHARS = 4096;

/**
 * Lumiverse takes any printable text, tabs and line breaks, the empty string included. The secret store takes
 * what an HTTP header can carry, trimmed; a value it could not keep exactly (empty, a line break or tab, spaces
 * at an end) is stored encoded, and read back as it was.
 */
const ENCODED = 'cw-enclave-b64:';
const encode = (value: string) => (value !== '' && value === value.trim() && !/[\t\n\r]/.test(value) && !value.startsWith(ENCODED) ? value : ENCODED + Buffer.from(value, 'utf8').toString('base64'));
const decode = (stored: string | undefined) => (stored?.startsWith(ENCODED) ? Buffer.from(stored.slice(ENCODED.length), 'base64').toString('utf8') : stored);

function keyOf(value: unknown): string {
  const key = text(value, 'key', 128);
  if (!KEY.test(key)) fail('INVALID_INPUT', 'An enclave key is 1–128 letters, digits, _, - and .', '/key');
  return key;
}

export class ExtensionEnclave implements NamespaceHandler {
  private readonly indexes = new Map<string, JsonDocument<{ keys: string[] }>>();

  constructor(
    private readonly dataRoot: string,
    private readonly secrets: () => SecretStore | null,
  ) {}

  async handle(caller: Caller, method: string, args: unknown[]): Promise<unknown> {
    const store = this.secrets();
    if (!store) fail('UNSUPPORTED_HERE', 'This host has no secret store for spindle.enclave.');
    const index = this.index(caller.extensionId);
    const id = (key: string) => `enclave:${caller.extensionId}:${key}`;
    switch (method) {
      case 'put': {
        const key = keyOf(args[0]);
        const value = args[1];
        if (typeof value !== 'string') fail('INVALID_INPUT', 'An enclave value is a string.', '/value');
        if (/[^\x20-\x7E\t\n\r\u00A0-\uFFFF]/.test(value)) fail('INVALID_INPUT', 'An enclave value cannot contain control characters (tabs and line breaks are fine).', '/value');
        const stored = encode(value);
        if (stored.length > ENCLAVE_MAX_VALUE_CHARS) fail('INPUT_TOO_LARGE', `An enclave value is at most ${ENCLAVE_MAX_VALUE_CHARS} characters as stored (about ${Math.floor((ENCLAVE_MAX_VALUE_CHARS * 3) / 4) - 12} with line breaks).`, '/value');
        store.set(id(key), stored);
        await index.update((doc) => {
          if (!doc.keys.includes(key)) doc.keys.push(key);
        });
        return null;
      }
      case 'get':
        return decode(store.get(id(keyOf(args[0])))) ?? null;
      case 'has':
        return store.get(id(keyOf(args[0]))) !== undefined;
      case 'delete': {
        const key = keyOf(args[0]);
        const had = store.get(id(key)) !== undefined;
        store.delete(id(key));
        await index.update((doc) => {
          doc.keys = doc.keys.filter((k) => k !== key);
        });
        return had;
      }
      case 'list':
        return index.read().keys.filter((key) => store.get(id(key)) !== undefined);
      default:
        return unknownMethod('enclave', method);
    }
  }

  private index(extensionId: string): JsonDocument<{ keys: string[] }> {
    let doc = this.indexes.get(extensionId);
    if (!doc) {
      doc = new JsonDocument(path.join(this.dataRoot, extensionId, 'enclave-keys.json'), () => ({ keys: [] }), 64 * 1024);
      this.indexes.set(extensionId, doc);
    }
    return doc;
  }
}
