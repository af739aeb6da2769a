// Extensions slice: installed extensions as the host reports them, plus the log lines of the logs the user has open.
import type { ExtensionInfo } from '../../../../shared/contract/events';
import type { Slice } from '../app/slice';

/** Most lines kept per open log; the host keeps its own, longer log (extensions.log reads it). */
export const LOG_LINES_CAP = 500;

export interface ExtensionsSlice {
  extensions: {
    /** Host truth as last reported, in the host's order. */
    items: readonly ExtensionInfo[];
    /** False until the first extensions.list answer arrived. */
    loaded: boolean;
    /**
     * Log lines per extension, only for logs that were read with extensions.log; live extension.log
     * lines are appended to those. Lines for other extensions are left to the host.
     */
    logs: Readonly<Record<string, readonly string[]>>;
  };
  extensionsReplaced(list: readonly ExtensionInfo[]): void;
  extensionChanged(extension: ExtensionInfo): void;
  extensionRemoved(id: string): void;
  extensionLogLoaded(id: string, lines: readonly string[]): void;
  extensionLogLine(id: string, line: string): void;
  extensionLogClosed(id: string): void;
}

function withoutKey<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const next: Record<string, T> = {};
  for (const [k, v] of Object.entries(record)) if (k !== key) setOwn(next, k, v);
  return next;
}

function withKey<T>(record: Readonly<Record<string, T>>, key: string, value: T): Record<string, T> {
  const next = withoutKey(record, key);
  setOwn(next, key, value);
  return next;
}

/** Defines rather than assigns: an extension id is host data, and `__proto__` must stay a plain key. */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

export const createExtensionsSlice: Slice<ExtensionsSlice> = (set) => ({
  extensions: { items: [], loaded: false, logs: {} },
  extensionsReplaced: (list) =>
    set((s) => {
      const ids = new Set(list.map((e) => e.id));
      const logs: Record<string, readonly string[]> = {};
      for (const [id, lines] of Object.entries(s.extensions.logs)) if (ids.has(id)) setOwn(logs, id, lines);
      return { extensions: { items: [...list], loaded: true, logs } };
    }),
  extensionChanged: (extension) =>
    set((s) => {
      const items = s.extensions.items;
      const next = items.some((e) => e.id === extension.id)
        ? items.map((e) => (e.id === extension.id ? extension : e))
        : [...items, extension];
      return { extensions: { ...s.extensions, items: next } };
    }),
  extensionRemoved: (id) =>
    set((s) => ({
      extensions: { ...s.extensions, items: s.extensions.items.filter((e) => e.id !== id), logs: withoutKey(s.extensions.logs, id) },
    })),
  extensionLogLoaded: (id, lines) =>
    set((s) => ({ extensions: { ...s.extensions, logs: withKey(s.extensions.logs, id, lines.slice(-LOG_LINES_CAP)) } })),
  extensionLogLine: (id, line) =>
    set((s) => {
      if (!hasOwn(s.extensions.logs, id)) return s;
      const lines = [...s.extensions.logs[id]!, line].slice(-LOG_LINES_CAP);
      return { extensions: { ...s.extensions, logs: withKey(s.extensions.logs, id, lines) } };
    }),
  extensionLogClosed: (id) =>
    set((s) => (hasOwn(s.extensions.logs, id) ? { extensions: { ...s.extensions, logs: withoutKey(s.extensions.logs, id) } } : s)),
});
