// createHost(ports): wires the core services to the contract and owns their lifetime.
import type { Handlers } from '../../shared/contract';
import type { HostEvent, HostEventListener } from '../../shared/events';
import type { Notice } from '../../shared/notices';
import { createDispatcher, type Dispatcher } from './contract/dispatcher';
import { systemClock, type Clock, type Logger, type SettingsBackendFactory } from './ports';
import { SettingsStore } from './settings/settings-store';

export interface HostPorts {
  dataDir: string;
  mode: 'desktop' | 'browser' | 'cli';
  settingsBackend: SettingsBackendFactory;
  log: Logger;
  clock?: Clock;
}

export interface Host {
  api: Dispatcher;
  onEvent(listener: HostEventListener): () => void;
  settings: SettingsStore;
  dispose(): Promise<void>;
}

export async function createHost(ports: HostPorts): Promise<Host> {
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

  const handlers: Handlers = {
    'host.status': () => {
      const current = settings.get();
      return {
        dataDir: ports.dataDir,
        settingsVersion: current.version,
        mode: ports.mode,
        counts: { extensions: 0, tools: 0, members: current.council.members.length },
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
  };

  return {
    api: createDispatcher(handlers, ports.log),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    settings,
    async dispose() {
      listeners.clear();
    },
  };
}
