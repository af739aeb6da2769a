// What the extension manager lends the parts that work on its entries (installs, starts, access, the worker
// supervisor): one service, made once and handed to each, instead of a bag of closures per part.
import type { HostError } from '../../../shared/errors';
import type { LogLevel } from '../../../shared/protocol';
import type { Entry } from './extension-entry';
import type { LogSource } from './extension-log';
import type { ExtensionEvent, ExtensionInfo, ExtensionSource, ExtensionStatus } from './extension-types';
import type { LoadedManifest } from './install/manifest';

export interface EntryServices {
  /** The installed extensions, by id. */
  readonly entries: Map<string, Entry>;
  /** Runs `op` after the entry's earlier operations (one at a time per extension). */
  enqueue<T>(entry: Entry, op: () => Promise<T> | T): Promise<T>;
  /** Saves what is kept of it (enabled, granted, trusted). */
  persist(entry: Entry): Promise<void>;
  setStatus(entry: Entry, status: ExtensionStatus, error: HostError | null): void;
  /** A line for its log (and the log's event). */
  log(entry: Entry, level: LogLevel, source: LogSource, text: string): void;
  /** Its card changed: clients hear it. */
  changed(entry: Entry): void;
  info(entry: Entry): ExtensionInfo;
  emit(event: ExtensionEvent): void;
  newEntry(id: string, source: ExtensionSource, folder: string, loaded: LoadedManifest | null): Entry;
  /** The host is shutting down: nothing more starts. */
  disposed(): boolean;
}
