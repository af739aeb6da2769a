// Owns settings.json: load with quarantine of bad files, validated deep-merge updates, serialized atomic writes.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { defaultSettings, SETTINGS_VERSION, SettingsSchema, type Settings } from '../../../shared/settings';
import { HostFailure } from '../../../shared/errors';
import { describeAjvError } from '../contract/validators';
import type { Clock, Logger, SettingsBackendFactory } from '../ports';
import { migrate, migrations as appMigrations, type Migration } from './migrations';

const validateSettings = new Ajv({ strict: false, allErrors: false }).compile(SettingsSchema);

export const SETTINGS_NAME = 'settings';

export interface SettingsProblem {
  file: string;
  movedTo: string;
  reason: string;
}

export interface SettingsStoreOptions {
  dataDir: string;
  backend: SettingsBackendFactory;
  clock: Clock;
  log: Logger;
  migrations?: Migration[];
  version?: number;
}

type Parsed = { ok: true; doc: Settings } | { ok: false; reason: string };

function parseSettings(text: string, version: number, steps: Migration[]): Parsed {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not valid JSON (${(err as Error).message})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'not a JSON object' };
  const fileVersion = (raw as { version?: unknown }).version;
  if (typeof fileVersion === 'number' && fileVersion > version) {
    return { ok: false, reason: `written by a newer version (settings version ${fileVersion}; this app reads up to ${version})` };
  }
  let doc: Record<string, unknown>;
  try {
    doc = migrate(raw as Record<string, unknown>, version, steps);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  if (!validateSettings(doc)) {
    const { message } = describeAjvError(validateSettings.errors?.[0], 'invalid');
    return { ok: false, reason: `wrong shape: ${message}` };
  }
  return { ok: true, doc: doc as Settings };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge for plain objects; arrays and scalars replace. Prototype keys are never copied. */
export function mergePatch(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    out[key] = value === undefined ? base[key] : mergePatch(base[key], value);
  }
  return out;
}

export class SettingsStore {
  readonly problems: SettingsProblem[] = [];
  recoveredFromBackup = false;
  private doc: Settings;
  private readonly backend;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(settings: Settings) => void>();

  constructor(private readonly options: SettingsStoreOptions) {
    const version = options.version ?? SETTINGS_VERSION;
    const steps = options.migrations ?? appMigrations;
    const file = path.join(options.dataDir, `${SETTINGS_NAME}.json`);
    const backupFile = `${file}.bak`;

    let loaded: Settings | null = null;
    if (fs.existsSync(file)) {
      const parsed = parseSettings(fs.readFileSync(file, 'utf8'), version, steps);
      if (parsed.ok) loaded = parsed.doc;
      else this.quarantine(file, parsed.reason);
    }
    if (!loaded && this.problems.length > 0 && fs.existsSync(backupFile)) {
      const parsed = parseSettings(fs.readFileSync(backupFile, 'utf8'), version, steps);
      if (parsed.ok) {
        loaded = parsed.doc;
        this.recoveredFromBackup = true;
        options.log.warn('settings: loaded the last good copy');
      }
    }
    this.doc = loaded ?? defaultSettings();

    // The backend is opened only after a bad file is out of the way, so it never sees one.
    this.backend = options.backend({ dataDir: options.dataDir, name: SETTINGS_NAME });
    this.backend.write(this.doc as unknown as Record<string, unknown>);
    fs.writeFileSync(backupFile, JSON.stringify(this.doc, null, '\t'));
  }

  private quarantine(file: string, reason: string): void {
    const movedTo = `${file}.corrupt-${this.options.clock.now()}`;
    fs.renameSync(file, movedTo);
    this.problems.push({ file, movedTo, reason });
    this.options.log.warn(`settings: ${path.basename(file)} was ${reason}; moved aside to ${path.basename(movedTo)}`);
  }

  get path(): string {
    return this.backend.path;
  }

  get(): Settings {
    return structuredClone(this.doc);
  }

  /**
   * The current document itself, without the copy get() makes: for hot paths that only read (the
   * guard reads it on every tool call). Never mutate it. update() swaps in a new document and
   * never changes the old one, so a peeked value stays a consistent snapshot.
   */
  peek(): Readonly<Settings> {
    return this.doc;
  }

  onChange(listener: (settings: Settings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies updates one at a time so none is lost; a failed write leaves the old state in place. */
  update(change: Record<string, unknown> | ((current: Settings) => Settings)): Promise<Settings> {
    const run = async (): Promise<Settings> => {
      const next = typeof change === 'function' ? change(this.get()) : (mergePatch(this.doc, change) as Settings);
      next.version = this.doc.version;
      if (!validateSettings(next)) {
        const { message, path: field } = describeAjvError(validateSettings.errors?.[0], 'invalid');
        throw new HostFailure({ code: 'SETTINGS_INVALID', message: `Settings rejected: ${message}`, path: field });
      }
      try {
        this.backend.write(next as unknown as Record<string, unknown>);
      } catch (err) {
        throw new HostFailure({
          code: 'SETTINGS_WRITE_FAILED',
          message: `Could not save settings: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
          hint: 'Check that the data folder is writable and the disk is not full.',
        });
      }
      this.doc = next;
      for (const listener of this.listeners) listener(this.get());
      return this.get();
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
