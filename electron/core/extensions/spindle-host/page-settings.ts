// Lumiverse's settings rows as an extension's frontend reaches them by REST (`/api/v1/settings/<key>`): Vishrun keeps
// its scripts there. In Lumiverse they are the person's settings, shared by everything on the page; here each
// extension has rows of its own, so it reads back what it wrote and never another's (nor the Workbench's own, which
// page-api.ts answers by name). Keys and values are checked as Lumiverse checks them.
import path from 'node:path';
import { fail } from './handlers';
import { JsonDocument } from './json-document';

/** Lumiverse's rules: a key of letters, digits, `.`, `_`, `-` and `:`, 1–200 long; a value at most 2 MB of JSON. */
export const SETTING_KEY = /^[A-Za-z0-9._:-]{1,200}$/;
export const MAX_PAGE_SETTING_CHARS = 2 * 1024 * 1024;
/** All of one extension's rows. */
export const MAX_PAGE_SETTINGS_BYTES = 8 * 1024 * 1024;

export interface SettingRow {
  key: string;
  value: unknown;
  /** Seconds, as Lumiverse's rows. */
  updated_at: number;
}

type Rows = { rows: Record<string, { value: unknown; updated_at: number }> };

/** Its file in the extension's data folder, beside ctx.settings' own. */
export const PAGE_SETTINGS_FILE = 'page-settings.json';

export class PageSettings {
  private readonly docs = new Map<string, JsonDocument<Rows>>();

  constructor(
    private readonly dataRoot: string,
    private readonly now: () => number,
  ) {}

  list(extensionId: string): SettingRow[] {
    return Object.entries(this.doc(extensionId).read().rows).map(([key, row]) => ({ key, ...row }));
  }

  get(extensionId: string, key: string): SettingRow | null {
    const row = Object.hasOwn(this.doc(extensionId).read().rows, key) ? this.doc(extensionId).read().rows[key] : undefined;
    return row ? { key, ...row } : null;
  }

  /** Keeps each key's value (Lumiverse's bulk PUT too): all are checked before any is written. */
  async put(extensionId: string, values: Record<string, unknown>): Promise<SettingRow[]> {
    const checked = Object.entries(values).map(([key, value]) => [checkKey(key), checkValue(key, value)] as const);
    const updated_at = Math.floor(this.now() / 1000);
    await this.doc(extensionId).update((draft) => {
      // Defined, not assigned: a key such as "__proto__" is a row like any other.
      for (const [key, value] of checked) Object.defineProperty(draft.rows, key, { value: { value, updated_at }, enumerable: true, writable: true, configurable: true });
    });
    return checked.map(([key, value]) => ({ key, value, updated_at }));
  }

  /** Whether there was such a row. */
  async delete(extensionId: string, key: string): Promise<boolean> {
    return this.doc(extensionId).update((draft) => {
      if (!Object.hasOwn(draft.rows, key)) return false;
      delete draft.rows[key];
      return true;
    });
  }

  /** The extension was removed (its folder goes with it). */
  forget(extensionId: string): void {
    this.docs.delete(extensionId);
  }

  private doc(extensionId: string): JsonDocument<Rows> {
    let doc = this.docs.get(extensionId);
    if (!doc) this.docs.set(extensionId, (doc = new JsonDocument(path.join(this.dataRoot, extensionId, PAGE_SETTINGS_FILE), () => ({ rows: Object.create(null) as Rows['rows'] }), MAX_PAGE_SETTINGS_BYTES)));
    return doc;
  }
}

function checkKey(key: string): string {
  if (!SETTING_KEY.test(key)) fail('INVALID_INPUT', "Setting key may only contain letters, digits, '.', '_', '-', and ':' (1 to 200 of them).", `/${key.slice(0, 200)}`);
  return key;
}

/** The value as JSON keeps it (undefined is null, as Lumiverse stores it). */
function checkValue(key: string, value: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value ?? null);
  } catch {
    fail('INVALID_INPUT', `Setting "${key}" value is not JSON-serializable.`, `/${key}`);
  }
  if (json!.length > MAX_PAGE_SETTING_CHARS) fail('INPUT_TOO_LARGE', `Setting "${key}" exceeds ${MAX_PAGE_SETTING_CHARS} bytes serialized.`, `/${key}`);
  return JSON.parse(json!) as unknown;
}
