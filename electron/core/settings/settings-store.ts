// Owns settings.json: load with quarantine of bad files, validated deep-merge updates, serialized atomic writes.
import fs from 'node:fs';
import { Emitter } from '../util/emitter';
import path from 'node:path';
import { defaultSettings, SETTINGS_VERSION, SettingsSchema, type Settings } from '../../../shared/settings';
import { HostFailure } from '../../../shared/errors';
import { describeAjvError, lazyValidator } from '../contract/validators';
import type { Clock, Logger, SettingsBackend, SettingsBackendFactory } from '../ports';
import { isLeftoverTemp, writeFileAtomicSync } from '../util/atomic-write';
import { migrate, migrations as appMigrations, type Migration } from './migrations';
import { withSettingsLock } from './settings-lock';

const validateSettings = lazyValidator<Settings>(SettingsSchema);

export const SETTINGS_NAME = 'settings';

export interface SettingsProblem {
  file: string;
  movedTo: string;
  reason: string;
  /** Only some sections were reset; the rest of the file was loaded. */
  partial?: boolean;
}

export interface SettingsStoreOptions {
  dataDir: string;
  backend: SettingsBackendFactory;
  clock: Clock;
  log: Logger;
  migrations?: Migration[];
  version?: number;
}

type Parsed = { ok: true; doc: Settings; reset: string[] } | { ok: false; reason: string };

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
  // One bad field does not cost the whole file: the top-level section holding it goes back to its default.
  const reset: string[] = [];
  const defaults = defaultSettings() as unknown as Record<string, unknown>;
  while (!validateSettings(doc)) {
    const { message, path: field } = describeAjvError(validateSettings.errors?.[0], 'invalid');
    const section = field.split('/')[1];
    if (!section || section === 'version' || reset.includes(section) || reset.length >= 10) return { ok: false, reason: `wrong shape: ${message}` };
    reset.push(`${section} (${message})`);
    doc = { ...doc };
    if (section in defaults) doc[section] = structuredClone(defaults[section]);
    else delete doc[section];
  }
  return { ok: true, doc: doc as Settings, reset };
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep merge for plain objects; arrays and scalars replace. `__proto__` is never copied (assigning it would
 * swap a prototype); other keys, `constructor` included (an extension may be named so), are own entries.
 */
export function mergePatch(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    const own = Object.hasOwn(base, key) ? base[key] : undefined;
    out[key] = value === undefined ? own : mergePatch(own, value);
  }
  return out;
}

/** A directory proper-lockfile creates and removes (not `settings.json.lock`, the file older versions used). */
const lockPathOf = (dataDir: string) => path.join(dataDir, `${SETTINGS_NAME}.lock`);

export class SettingsStore {
  readonly problems: SettingsProblem[] = [];
  recoveredFromBackup = false;
  private doc: Settings;
  private backend!: SettingsBackend;
  private readonly file: string;
  private readonly version: number;
  private readonly steps: Migration[];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Emitter<Settings>((err) => this.options.log.error('settings listener failed', err));

  /** Opens the data folder's settings under its lock: another process (a CLI run, the app) may be writing now. */
  static async open(options: SettingsStoreOptions): Promise<SettingsStore> {
    fs.mkdirSync(options.dataDir, { recursive: true });
    const file = path.join(options.dataDir, `${SETTINGS_NAME}.json`);
    return withSettingsLock(file, lockPathOf(options.dataDir), options.log, () => new SettingsStore(options));
  }

  /** Loads the document; only open() calls it, holding the lock. */
  private constructor(private readonly options: SettingsStoreOptions) {
    const version = options.version ?? SETTINGS_VERSION;
    const steps = options.migrations ?? appMigrations;
    const file = path.join(options.dataDir, `${SETTINGS_NAME}.json`);
    const backupFile = `${file}.bak`;
    this.file = file;
    this.version = version;
    this.steps = steps;
    this.doc = this.load(file, backupFile);
  }

  /** Reads settings.json (or its last good copy), puts a bad file aside, and writes what needs writing. */
  private load(file: string, backupFile: string): Settings {
    const { version, steps, options } = this;
    let loaded: Settings | null = null;
    let asStored = false;
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8');
      const parsed = parseSettings(text, version, steps);
      if (parsed.ok) {
        loaded = parsed.doc;
        asStored = JSON.stringify(JSON.parse(text)) === JSON.stringify(parsed.doc);
        if (parsed.reset.length) this.keepAside(file, `partly invalid: ${parsed.reset.join('; ')} reset to the defaults`);
      } else this.quarantine(file, parsed.reason);
    }
    if (!loaded && this.problems.length > 0 && fs.existsSync(backupFile)) {
      const parsed = parseSettings(fs.readFileSync(backupFile, 'utf8'), version, steps);
      if (parsed.ok) {
        loaded = parsed.doc;
        this.recoveredFromBackup = true;
        options.log.warn('settings: loaded the last good copy');
      }
    }
    const doc = loaded ?? defaultSettings();
    this.removeLeftoverTemps();
    // The backend is opened only after a bad file is out of the way, so it never sees one.
    this.backend = options.backend({ dataDir: options.dataDir, name: SETTINGS_NAME });
    // Only a new, migrated or recovered document is written: rewriting a good file at every start
    // would put back what this process read over a change another process made since.
    if (!asStored) this.backend.write(doc as unknown as Record<string, unknown>);
    // The last good copy: written when it differs (a durable write is the slowest step of a start that changes nothing).
    const backup = JSON.stringify(doc, null, '\t');
    if (readIfExists(backupFile) !== backup) writeFileAtomicSync(backupFile, backup);
    return doc;
  }

  /** The document on disk (another process may have changed it); null when unreadable, and ours stays. */
  private stored(): Settings | null {
    try {
      const parsed = parseSettings(fs.readFileSync(this.file, 'utf8'), this.version, this.steps);
      return parsed.ok ? parsed.doc : null;
    } catch {
      return null;
    }
  }

  /** Temp files a killed writer left beside settings.json (conf's `settings.json.tmp-…`, ours `settings.json.<pid>.<hex>.tmp`). */
  private removeLeftoverTemps(): void {
    const base = path.basename(this.file);
    for (const name of fs.readdirSync(this.options.dataDir)) {
      if (name.startsWith(`${base}.tmp-`) || isLeftoverTemp(base, name)) fs.rmSync(path.join(this.options.dataDir, name), { force: true });
    }
  }

  /** A copy of a file whose bad sections were reset, for the person to look at. */
  private keepAside(file: string, reason: string): void {
    const movedTo = `${file}.corrupt-${this.options.clock.now()}`;
    fs.copyFileSync(file, movedTo);
    this.problems.push({ file, movedTo, reason, partial: true });
    this.options.log.warn(`settings: ${path.basename(file)} was ${reason}; the original is kept as ${path.basename(movedTo)}`);
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

  /** Resolves when every update asked for so far is written (or has failed). */
  settled(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  onChange(listener: (settings: Settings) => void): () => void {
    return this.listeners.on(listener);
  }

  /** Applies updates one at a time so none is lost; a failed write leaves the old state in place. */
  update(change: Record<string, unknown> | ((current: Settings) => Settings)): Promise<Settings> {
    // One writer at a time across processes: the change is applied to the document as stored now.
    const run = (): Promise<Settings> =>
      withSettingsLock(this.file, lockPathOf(this.options.dataDir), this.options.log, () => {
        this.doc = this.stored() ?? this.doc;
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
        // The last good copy follows every save (a copy, so a broken settings.json never takes it along).
        try {
          writeFileAtomicSync(`${this.file}.bak`, JSON.stringify(next, null, '\t'));
        } catch (err) {
          this.options.log.warn('settings: could not refresh settings.json.bak', (err as Error).message);
        }
        this.listeners.emit(this.get());
        return this.get();
      });
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
