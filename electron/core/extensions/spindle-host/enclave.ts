// spindle.enclave: an extension's secrets, kept in the same secret store as the API keys (encrypted on
// the desktop by safeStorage; a 0600 file in Node). Only the key names are listed beside it.
import path from 'node:path';
import type { SecretStore } from '../../connections/secret-store';
import { JsonDocument } from './json-document';
import { fail, type Caller, type HandlersOf } from './handlers';

// Keys follow Lumiverse's rule (1–128 letters, digits, _, - and .): requests.ts.
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

export class ExtensionEnclave {
  private readonly indexes = new Map<string, JsonDocument<{ keys: string[] }>>();

  constructor(
    private readonly dataRoot: string,
    private readonly secrets: () => SecretStore | null,
  ) {}

  handlers(): HandlersOf<'enclave'> {
    return {
      'enclave.put': async ({ key, value }, caller) => {
        if (/[^\x20-\x7E\t\n\r\u00A0-\uFFFF]/.test(value)) fail('INVALID_INPUT', 'An enclave value cannot contain control characters (tabs and line breaks are fine).', '/value');
        const stored = encode(value);
        if (stored.length > ENCLAVE_MAX_VALUE_CHARS) fail('INPUT_TOO_LARGE', `An enclave value is at most ${ENCLAVE_MAX_VALUE_CHARS} characters as stored (about ${Math.floor((ENCLAVE_MAX_VALUE_CHARS * 3) / 4) - 12} with line breaks).`, '/value');
        const { store, index, id } = this.area(caller);
        store.set(id(key), stored);
        await index.update((doc) => {
          if (!doc.keys.includes(key)) doc.keys.push(key);
        });
        return null;
      },
      'enclave.get': ({ key }, caller) => {
        const { store, id } = this.area(caller);
        return decode(store.get(id(key))) ?? null;
      },
      'enclave.has': ({ key }, caller) => {
        const { store, id } = this.area(caller);
        return store.get(id(key)) !== undefined;
      },
      'enclave.delete': async ({ key }, caller) => {
        const { store, index, id } = this.area(caller);
        const had = store.get(id(key)) !== undefined;
        store.delete(id(key));
        await index.update((doc) => {
          doc.keys = doc.keys.filter((k) => k !== key);
        });
        return had;
      },
      'enclave.list': (_params, caller) => {
        const { store, index, id } = this.area(caller);
        return index.read().keys.filter((key) => store.get(id(key)) !== undefined);
      },
    };
  }

  /** The secret store, the extension's key list, and its keys' names in the store. */
  private area(caller: Caller) {
    const store = this.secrets() ?? fail('UNSUPPORTED_HERE', 'This host has no secret store for spindle.enclave.');
    return { store, index: this.index(caller.extensionId), id: (key: string) => `enclave:${caller.extensionId}:${key}` };
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
