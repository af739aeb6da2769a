// ctx.dom inside the extension's frames: HTML it injects is sanitized (DOMPurify, as Lumiverse does), styles
// reach every one of its documents, lookups search them all, and sandbox frames are opaque-origin frames.
// Message bubbles are the app's: the message lookups answer a place of the extension's own under each message
// (message-surfaces.ts).
import type { RuntimeState } from './runtime-state';
import { createSandbox, type SandboxOptions } from './sandbox-host';
import { createMessageSurfaces } from './message-surfaces';
import { sanitizeHtml } from './sanitize-html';

type Position = 'beforebegin' | 'afterbegin' | 'beforeend' | 'afterend';
const FORBIDDEN_CREATE_TAGS = new Set(['iframe', 'frame', 'object', 'embed']);

export function createDom(state: RuntimeState) {
  const injected = new Set<Element>();
  const messages = createMessageSurfaces(state);
  const removers = new Set<() => void>();
  const sandboxes = new Set<ReturnType<typeof createSandbox>>();
  state.channel.on('theme', ({ vars }) => sandboxes.forEach((s) => s.setTheme(vars)));
  const target = (where: string | Element): Element | null => (typeof where === 'string' ? state.docs.query(where) : where);
  const dom = {
    inject(where: string | Element, html: string, position: Position = 'beforeend'): Element {
      const host = target(where);
      if (!host) throw Object.assign(new Error(`ctx.dom.inject: nothing matches ${JSON.stringify(String(where)).slice(0, 120)}.`), { code: 'INVALID_INPUT' });
      const wrapper = (host.ownerDocument ?? document).createElement('div');
      wrapper.setAttribute('data-spindle-ext', state.extensionId);
      wrapper.append(sanitizeHtml(html, wrapper.ownerDocument));
      host.insertAdjacentElement(position, wrapper);
      injected.add(wrapper);
      return wrapper;
    },
    uninject(element: Element) {
      element.remove();
      injected.delete(element);
    },
    addStyle(css: string): () => void {
      const remove = state.docs.addStyle(String(css));
      removers.add(remove);
      return () => {
        remove();
        removers.delete(remove);
      };
    },
    /** An element of its own, tagged and taken away with its other injections; a frame of any kind is refused, as in Lumiverse. */
    createElement(tag: string, attrs: Record<string, string> = {}): Element {
      const name = String(tag);
      if (FORBIDDEN_CREATE_TAGS.has(name.toLowerCase())) {
        throw Object.assign(new Error(`Forbidden element tag: ${name}. Use ctx.dom.createSandboxFrame() for isolated scriptable widgets.`), { code: 'INVALID_INPUT' });
      }
      const element = document.createElement(name);
      element.setAttribute('data-spindle-ext', state.extensionId);
      for (const [key, value] of Object.entries(attrs ?? {})) element.setAttribute(key, String(value));
      injected.add(element);
      return element;
    },
    createSandboxFrame(options: SandboxOptions) {
      const sandbox = createSandbox(document, state.sandboxUrl, { ...options, theme: state.docs.themeVars(), forms: true });
      sandboxes.add(sandbox);
      const destroy = sandbox.destroy;
      return Object.assign(sandbox, {
        destroy() {
          sandboxes.delete(sandbox);
          destroy();
        },
      });
    },
    query: (selector: string) => state.docs.query(selector),
    queryAll: (selector: string) => state.docs.queryAll(selector),
    getMessageId: (element: Element) => element.closest('[data-message-id]')?.getAttribute('data-message-id') ?? null,
    findMessageElement: (messageId: unknown) => messages.element(messageId),
    listMessageElements: () => messages.all(),
    cleanup() {
      for (const element of injected) element.remove();
      injected.clear();
      for (const remove of removers) remove();
      removers.clear();
    },
  };
  state.atTeardown(() => dom.cleanup());
  return dom;
}
