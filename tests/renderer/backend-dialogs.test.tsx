// @vitest-environment happy-dom
// A backend's dialog in the window: drawn from the host's event as text, keyboard first, the person's answer sent
// back through the host; one answered elsewhere goes without an answer; its frontend stopping leaves it.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostConnection } from '../../renderer/src/api/connection';
import type { HostEvent } from '../../shared/contract/events';
import { AppProviders } from '../../renderer/src/app/context';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import { FrontendDialogs } from '../../renderer/src/features/frontends/FrontendDialogs';
import { FrontendsProvider } from '../../renderer/src/features/frontends/frontends-context';
import { createFrontendsStore, frontendsActions } from '../../renderer/src/features/frontends/frontends-store';

const roots: Array<() => void> = [];
afterEach(() => roots.splice(0).forEach((done) => done()));

function open(waiting: unknown[] = []) {
  const answers: unknown[] = [];
  let listener: (event: HostEvent) => void = () => undefined;
  let onInfo: (info: { state: string }) => void = () => undefined;
  const host = {
    invoke: async (method: string, input: unknown) => {
      if (method === 'extensions.dialogs') return { ok: true, value: { dialogs: waiting } };
      if (method === 'extensions.dialogAnswer') answers.push(input);
      return { ok: true, value: { taken: true } };
    },
    onEvent: (l: (event: HostEvent) => void) => ((listener = l), () => undefined),
    getInfo: () => ({ state: 'connected' }),
    onInfo: (l: (info: { state: string }) => void) => ((onInfo = l), () => undefined),
  } as unknown as HostConnection;
  const frontends = { store: createFrontendsStore(), brokers: new Map() };
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() =>
    root.render(
      <AppProviders host={host} store={createAppStore()}>
        <FrontendsProvider value={frontends}>
          <FrontendDialogs />
        </FrontendsProvider>
      </AppProviders>,
    ),
  );
  roots.push(() => {
    act(() => root.unmount());
    container.remove();
  });
  const emit = (event: HostEvent) => act(() => listener(event));
  const reconnect = (stillWaiting: unknown[]) => {
    waiting = stillWaiting;
    act(() => onInfo({ state: 'connected' }));
  };
  return { container, answers, emit, frontends, reconnect };
}

const flush = () => act(async () => void (await Promise.resolve()));

describe("a backend's dialogs in the window", () => {
  it('a line to write: focused, described by its message, not sent blank, typed and submitted, its answer sent through the host; the dialog goes and the focus comes back', async () => {
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    const { container, answers, emit } = open();
    emit({ type: 'extension.dialog', dialog: { dialogId: 'd1', extensionId: 'threadverse', kind: 'input', params: { title: 'New preset', message: 'Name it.', defaultValue: 'Untitled', submitLabel: 'Create' } } });
    const dialog = container.querySelector<HTMLElement>('[data-testid="extension-prompt"]')!;
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.textContent).toContain('Name it.');
    const input = dialog.querySelector('input')!;
    expect(document.activeElement).toBe(input);
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toBe('Name it.');
    act(() => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, '   ');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const create = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Create')!;
    expect(create.disabled).toBe(true);
    act(() => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setter.call(input, 'Harbour nights');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    act(() => dialog.querySelector('form')!.requestSubmit());
    await flush();
    expect(answers).toEqual([{ dialogId: 'd1', answer: { value: 'Harbour nights' } }]);
    expect(container.querySelector('[data-testid="extension-prompt"]')).toBeNull();
    expect(document.activeElement).toBe(before);
    before.remove();
  });

  it('a window opened later shows what still waits; Tab stays in the dialog; Ctrl+Enter saves the text editor', async () => {
    const { container, answers } = open([{ dialogId: 'w1', extensionId: 'lumistage', kind: 'textEditor', params: { title: 'Edit sprite names', value: 'happy' } }]);
    await flush();
    const editor = container.querySelector<HTMLElement>('[data-testid="extension-text-editor"]')!;
    const buttons = [...editor.querySelectorAll('button')];
    buttons.at(-1)!.focus();
    act(() => void editor.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true })));
    expect(document.activeElement).toBe(editor.querySelector('textarea'));
    act(() => void editor.querySelector('textarea')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true })));
    await flush();
    expect(answers).toEqual([{ dialogId: 'w1', answer: { text: 'happy' } }]);
  });

  it('a notice of items drawn as text (markup stays text); Escape closes it; one answered elsewhere goes unanswered; a frontend stopping leaves it', async () => {
    const { container, answers, emit, frontends } = open();
    emit({ type: 'extension.dialog', dialog: { dialogId: 'n1', extensionId: 'scene', kind: 'modal', params: { title: 'Scene', items: [{ type: 'heading', content: 'Harbour' }, { type: 'key_value', label: 'Weather', value: '<b>Fog</b>' }, { type: 'card', items: [{ type: 'text', content: 'Ships wait.', muted: true }] }] } } });
    const notice = container.querySelector<HTMLElement>('[data-testid="extension-notice"]')!;
    expect(notice.querySelector('h3')!.textContent).toBe('Harbour');
    expect(notice.textContent).toContain('<b>Fog</b>');
    expect(notice.querySelector('b')).toBeNull();
    expect(notice.querySelector('.ext-dialog__card .ext-dialog__message--muted')!.textContent).toBe('Ships wait.');
    act(() => frontendsActions.clearExtension(frontends.store, 'scene'));
    expect(container.querySelector('[data-testid="extension-notice"]')).not.toBeNull();
    act(() => notice.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    await flush();
    expect(answers).toEqual([{ dialogId: 'n1', answer: {} }]);

    emit({ type: 'extension.dialog', dialog: { dialogId: 't1', extensionId: 'lumistage', kind: 'textEditor', params: { title: 'Edit sprite names', value: 'happy' } } });
    expect(container.querySelector('[data-testid="extension-text-editor"] textarea')!.textContent).toBe('happy');
    emit({ type: 'extension.dialog-closed', dialogId: 't1' });
    expect(container.querySelector('[data-testid="extension-text-editor"]')).toBeNull();
    expect(answers).toHaveLength(1);
  });

  it('back from a lost connection, a dialog answered or closed meanwhile goes, and one opened meanwhile comes', async () => {
    const { container, emit, reconnect } = open();
    await flush();
    emit({ type: 'extension.dialog', dialog: { dialogId: 'gone', extensionId: 'scene', kind: 'confirm', params: { title: 'Delete tracker', message: 'Sure?' } } });
    expect(container.querySelector('[data-testid="extension-confirm"]')).not.toBeNull();
    reconnect([{ dialogId: 'new', extensionId: 'threadverse', kind: 'input', params: { title: 'New preset' } }]);
    await flush();
    expect(container.querySelector('[data-testid="extension-confirm"]')).toBeNull();
    expect(container.querySelector('[data-testid="extension-prompt"]')).not.toBeNull();
  });
});
