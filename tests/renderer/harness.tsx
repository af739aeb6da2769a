// Test harness: a fake HostConnection (an object, not a module mock) and a tiny React render helper.
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import type { HostEvent, HostEventListener } from '../../shared/events';
import type { Notice } from '../../shared/notices';
import { defaultSettings, type Settings } from '../../shared/settings';
import type { ConnectionInfo, ConnectionListener, HostConnection } from '../../renderer/src/api/connection';
import { App } from '../../renderer/src/app/App';
import { AppProviders } from '../../renderer/src/app/context';
import { createAppStore, type AppStore } from '../../renderer/src/stores/app-store';
import { wireHost } from '../../renderer/src/stores/wire';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Handler<M extends MethodName> = (input: MethodInput<M>) => Result<MethodOutput<M>> | Promise<Result<MethodOutput<M>>>;
type Handlers = { [M in MethodName]?: Handler<M> };

export interface Call {
  method: MethodName;
  input: unknown;
}

/** A host that answers from in-memory state, records every call, and lets the test push events and states. */
export class FakeHost implements HostConnection {
  readonly transport = 'websocket' as const;
  readonly calls: Call[] = [];
  reconnects = 0;
  notices: Notice[] = [];
  settings: Settings = defaultSettings();
  dataDir = '/home/ada/.config/council-workbench';
  private info: ConnectionInfo;
  private readonly eventListeners = new Set<HostEventListener>();
  private readonly infoListeners = new Set<ConnectionListener>();
  /** Per-method overrides; the defaults below behave like the real host. */
  readonly handlers: Handlers = {};

  constructor(state: ConnectionInfo['state'] = 'connected') {
    this.info = { state, transport: 'websocket', attempt: 0, willRetry: false };
  }

  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>> {
    this.calls.push({ method, input });
    const override = this.handlers[method] as Handler<M> | undefined;
    if (override) return Promise.resolve(override(input));
    return Promise.resolve(this.answer(method, input) as Result<MethodOutput<M>>);
  }

  private answer(method: MethodName, input: unknown): Result<unknown> {
    switch (method) {
      case 'host.status':
        return {
          ok: true,
          value: {
            dataDir: this.dataDir,
            settingsVersion: this.settings.version,
            mode: 'browser',
            counts: { extensions: 2, tools: 5, members: this.settings.council.members.length },
            notices: [...this.notices],
          },
        };
      case 'host.ping':
        return { ok: true, value: { now: 1 } };
      case 'settings.get':
        return { ok: true, value: structuredClone(this.settings) };
      case 'settings.update': {
        const patch = (input as { patch: { ui?: { theme?: Settings['ui']['theme'] } } }).patch;
        this.settings = { ...this.settings, ui: { ...this.settings.ui, ...patch.ui } };
        return { ok: true, value: structuredClone(this.settings) };
      }
      case 'notices.dismiss': {
        const { id } = input as { id: string };
        const before = this.notices.length;
        this.notices = this.notices.filter((n) => n.id !== id);
        return { ok: true, value: { dismissed: this.notices.length < before } };
      }
      default:
        return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `fake host has no ${method}` } };
    }
  }

  callsTo(method: MethodName): Call[] {
    return this.calls.filter((c) => c.method === method);
  }

  onEvent(listener: HostEventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  emit(event: HostEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }

  getInfo(): ConnectionInfo {
    return this.info;
  }

  onInfo(listener: ConnectionListener): () => void {
    this.infoListeners.add(listener);
    return () => this.infoListeners.delete(listener);
  }

  setInfo(next: Partial<ConnectionInfo>): void {
    this.info = { ...this.info, ...next };
    for (const listener of this.infoListeners) listener(this.info);
  }

  reconnect(): void {
    this.reconnects += 1;
  }

  dispose(): void {
    this.eventListeners.clear();
    this.infoListeners.clear();
  }
}

export interface Rendered {
  container: HTMLElement;
  store: AppStore;
  host: FakeHost;
  unmount(): void;
}

const mounted: Array<() => void> = [];

/** Renders the whole shell wired to `host` the way main.tsx does, and waits for the first resync. */
export async function renderShell(host: FakeHost, ui: ReactElement = <App />): Promise<Rendered> {
  const store = createAppStore({ now: () => Date.UTC(2026, 0, 2, 9, 30) });
  const unwire = wireHost(store, host);
  const container = document.createElement('div');
  document.body.appendChild(container);
  let root: Root;
  await act(async () => {
    root = createRoot(container);
    root.render(
      <AppProviders host={host} store={store}>
        {ui}
      </AppProviders>,
    );
  });
  const unmount = () => {
    act(() => root.unmount());
    unwire();
    container.remove();
  };
  mounted.push(unmount);
  return { container, store, host, unmount };
}

export function cleanup(): void {
  while (mounted.length) mounted.pop()!();
  delete document.documentElement.dataset.theme;
}

/** Runs a state change inside act and lets pending promises settle. */
export async function settle(fn: () => void | Promise<void> = () => undefined): Promise<void> {
  await act(async () => {
    await fn();
  });
}

export function byTestId(container: ParentNode, id: string): HTMLElement {
  const el = container.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  if (!el) throw new Error(`no element with data-testid="${id}"`);
  return el;
}

export function navButton(container: ParentNode, label: string): HTMLButtonElement {
  const nav = container.querySelector('nav[aria-label="Sections"]');
  const button = [...(nav?.querySelectorAll<HTMLButtonElement>('button') ?? [])].find(
    (b) => b.querySelector('.nav__label')?.textContent === label,
  );
  if (!button) throw new Error(`no nav button "${label}"`);
  return button;
}

export function key(target: EventTarget, init: KeyboardEventInit): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

export function notice(partial: Partial<Notice> = {}): Notice {
  return {
    id: 'n1',
    level: 'warning',
    code: 'SETTINGS_RECOVERED',
    message: 'Your settings file was not valid JSON. It was kept aside as settings.json.corrupt-1; the defaults were loaded.',
    at: Date.UTC(2026, 0, 2, 9, 0),
    ...partial,
  };
}
