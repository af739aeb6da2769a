// createHost(ports): wires the core services to the contract and owns their lifetime.
import type { Handlers } from '../../shared/contract';
import type { HostEvent, HostEventListener } from '../../shared/events';
import type { Notice } from '../../shared/notices';
import { createDispatcher, type Dispatcher } from './contract/dispatcher';
import { ExtensionManager } from './extensions/extension-manager';
import { formatLogEntry } from './extensions/extension-log';
import { NodeLauncher, workerRuntimeSource, type Launcher } from './extensions/launcher';
import { settingsExtensionState } from './extensions/settings-state';
import { extensionHandlers } from './handlers/extension-handlers';
import { toolHandlers } from './handlers/tool-handlers';
import { systemClock, type Clock, type Logger, type SettingsBackendFactory } from './ports';
import { enableLinearRegexFallback } from './registry/safe-regex-engine';
import { ToolRegistry } from './registry/tool-registry';
import { SettingsStore } from './settings/settings-store';

export interface HostPorts {
  dataDir: string;
  mode: 'desktop' | 'browser' | 'cli';
  settingsBackend: SettingsBackendFactory;
  log: Logger;
  clock?: Clock;
  /** Starts extension workers: utilityProcess in the desktop app, child_process.fork in Node. */
  launcher?: Launcher;
  /** The worker runtime script (built out/main/worker.js in the desktop app; the .ts source under tsx). */
  workerEntry?: string;
  /** Bundled extensions folder; null for none (tests). Default: the repository's resources/extensions. */
  bundledExtensionsDir?: string | null;
}

export interface Host {
  api: Dispatcher;
  onEvent(listener: HostEventListener): () => void;
  settings: SettingsStore;
  registry: ToolRegistry;
  extensions: ExtensionManager;
  dispose(): Promise<void>;
}

export async function createHost(ports: HostPorts): Promise<Host> {
  enableLinearRegexFallback();
  const clock = ports.clock ?? systemClock;
  const listeners = new Set<HostEventListener>();
  const emit = (event: HostEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (err) {
        ports.log.error('event listener failed', err);
      }
    }
  };

  const notices: Notice[] = [];
  let noticeSeq = 0;
  const addNotice = (notice: Omit<Notice, 'id' | 'at'>) => {
    const full: Notice = { ...notice, id: `n${++noticeSeq}`, at: clock.now() };
    notices.push(full);
    emit({ type: 'notice.added', notice: full });
  };

  const settings = new SettingsStore({ dataDir: ports.dataDir, backend: ports.settingsBackend, clock, log: ports.log });
  for (const problem of settings.problems) {
    addNotice({
      level: 'warning',
      code: 'SETTINGS_RECOVERED',
      message: `Your settings file was ${problem.reason}. It was kept aside as ${problem.movedTo}; ${
        settings.recoveredFromBackup ? 'the last good copy' : 'the defaults'
      } were loaded.`,
    });
  }
  settings.onChange((next) => emit({ type: 'settings.changed', settings: next }));

  const registry = new ToolRegistry({ clock, log: ports.log });
  // Many registrations arrive in one burst at start-up: send the list once per burst.
  let toolsChangedQueued = false;
  registry.onEvent(() => {
    if (toolsChangedQueued) return;
    toolsChangedQueued = true;
    queueMicrotask(() => {
      toolsChangedQueued = false;
      emit({ type: 'tools.changed', tools: registry.list() });
    });
  });

  const extensions = new ExtensionManager({
    dataDir: ports.dataDir,
    bundledDir: ports.bundledExtensionsDir,
    launcher: ports.launcher ?? new NodeLauncher(),
    workerEntry: ports.workerEntry ?? workerRuntimeSource(),
    sink: registry,
    state: settingsExtensionState(settings),
    clock,
    log: ports.log,
  });
  extensions.onEvent((event) => {
    if (event.type === 'extension.changed') emit({ type: 'extension.changed', extension: event.extension });
    else if (event.type === 'extension.removed') emit({ type: 'extension.removed', id: event.id });
    else if (event.type === 'extension.log') emit({ type: 'extension.log', id: event.id, line: formatLogEntry(event.entry) });
    else if (event.type === 'extension.status' && event.status === 'failed') {
      addNotice({
        level: 'error',
        code: event.error?.code ?? 'EXTENSION_FAILED',
        message: `Extension "${event.id}" stopped after repeated crashes${event.error ? `: ${event.error.message}` : ''}. Restart it from Extensions.`,
      });
    }
  });
  await extensions.init();

  const handlers: Handlers = {
    'host.status': () => {
      const current = settings.get();
      return {
        dataDir: ports.dataDir,
        settingsVersion: current.version,
        mode: ports.mode,
        counts: { extensions: extensions.list().length, tools: registry.list().length, members: current.council.members.length },
        notices: [...notices],
      };
    },
    'host.ping': () => ({ now: clock.now() }),
    'notices.dismiss': ({ id }) => {
      const index = notices.findIndex((n) => n.id === id);
      if (index < 0) return { dismissed: false };
      notices.splice(index, 1);
      emit({ type: 'notice.dismissed', id });
      return { dismissed: true };
    },
    'settings.get': () => settings.get(),
    'settings.update': ({ patch }) => settings.update(patch),
    ...toolHandlers(registry),
    ...extensionHandlers(extensions),
  };

  let disposed = false;
  return {
    api: createDispatcher(handlers, ports.log),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    settings,
    registry,
    extensions,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await extensions.dispose();
      registry.dispose();
      listeners.clear();
    },
  };
}
