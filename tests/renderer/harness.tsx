// Test harness: a tiny React render helper for the whole shell, DOM queries, and FakeHost, a hand-written HostConnection
// (an object, not a module mock). New and migrated suites use RealHost (real-host.ts: the real core in memory, under
// `// @vitest-environment real-core`); FakeHost stays only for the Workbench chat suite, not moved yet.
import { act, type ReactElement } from 'react';
import { vi } from 'vitest';
import { createRoot, type Root } from 'react-dom/client';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import type { ExtensionInfo, HostEvent, HostEventListener } from '../../shared/events';
import type { ToolInfo } from '../../shared/types/tools';
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
  tools: ToolInfo[] = [];
  extensions: ExtensionInfo[] = [];
  logs: Record<string, string[]> = {};
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
      case 'tools.list':
        return { ok: true, value: structuredClone(this.tools) };
      case 'tools.exportSpec': {
        const { qualifiedName, format } = input as { qualifiedName: string; format: string };
        const tool = this.tools.find((t) => t.qualifiedName === qualifiedName);
        if (!tool) return { ok: false, error: { code: 'UNKNOWN_TOOL', message: `No tool ${qualifiedName}.` } };
        return { ok: true, value: { spec: { format, name: tool.alias, description: tool.description, parameters: tool.parameters } } };
      }
      case 'extensions.list':
        return { ok: true, value: structuredClone(this.extensions) };
      case 'extensions.log':
        return { ok: true, value: { lines: [...(this.logs[(input as { id: string }).id] ?? [])] } };
      case 'extensions.enable':
      case 'extensions.disable':
      case 'extensions.restart':
      case 'extensions.grant':
      case 'extensions.revoke':
        return this.changeExtension(method, input as { id: string; permission?: 'tools' | 'generation' });
      case 'extensions.remove': {
        const { id } = input as { id: string };
        const before = this.extensions.length;
        this.extensions = this.extensions.filter((e) => e.id !== id);
        return { ok: true, value: { removed: this.extensions.length < before } };
      }
      case 'extensions.install': {
        const { folder, grant = [] } = input as { folder: string; grant?: Array<'tools' | 'generation'> };
        const id = folder.split('/').filter(Boolean).pop() ?? 'ext';
        const ext = extension({ id, name: id, source: 'user', granted: [...grant], status: 'running' });
        this.extensions.push(ext);
        return { ok: true, value: structuredClone(ext) };
      }
      default:
        return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `fake host has no ${method}` } };
    }
  }

  private changeExtension(method: MethodName, input: { id: string; permission?: 'tools' | 'generation' }): Result<unknown> {
    const ext = this.extensions.find((e) => e.id === input.id);
    if (!ext) return { ok: false, error: { code: 'NOT_FOUND', message: `No extension ${input.id}.` } };
    if (method === 'extensions.enable') Object.assign(ext, { enabled: true, status: 'running' });
    if (method === 'extensions.disable') Object.assign(ext, { enabled: false, status: 'disabled' });
    if (method === 'extensions.restart') Object.assign(ext, { status: 'running', error: undefined });
    if (method === 'extensions.grant' && input.permission && !ext.granted.includes(input.permission)) ext.granted.push(input.permission);
    if (method === 'extensions.revoke') ext.granted = ext.granted.filter((p) => p !== input.permission);
    return { ok: true, value: structuredClone(ext) };
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

export interface Rendered<H extends HostConnection = FakeHost> {
  container: HTMLElement;
  store: AppStore;
  host: H;
  unmount(): void;
}

const mounted: Array<() => void> = [];

/** Renders the whole shell wired to `host` (a FakeHost or a RealHost) the way main.tsx does, and waits for the first resync. */
export async function renderShell<H extends HostConnection = FakeHost>(host: H, ui: ReactElement = <App />): Promise<Rendered<H>> {
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
  await settleHostsToo();
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

/**
 * Waited for after every settle() and first render: real-host.ts adds one (every RealHost has answered what it was
 * sent). Kept as a hook so that suites on FakeHost never load the core.
 */
const settleHooks = new Set<() => Promise<void>>();
export function onSettle(hook: () => Promise<void>): void {
  settleHooks.add(hook);
}
async function settleHostsToo(): Promise<void> {
  for (const hook of settleHooks) await hook();
}

/** Runs a state change inside act and lets pending promises settle, and any RealHost answer every call it was sent. */
export async function settle(fn: () => void | Promise<void> = () => undefined): Promise<void> {
  await act(async () => {
    await fn();
  });
  await settleHostsToo();
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

export function tool(partial: Partial<ToolInfo> = {}): ToolInfo {
  const name = partial.name ?? 'search_knowledge_base';
  const extensionId = partial.extensionId === undefined ? 'knowledge-base' : partial.extensionId;
  return {
    qualifiedName: extensionId ? `${extensionId}:${name}` : `builtin:${name}`,
    alias: `${(extensionId ?? 'builtin').replace(/-/g, '_')}__${name}`,
    name,
    displayName: 'Search Knowledge Base',
    description: 'Searches the extension knowledge base for relevant information',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Search query' }, limit: { type: 'number', description: 'Max results', default: 5 } },
      required: ['query'],
    },
    mode: 'read',
    modeDeclared: true,
    councilEligible: true,
    inlineAvailable: false,
    hasSimulate: false,
    requiresApproval: false,
    source: 'extension',
    extensionId,
    status: 'available',
    definitionHash: 'a'.repeat(64),
    ...partial,
  };
}

export function extension(partial: Partial<ExtensionInfo> = {}): ExtensionInfo {
  return {
    id: 'knowledge-base',
    name: 'Knowledge Base',
    version: '1.0.0',
    description: 'Searches a small bundled library of lore.',
    source: 'bundled',
    status: 'running',
    enabled: true,
    requested: ['tools'],
    granted: ['tools'],
    toolCount: 1,
    trusted: false,
    containment: 'Node permission model: reads its own folder only',
    ...partial,
  };
}

/** Sets a controlled input's value the way a user typing does, so React's onChange fires. */
export function typeInto(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
  el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/** Text as a screen reader reads it: without aria-hidden parts, whitespace collapsed. */
export function spokenText(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The form control labelled `text` (exact match of the label's spoken text, or of aria-label). */
export function byLabel<T extends HTMLElement = HTMLInputElement>(root: ParentNode, text: string | RegExp): T {
  const matches = (value: string | null | undefined) =>
    value != null && (typeof text === 'string' ? value.replace(/\s+/g, ' ').trim() === text : text.test(value));
  for (const label of root.querySelectorAll('label')) {
    if (!matches(spokenText(label))) continue;
    const control = label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input, select, textarea');
    if (control) return control as T;
  }
  const aria = [...root.querySelectorAll<HTMLElement>('[aria-label]')].find((el) => matches(el.getAttribute('aria-label')));
  if (aria) return aria as T;
  throw new Error(`no control labelled ${String(text)}`);
}

/** Takes over requestAnimationFrame: callbacks wait until the test runs the frame. Undone by vi.unstubAllGlobals. */
export function controlFrames(): { pending(): number; run(): void } {
  let queue = new Map<number, () => void>();
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
    const id = next++;
    queue.set(id, () => cb(performance.now()));
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => void queue.delete(id));
  return {
    pending: () => queue.size,
    run: () => {
      const due = queue;
      queue = new Map();
      for (const cb of due.values()) cb();
    },
  };
}

export function buttonNamed(root: ParentNode, text: string | RegExp): HTMLButtonElement {
  const matches = (value: string | null | undefined) =>
    value != null && (typeof text === 'string' ? value.replace(/\s+/g, ' ').trim() === text : text.test(value));
  const found = [...root.querySelectorAll('button')].find((b) => matches(b.getAttribute('aria-label') ?? spokenText(b)));
  if (!found) throw new Error(`no button named ${String(text)}`);
  return found;
}
