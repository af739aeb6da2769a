// ctx.settings (Lumiverse's frontend extensibility v2): a frontend's own settings, a key to a JSON value, kept on
// the host beside its other data so they outlive the window and a reinstall of the same version. Lumiverse keeps
// them among the person's settings under `spindle:<identifier>:<key>`; here each extension has its own document.
import path from 'node:path';
import { checkJsonBudget } from '../../../../shared/json-budget';
import { fail } from './handlers';
import { JsonDocument } from './json-document';

/** A key is at most this long; one value at most MAX_SETTING_BYTES; all of one extension's at most MAX_SETTINGS_BYTES. */
export const MAX_SETTING_KEY = 200;
export const MAX_SETTING_BYTES = 256 * 1024;
export const MAX_SETTINGS_BYTES = 1024 * 1024;

type Settings = { values: Record<string, unknown> };

/** Its file in the extension's data folder (one of the host's own there: storage-areas.ts leaves it where it is). */
export const FRONTEND_SETTINGS_FILE = 'frontend-settings.json';

export class FrontendSettings {
  private readonly docs = new Map<string, JsonDocument<Settings>>();

  constructor(private readonly dataRoot: string) {}

  /** Every setting it has kept, by key. */
  read(extensionId: string): Record<string, unknown> {
    return { ...this.doc(extensionId).read().values };
  }

  /** Keeps `value` under `key`; undefined (or nothing) removes it. */
  async write(extensionId: string, key: unknown, value: unknown): Promise<null> {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_SETTING_KEY) fail('INVALID_INPUT', `A setting's key is a string of 1 to ${MAX_SETTING_KEY} characters.`, '/args/0');
    if (value !== undefined) {
      const over = checkJsonBudget(value, { maxBytes: MAX_SETTING_BYTES, maxDepth: 64 });
      if (over) fail(over.reason === 'too-large' ? 'INPUT_TOO_LARGE' : 'INVALID_INPUT', over.reason === 'too-large' ? `A setting's value is at most ${MAX_SETTING_BYTES} bytes of JSON.` : `The value of "${key}" is ${over.reason === 'too-deep' ? 'nested too deep' : 'not JSON'} at ${over.path || '/'}.`, '/args/1');
    }
    await this.doc(extensionId).update((draft) => {
      if (value === undefined) delete draft.values[key];
      // Defined, not assigned: a key such as "__proto__" is kept as a setting like any other.
      else Object.defineProperty(draft.values, key, { value, enumerable: true, writable: true, configurable: true });
    });
    return null;
  }

  /** The extension was removed (its folder goes with it). */
  forget(extensionId: string): void {
    this.docs.delete(extensionId);
  }

  private doc(extensionId: string): JsonDocument<Settings> {
    let doc = this.docs.get(extensionId);
    if (!doc) this.docs.set(extensionId, (doc = new JsonDocument(path.join(this.dataRoot, extensionId, FRONTEND_SETTINGS_FILE), () => ({ values: Object.create(null) as Record<string, unknown> }), MAX_SETTINGS_BYTES)));
    return doc;
  }
}
