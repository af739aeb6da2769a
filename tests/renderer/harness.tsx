// Test harness: a tiny React render helper for the whole shell (wired to a RealHost, real-host.ts: the real core in
// memory, under `// @vitest-environment real-core`), DOM queries, animation frames in the test's hands, and ToolInfo /
// ExtensionInfo builders for the store-only suites.
import { act, type ReactElement } from 'react';
import { vi } from 'vitest';
import { createRoot, type Root } from 'react-dom/client';
import { VirtuosoMockContext } from 'react-virtuoso';
import type { ExtensionInfo } from '../../shared/contract/events';
import type { ToolInfo } from '../../shared/types/tools';
import type { HostConnection } from '../../renderer/src/api/connection';
import { preloadPanels } from '../../renderer/src/features';
import { App } from '../../renderer/src/app/App';
import { AppProviders } from '../../renderer/src/app/context';
import { createAppStore, type AppStore } from '../../renderer/src/stores/app/app-store';
import { wireHost } from '../../renderer/src/stores/app/wire';
import { SEARCH_DTO } from './real-tools';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Rendered<H extends HostConnection> {
  container: HTMLElement;
  store: AppStore;
  host: H;
  unmount(): void;
}

const mounted: Array<() => void> = [];
const LAID_OUT = { viewportHeight: 1_000_000, itemHeight: 100 };

/** Renders the whole shell wired to `host` (a RealHost) the way main.tsx does, and waits for the first resync. */
export async function renderShell<H extends HostConnection>(host: H, ui: ReactElement = <App />): Promise<Rendered<H>> {
  // The sections that load apart are loaded first, as the app has them by the time a person clicks.
  await preloadPanels();
  const store = createAppStore({ now: () => Date.UTC(2026, 0, 2, 9, 30) });
  const unwire = wireHost(store, host);
  const container = document.createElement('div');
  document.body.appendChild(container);
  let root: Root;
  await act(async () => {
    root = createRoot(container);
    root.render(
      // happy-dom lays nothing out: the virtualized chat is told a viewport tall enough to draw every row it holds.
      <VirtuosoMockContext.Provider value={LAID_OUT}>
        <AppProviders host={host} store={store}>
          {ui}
        </AppProviders>
      </VirtuosoMockContext.Provider>,
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
  // The window's address is a place (app/address.ts): the next test starts at none.
  history.replaceState(null, '', '/');
}

/**
 * Waited for after every settle() and first render: real-host.ts adds one (every RealHost has answered what it was
 * sent). Kept as a hook so that suites that only use the builders here (extensions-store) never load the core.
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
    displayName: SEARCH_DTO.display_name,
    description: SEARCH_DTO.description,
    parameters: SEARCH_DTO.parameters,
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
  // Each run is a frame a second after the last: anything that waits a number of milliseconds of frame time (the
  // chat's text cadence) has waited it by the next run.
  let time = 0;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
    const id = next++;
    queue.set(id, () => cb(time));
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => void queue.delete(id));
  return {
    pending: () => queue.size,
    run: () => {
      time += 1000;
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
